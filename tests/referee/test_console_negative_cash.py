"""The engine's answer before a bankruptcy with negative cash says who carries the shortfall
(RULESETS.md, "Bankruptcy with negative cash"), and the figures match what is booked."""

from __future__ import annotations

import json

import pytest
from consoles import keys, play_events
from django.utils import translation

from referee import engine_cache, services

pytestmark = pytest.mark.django_db


def _answer(client, table, event, lang):
    with translation.override(lang):
        response = client.post(
            f"/banker/table/{table.pk}/check/", json.dumps({"events": [event]}),
            content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang,
        )
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def below_zero(client, banker, table):
    """Jürgen (the first seat) had 210 and paid 300 rent to Dörte (the second): −90."""
    client.force_login(banker)
    game = services.ensure_game(table=table)
    juergen, doerte, *_ = keys(table)
    play_events(game, {"type": "start"}, {"type": "cash", "player": juergen, "amount": 210},
          {"type": "pay", "from": juergen, "to": doerte, "amount": 300, "reason": "rent"})
    return game, juergen, doerte


def test_a_player_creditor_is_told_to_pay_the_shortfall_back(client, table, below_zero):
    game, juergen, doerte = below_zero
    event = {"type": "bankrupt", "player": juergen, "creditor": doerte}
    html = _answer(client, table, event, "en")
    assert 'data-ok="1"' in html
    assert "pays back the shortfall of 90" in html and "stands at −90" in html
    assert "receives -90" not in html and "receives 0" not in html
    html = _answer(client, table, event, "de")
    assert "zahlt den Fehlbetrag von 90 zurück" in html
    game.refresh_from_db()  # an engine is built at the row's event count
    cash_before = engine_cache.engine_for(game).state.cash[doerte]
    play_events(game, event)
    engine_cache.clear()
    game.refresh_from_db()
    assert engine_cache.engine_for(game).state.cash[doerte] == cash_before - 90


def test_the_bank_absorbs_the_shortfall(client, table, below_zero):
    _game, juergen, _doerte = below_zero
    event = {"type": "bankrupt", "player": juergen, "creditor": "bank"}
    assert "The bank absorbs the shortfall of 90" in _answer(client, table, event, "en")
    assert "Die Bank trägt den Fehlbetrag von 90" in _answer(client, table, event, "de")
