"""The console's words (issue 28): German in the German console, a refusal says its reason, the
auction walk-through counts through the cards, one word for a mortgaged deed, one form of
address on the banker's pages. New German comes from ``locale/glossary-de-words.json`` in a
temporary catalogue until ``make messages`` merged it."""

from __future__ import annotations

import re

import pytest
from catalogues import german_from_glossaries
from consoles import dealt_game, keys, main, play_events
from django.template.loader import render_to_string
from django.utils import translation

from referee import rules
from referee.console import picture
from referee.console.js_strings import JS_STRINGS
from referee.errors import RESULT_ALREADY_FINAL
from referee.paper import FIELD_LABELS
from tournament.errors import NOT_YOUR_TABLE

pytestmark = pytest.mark.django_db


@pytest.fixture
def german(tmp_path):
    with german_from_glossaries(tmp_path, "words"):
        yield


def test_the_correction_button_is_german_in_the_german_console(console, table, game):
    dealt_game(game, table)
    german_page = main(console, table).content.decode()
    assert 'data-open="sheet-void"' in german_page
    assert ">Korrigieren</button>" in german_page and ">Correct</button>" not in german_page
    english = console.get(f"/banker/table/{table.pk}/main/", HTTP_ACCEPT_LANGUAGE="en")
    assert ">Correct</button>" in english.content.decode()


def _stopped_game() -> rules.Game:
    """A Karlsruhe game at its auction stop: Anna owns Badstraße, every other deed waits."""
    game = rules.Game(ruleset="karlsruhe", players=("anna", "ben", "carla", "dieter"))
    game.apply({"type": "start", "at": "2026-11-28T14:00:00+01:00"})
    game.apply({"type": "buy", "player": "anna", "deed": "badstrasse", "at":
                "2026-11-28T14:10:00+01:00"})
    game.apply({"type": "auction_stop", "at": "2026-11-28T14:45:00+01:00"})
    return game


def _steps(engine: rules.Game) -> list[str]:
    pending, reason = picture.pending_auctions(engine)
    html = render_to_string("referee/console/_auction.html", {
        "pending_auctions": [{"key": key, "name": key, "price": 0} for key in pending],
        "pending_reason": reason,
        "auctions_done": picture.auctions_done(engine, reason),
    })
    return re.findall(r'<span class="progress">([^<]+)</span>', html)


def test_the_auction_walk_through_counts_through_the_cards():
    engine = _stopped_game()
    with translation.override("en"):
        first = _steps(engine)
        total = len(first)
        assert first[0] == f"Deed 1 of {total}" and first[-1] == f"Deed {total} of {total}"
        pending, _reason = picture.pending_auctions(engine)
        engine.apply({"type": "auction", "deed": pending[0], "winner": "ben", "price": 5})
        engine.apply({"type": "auction", "deed": pending[1], "winner": None, "price": 0})
        after = _steps(engine)
    # not "Deed 1 of 25" again: the third card of the same walk-through
    assert after[0] == f"Deed 3 of {total}" and len(after) == total - 2


def test_a_walk_through_after_a_bankruptcy_counts_from_that_bankruptcy():
    engine = rules.Game(ruleset="karlsruhe", players=("anna", "ben", "carla", "dieter"))
    engine.apply({"type": "start"})
    for deed in ("badstrasse", "turmstrasse", "parkstrasse"):
        engine.apply({"type": "buy", "player": "anna", "deed": deed})
    engine.apply({"type": "bankrupt", "player": "anna", "creditor": "bank"})
    pending, reason = picture.pending_auctions(engine)
    assert reason == "bankruptcy" and len(pending) == 3
    engine.apply({"type": "auction", "deed": pending[0], "winner": "ben", "price": 5})
    with translation.override("en"):
        assert _steps(engine)[0] == "Deed 2 of 3"


def test_rent_on_a_jailed_owners_deed_is_refused_with_the_reason(
    console, table, game, german,
):
    """RULESETS.md: in Karlsruhe an owner in jail collects no rent; the console says so instead
    of a bare "no rent is due"."""
    anna, ben, *_ = keys(table)
    dealt_game(game, table)
    assert game.ruleset == "karlsruhe"
    play_events(game, {"type": "jail", "player": anna})
    html = main(console, table, player=ben).content.decode()
    data = re.search(r'<script id="console-data" type="application/json">(.*?)</script>', html,
                     re.S)
    assert '"no_rent": "jail"' in data.group(1)
    assert "keine Miete: Eigentümer im Gefängnis" in html
    page = console.get(f"/banker/table/{table.pk}/").content.decode()
    assert "und nach den Regeln dieses Turniers kassiert ein" in page  # the JS string (JSON)
    assert "no_rent_jail" in JS_STRINGS and "no_rent_mortgaged" in JS_STRINGS
    play_events(game, {"type": "release", "player": anna})
    freed = main(console, table, player=ben).content.decode()
    assert '"no_rent": "jail"' not in freed


def test_one_word_for_a_mortgaged_deed_on_console_sheet_and_form():
    with translation.override("de"):
        console_word = str(translation.gettext("mortgaged"))
        assert console_word == "mit Hypothek"
        assert str(FIELD_LABELS["mortgaged"]) == "Mit Hypothek (halb)"
        from printing.scoresheet import _mortgaged_heading

        assert _mortgaged_heading() == "Mit Hypothek"
        assert "Belastete" not in str(FIELD_LABELS["mortgaged"])


def test_no_mr_monopoly_beside_the_head_referee(german):
    with translation.override("de"):
        for message in (RESULT_ALREADY_FINAL, NOT_YOUR_TABLE):
            assert "Mr. Monopoly" not in str(message) and "Oberschiedsrichter" in str(message)


def test_the_banker_page_says_sie_like_the_rest_of_the_site(client, banker, german):
    client.force_login(banker)
    html = client.get("/banker/").content.decode()
    assert "Ihnen ist noch kein Tisch zugeteilt" in html
    words = set(re.findall(r"\w+", re.sub(r"<[^>]+>", " ", html).lower()))
    assert not words & {"du", "dir", "dich", "dein", "deine", "deinen"}
