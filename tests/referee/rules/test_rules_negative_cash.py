"""Bankruptcy with negative cash (RULESETS.md): the shortfall comes off the creditor.

Without a ledger the console books a payment past the warning, so a player can stand below
zero; if they then go bankrupt, nobody may keep money that never existed."""

from __future__ import annotations

import pytest
from rules_testkit import ALL_RULESETS, build, buy, new_game, ok, refused

from referee.rules import Game

PLAYERS = ("juergen", "doerte", "anna", "ben")


def _jurgen_at_210(ruleset: str, *, ledger: bool = False) -> Game:
    """Jürgen owns Badstraße and has 210 cash."""
    return new_game(
        ruleset,
        *buy("juergen", "badstrasse"),
        {"type": "cash", "player": "juergen", "amount": 210},
        players=PLAYERS,
        ledger=ledger,
    )


def _rent(amount: int) -> dict:
    return {"type": "pay", "from": "juergen", "to": "doerte", "amount": amount, "reason": "rent"}


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_creditor_pays_the_shortfall_back(ruleset: str) -> None:
    """The issue's case: Jürgen (210) pays 300 rent to Dörte (-90), then goes bankrupt to
    her: she ends with 210 of his money plus his deed, not 300."""
    game = _jurgen_at_210(ruleset)
    s = game.state
    doerte = s.cash["doerte"]
    total = sum(s.cash.values())
    ok(game, _rent(300))
    assert (s.cash["juergen"], s.cash["doerte"]) == (-90, doerte + 300)
    ok(game, {"type": "bankrupt", "player": "juergen", "creditor": "doerte"})
    assert s.cash["juergen"] == 0
    assert s.cash["doerte"] == doerte + 210
    assert s.owner["badstrasse"] == "doerte"
    assert sum(s.cash.values()) == total  # no money came from nowhere


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_the_bank_absorbs_the_shortfall(ruleset: str) -> None:
    """Bankrupt to the bank, the bank absorbs the negative cash: Dörte keeps the 300 she
    was paid, the other players' cash is untouched, the deed goes back to the bank."""
    game = _jurgen_at_210(ruleset)
    s = game.state
    before = dict(s.cash)
    ok(game, _rent(300))
    ok(game, {"type": "bankrupt", "player": "juergen", "creditor": "bank"})
    assert s.cash == {**before, "juergen": 0, "doerte": before["doerte"] + 300}
    assert "badstrasse" not in s.owner


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_ledger_refuses_the_payment_so_the_case_cannot_arise(ruleset: str) -> None:
    game = _jurgen_at_210(ruleset, ledger=True)
    s = game.state
    doerte = s.cash["doerte"]
    exc = refused(game, _rent(300), "insufficient_cash")
    assert "210" in exc.message_en and "300" in exc.message_en
    ok(game, _rent(210))
    ok(game, {"type": "bankrupt", "player": "juergen", "creditor": "doerte"})
    assert (s.cash["juergen"], s.cash["doerte"]) == (0, doerte + 210)


def test_buildings_sold_for_the_creditor_cover_the_shortfall_first() -> None:
    """Three houses at half of 200 bring 300; 90 of it pays back the shortfall."""
    game = new_game(
        "karlsruhe",
        *buy("juergen", "parkstrasse", "schlossallee"),
        *build("parkstrasse", "schlossallee", "parkstrasse"),
        {"type": "cash", "player": "juergen", "amount": 210},
        players=PLAYERS,
    )
    s = game.state
    doerte = s.cash["doerte"]
    ok(game, _rent(300))
    ok(game, {"type": "bankrupt", "player": "juergen", "creditor": "doerte"})
    assert s.cash["doerte"] == doerte + 300 - 90 + 300
    assert s.level["parkstrasse"] == s.level["schlossallee"] == 0
