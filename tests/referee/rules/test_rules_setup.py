"""Start, set-up deals (paid or free, how many, only before play) and the game's status."""

from __future__ import annotations

import pytest
from rules_testkit import ALL_RULESETS, new_game, ok, refused

from referee.rules import Game, get_ruleset


def deal(player: str, deed: str) -> dict:
    return {"type": "deal", "player": player, "deed": deed}


@pytest.mark.parametrize(
    ("ruleset", "cash_after_deal"),
    [
        ("karlsruhe", 1500 - 60),
        ("short-game", 1500 - 60),
        ("time-limit", 1500 - 60),
        ("castle-short", 1500),
    ],
)
def test_deal_paid_or_free(ruleset: str, cash_after_deal: int) -> None:
    game = ok(new_game(ruleset), deal("anna", "badstrasse"))
    assert game.state.owner["badstrasse"] == "anna"
    assert game.state.cash["anna"] == cash_after_deal
    assert game.status == "setup"


@pytest.mark.parametrize("ruleset", ["classic", "classic-dm"])
def test_classic_deals_nothing(ruleset: str) -> None:
    exc = refused(new_game(ruleset), deal("anna", "badstrasse"), "deals_not_allowed")
    assert f"'{ruleset}' rules deal no deeds" in exc.message_en


@pytest.mark.parametrize(
    ("ruleset", "count"), [("karlsruhe", 2), ("short-game", 2), ("castle-short", 3)]
)
def test_deal_count_per_player(ruleset: str, count: int) -> None:
    deeds = ["badstrasse", "turmstrasse", "chausseestrasse", "elisenstrasse"]
    game = new_game(ruleset)
    for deed in deeds[:count]:
        ok(game, deal("anna", deed))
    exc = refused(game, deal("anna", deeds[count]), "deal_limit")
    assert f"anna has already been dealt {count} deeds" in exc.message_en
    ok(game, deal("ben", deeds[count]))  # the limit is per player


def test_deals_before_start_are_set_up_too() -> None:
    game = new_game("karlsruhe", start=False)
    ok(game, deal("anna", "badstrasse"))
    refused(game, {"type": "buy", "player": "ben", "deed": "turmstrasse"}, "not_started")
    refused(game, {"type": "pause"}, "not_started")
    refused(game, {"type": "cash", "player": "ben", "amount": 3}, "not_started")
    ok(game, {"type": "start"})
    ok(game, deal("anna", "turmstrasse"))


@pytest.mark.parametrize(
    "play",
    [
        {"type": "buy", "player": "ben", "deed": "parkstrasse"},
        {"type": "jail", "player": "ben"},
        {"type": "pay", "from": "ben", "to": "bank", "amount": 10},
        {"type": "mortgage", "deed": "badstrasse"},
    ],
)
def test_no_deals_once_play_began(play: dict) -> None:
    game = new_game("karlsruhe", deal("anna", "badstrasse"))
    ok(game, play)
    assert game.status == "running"
    exc = refused(game, deal("carla", "turmstrasse"), "deal_after_setup")
    assert exc.message_de == "Besitzrechtkarten werden nur vor dem ersten Spielzug ausgeteilt"


def test_breaks_and_counts_do_not_end_setup() -> None:
    game = new_game(
        "karlsruhe",
        {"type": "pause"},
        {"type": "resume"},
        {"type": "cash", "player": "anna", "amount": 1500},
    )
    assert game.status == "setup"
    ok(game, deal("anna", "badstrasse"))


def test_deal_of_owned_deed() -> None:
    game = new_game("karlsruhe", deal("anna", "badstrasse"))
    exc = refused(game, deal("ben", "badstrasse"), "deed_already_owned")
    assert exc.message_en == "Badstraße already belongs to anna"


def test_start_twice() -> None:
    refused(new_game("classic"), {"type": "start"}, "already_started")


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_start_cash_per_ruleset(ruleset: str) -> None:
    game = Game(ruleset=ruleset, players=["anna", "ben"])
    expected = 30_000 if ruleset == "classic-dm" else 1500
    assert game.state.cash == {"anna": expected, "ben": expected}
    assert game.status == "setup" and game.end_reason is None
    assert game.board.key == get_ruleset(ruleset).default_board
