"""Issue 15: every amount an event carries is bounded by the ruleset (``max_amount``), so a
typo of many zeros is refused with a reason instead of ending in a 64-bit overflow."""

from __future__ import annotations

import pytest
from rules_testkit import buy, new_game, ok, refused

from referee.rules import RULESETS

LIMIT = 10_000_000


@pytest.mark.parametrize("event", [
    {"type": "pay", "from": "bank", "to": "anna", "amount": 10**15},
    {"type": "pay", "from": "anna", "to": "ben", "amount": LIMIT + 1},
    {"type": "cash", "player": "anna", "amount": 10**15},
    {"type": "auction", "deed": "badstrasse", "winner": "anna", "price": 10**15},
    {"type": "trade", "from": "ben", "to": "anna", "deeds": ["parkstrasse"], "cash": 10**15},
])
def test_amounts_beyond_the_ruleset_limit_are_refused(event: dict) -> None:
    game = new_game("classic", *buy("ben", "parkstrasse"))
    exc = refused(game, event, "amount_too_large")
    assert str(LIMIT) in exc.message_en and "zu groß" in exc.message_de


def test_the_limit_itself_is_accepted() -> None:
    game = new_game("classic")
    ok(game, {"type": "cash", "player": "anna", "amount": LIMIT})


def test_the_limit_is_per_ruleset_and_follows_the_board_currency() -> None:
    assert RULESETS["karlsruhe"].max_amount == LIMIT
    game = new_game("classic-dm")  # every amount × 20 (DM)
    ok(game, {"type": "cash", "player": "anna", "amount": 20 * LIMIT})
    refused(game, {"type": "cash", "player": "anna", "amount": 20 * LIMIT + 1},
            "amount_too_large")


@pytest.mark.parametrize(("event", "de", "en"), [
    ({"type": "pay", "from": "anna", "to": "ben", "amount": 10**15}, "Die Zahlung", "the payment"),
    ({"type": "cash", "player": "anna", "amount": 10**15}, "Der gezählte Betrag",
     "the counted amount"),
    ({"type": "auction", "deed": "badstrasse", "winner": "anna", "price": 10**15}, "Der Preis",
     "the price"),
    ({"type": "trade", "from": "ben", "to": "anna", "deeds": ["parkstrasse"], "cash": 10**15},
     "Der Barbetrag", "the cash amount"),
])
def test_a_refused_amount_is_named_in_words_not_by_its_field(event: dict, de: str, en: str) -> None:
    """Issue 28: "amount" stood in a German refusal; the banker reads what the amount is."""
    game = new_game("classic", *buy("ben", "parkstrasse"))
    exc = refused(game, event, "amount_too_large")
    assert exc.message_de.startswith(de) and exc.message_en.startswith(en)
    for key in ("amount", "price", "cash"):
        assert f"„{key}“" not in exc.message_de and f"'{key}'" not in exc.message_en
