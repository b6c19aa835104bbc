"""The console explains itself: a payment into negative cash is a warning its button names
(strict cash refuses it), a wrong code is explained next to its field, a hidden action says why,
the page has a main heading, and the end-of-game note is good German."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from consoles import check, dealt_game, keys, main, play_events, result_revision

from referee import services
from referee.models import GameResult

# fixtures: tests/referee/conftest.py
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def test_a_payment_into_negative_cash_is_a_warning_and_the_button_says_so(console, table, game):
    anna, ben, *_ = keys(table)
    dealt_game(game, table)  # Anna: 1500 - 60 - 60 = 1380
    html = check(console, table, [{"type": "pay", "from": anna, "to": ben, "amount": 5000,
                                   "reason": "rent"}], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-ok="1"' in html  # allowed (no ledger): a warning, not a refusal
    box = re.search(r'<div class="negative-box"[^>]*data-negative="(-?\d+)"[^>]*'
                    r'data-confirm-label="([^"]+)"', html)
    assert box, html
    assert box.group(1) == "-3620"
    assert box.group(2) == "Trotzdem buchen: Kontostand −3.620"
    assert "Achtung" in html and "Anna Test" in html
    html = check(console, table, [{"type": "pay", "from": anna, "to": ben, "amount": 500,
                                   "reason": "rent"}]).content.decode()
    assert "negative-box" not in html


def test_strict_cash_refuses_the_payment_instead(console, table):
    tournament = table.round.tournament
    tournament.strict_cash = True
    tournament.save()
    game = services.ensure_game(table=table)
    assert game.ledger
    anna, ben, *_ = keys(table)
    dealt_game(game, table)
    html = check(console, table, [{"type": "pay", "from": anna, "to": ben, "amount": 5000,
                                   "reason": "rent"}]).content.decode()
    assert 'data-ok="0"' in html and "negative-box" not in html


def test_a_wrong_code_is_explained_next_to_the_field(console, table, ended):
    url = f"/banker/table/{table.pk}"
    console.post(f"{url}/count/", {"seq": ended.event_count, "revision": result_revision(table)})
    wrong = "9999" if ended.confirmation_code != "9999" else "0000"
    html = console.post(f"{url}/confirm/", {"code": wrong, "revision": result_revision(table)},
                        HTTP_ACCEPT_LANGUAGE="de").content.decode()
    field = html.index('id="confirm-code"')
    error = html.index('data-field-error="code"')
    assert 0 < error - field < 600  # right below the input
    assert 'aria-describedby="confirm-code-error"' in html and 'aria-invalid="true"' in html
    assert GameResult.objects.get(game=ended).status == "counted"


def test_hidden_actions_say_why_they_are_unavailable(console, table, game, clock):
    anna, *_ = keys(table)
    dealt_game(game, table)
    clock.shift(dt.timedelta(minutes=46))
    # past the stop, once every remaining deed has been auctioned: buying is over
    from referee import engine_cache

    board = engine_cache.engine_for(game).state.board
    game.refresh_from_db()
    owned = set(engine_cache.engine_for(game).state.owner)
    free = [d.key for d in board.deeds if d.key not in owned]
    play_events(game, *[{"type": "auction", "deed": key, "winner": None, "price": 0} for key in free[:-1]])
    html = main(console, table, player=anna).content.decode()
    if 'data-mode="auction"' in html:  # one deed left to walk through: the stop is not done
        play_events(game, {"type": "auction", "deed": free[-1], "winner": None, "price": 0})
        html = main(console, table, player=anna).content.decode()
    panel = re.search(rf'data-player-panel="{anna}".*?</section>', html, re.S).group(0)
    assert 'data-open="sheet-buy"' not in panel
    assert "data-unavailable" in panel


def test_the_console_page_has_a_main_heading(console, table, game):
    html = console.get(f"/banker/table/{table.pk}/").content.decode()
    assert re.search(r"<h1 class=\"table-title\">", html)


def test_building_while_in_jail_says_why(console, table, game):
    """Karlsruhe: an owner in jail may not build; the hidden button gets the engine's reason."""
    anna, *_ = keys(table)
    dealt_game(game, table)  # Anna owns Badstraße and Turmstraße: a complete group
    assert game.ruleset == "karlsruhe"
    panel_of = lambda html: re.search(  # noqa: E731
        rf'data-player-panel="{anna}".*?</section>', html, re.S).group(0)
    free = panel_of(main(console, table, player=anna).content.decode())
    assert 'data-open="sheet-buildings"' in free and 'data-rule="owner_in_jail"' not in free
    play_events(game, {"type": "jail", "player": anna})
    jailed = panel_of(console.get(f"/banker/table/{table.pk}/main/", {"player": anna},
                                  HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert 'data-open="sheet-buildings"' not in jailed
    reason = re.search(r'<li data-rule="owner_in_jail"><b>([^<]+)</b>: ([^<]+)</li>', jailed)
    assert reason, jailed
    assert "Gefängnis" in reason.group(2)


def test_the_end_of_game_note_is_good_german():
    from django.utils import translation

    from referee.console import dry_run

    with translation.override("de"):
        note = str(dry_run.END_NOTES["second_bankruptcy"])
    assert note.startswith("Mit dem zweiten Bankrott endet das Spiel")
    assert "(den" not in note
