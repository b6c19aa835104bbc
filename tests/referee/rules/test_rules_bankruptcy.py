"""Bankruptcy to a player or to the bank, and the end conditions of each ruleset."""

from __future__ import annotations

import pytest
from rules_testkit import build, buy, new_game, ok, refused

from referee.rules import get_ruleset, net_worth, replay_result


def bankrupt(player: str, creditor: str, **extra: object) -> dict:
    return {"type": "bankrupt", "player": player, "creditor": creditor, **extra}


def test_to_a_player_mid_game() -> None:
    """Buildings sold to the bank at half price for the creditor, cash and deeds pass, the
    creditor pays 10 % on each mortgaged deed and keeps it mortgaged."""
    game = new_game(
        "karlsruhe",
        *buy("anna", "parkstrasse", "schlossallee", "suedbahnhof"),
        *build("parkstrasse", "schlossallee", "parkstrasse"),
        {"type": "mortgage", "deed": "suedbahnhof"},
        {"type": "cash", "player": "anna", "amount": 120},
    )
    ok(game, bankrupt("anna", "ben"))
    s = game.state
    assert game.status == "running"
    assert s.owner == {"parkstrasse": "ben", "schlossallee": "ben", "suedbahnhof": "ben"}
    assert s.level["parkstrasse"] == s.level["schlossallee"] == 0
    assert s.houses_in_bank == 32
    # ben: 1500 + anna's 120 + 3 houses at half of 200 - 10 % interest on Südbahnhof (100)
    assert s.cash["ben"] == 1500 + 120 + 300 - 10
    assert "suedbahnhof" in s.mortgaged
    assert s.cash["anna"] == 0 and s.bankrupt == ["anna"]
    assert net_worth(game, "anna").total == 0


def test_to_a_player_with_hotel_and_pay_off_at_once() -> None:
    game = new_game(
        "karlsruhe",
        *buy("anna", "parkstrasse", "schlossallee", "suedbahnhof"),
        *build("parkstrasse", "schlossallee") * 3,
        *build("parkstrasse"),
        {"type": "mortgage", "deed": "suedbahnhof"},
        {"type": "cash", "player": "anna", "amount": 0},
    )
    assert game.state.hotels_in_bank == 11
    ok(game, bankrupt("anna", "ben", unmortgage=["suedbahnhof"]))
    s = game.state
    assert (s.houses_in_bank, s.hotels_in_bank) == (32, 12)
    # hotel (4 levels) + 3 houses at 100 each; Südbahnhof paid off: 100 + 10
    assert s.cash["ben"] == 1500 + 700 - 110
    assert not s.mortgaged


def test_to_the_bank_mid_game_then_auctions() -> None:
    game = new_game(
        "karlsruhe",
        *buy("anna", "parkstrasse", "schlossallee", "suedbahnhof"),
        *build("parkstrasse"),
        {"type": "mortgage", "deed": "suedbahnhof"},
    )
    ok(game, bankrupt("anna", "bank"))
    s = game.state
    assert not s.owner and not s.mortgaged  # back to the bank, free of mortgage
    assert s.houses_in_bank == 32
    assert s.must_auction == {"parkstrasse", "schlossallee", "suedbahnhof"}
    exc = refused(game, buy("ben", "suedbahnhof")[0], "auction_required")
    assert "Südbahnhof came back to the bank through a bankruptcy" in exc.message_en
    ok(game, {"type": "auction", "deed": "suedbahnhof", "winner": "ben", "price": 150})
    assert "suedbahnhof" not in s.mortgaged
    ok(game, {"type": "auction", "deed": "parkstrasse", "winner": None, "price": 0})
    ok(game, buy("carla", "parkstrasse")[0])  # no bid: a normal bank deed again


@pytest.mark.parametrize("creditor", ["ben", "bank"])
def test_bankrupt_player_is_out(creditor: str) -> None:
    game = new_game("karlsruhe", bankrupt("anna", creditor))
    exc = refused(game, buy("anna", "parkstrasse")[0], "player_bankrupt")
    assert exc.message_en == "anna is bankrupt and out of the game"
    refused(game, bankrupt("anna", "bank"), "player_bankrupt")
    refused(game, bankrupt("ben", "anna"), "player_bankrupt")
    refused(game, {"type": "pay", "from": "ben", "to": "anna", "amount": 5}, "player_bankrupt")
    refused(game, bankrupt("ben", "ben"), "same_party")


def test_bankruptcy_leaves_jail() -> None:
    game = new_game("karlsruhe", {"type": "jail", "player": "anna"}, bankrupt("anna", "bank"))
    assert "anna" not in game.state.in_jail


@pytest.mark.parametrize("ruleset", ["karlsruhe", "short-game"])
def test_second_bankruptcy_ends_the_game(ruleset: str) -> None:
    game = new_game(ruleset, bankrupt("anna", "bank"))
    assert game.status == "running"
    ok(game, bankrupt("ben", "carla"))
    assert game.status == "finished" and game.end_reason == "second_bankruptcy"


def test_second_bankruptcy_to_a_player_keeps_mortgages_without_interest() -> None:
    game = new_game(
        "karlsruhe",
        bankrupt("dieter", "bank"),
        *buy("anna", "parkstrasse", "suedbahnhof"),
        {"type": "mortgage", "deed": "suedbahnhof"},
        {"type": "cash", "player": "anna", "amount": 40},
    )
    refused(game, bankrupt("anna", "ben", unmortgage=["suedbahnhof"]), "unmortgage_moot")
    ok(game, bankrupt("anna", "ben"))
    s = game.state
    assert s.owner["suedbahnhof"] == "ben" and "suedbahnhof" in s.mortgaged
    assert s.cash["ben"] == 1540  # no interest charged
    assert net_worth(game, "ben").mortgaged == 100  # half the printed price


def test_game_ending_bankruptcy_to_the_bank_returns_deeds_without_auction() -> None:
    game = new_game("karlsruhe", bankrupt("dieter", "bank"), *buy("anna", "parkstrasse"))
    ok(game, bankrupt("anna", "bank"))
    assert not game.state.owner and not game.state.must_auction
    assert game.end_reason == "second_bankruptcy"
    refused(
        game, {"type": "auction", "deed": "parkstrasse", "winner": "ben", "price": 5}, "game_over"
    )


def test_unmortgage_to_the_bank_is_meaningless() -> None:
    game = new_game(
        "karlsruhe", *buy("anna", "parkstrasse"), {"type": "mortgage", "deed": "parkstrasse"}
    )
    refused(game, bankrupt("anna", "bank", unmortgage=["parkstrasse"]), "unmortgage_to_bank")


def test_first_bankruptcy_ends_castle_short() -> None:
    game = ok(new_game("castle-short"), bankrupt("anna", "ben"))
    assert game.end_reason == "first_bankruptcy"


@pytest.mark.parametrize("ruleset", ["classic", "classic-dm"])
def test_last_player_standing_ends_classic(ruleset: str) -> None:
    game = new_game(ruleset, bankrupt("anna", "bank"), bankrupt("ben", "carla"))
    assert game.status == "running"  # two bankruptcies do not end a classic game
    ok(game, bankrupt("carla", "dieter"))
    assert game.end_reason == "last_player_standing"
    result = replay_result(game)
    assert [s["player"] for s in result["standings"]] == ["dieter", "carla", "ben", "anna"]
    assert [s["place"] for s in result["standings"]] == [1, 2, 3, 4]


def test_time_limit_only_is_not_ended_by_bankruptcies() -> None:
    game = new_game("time-limit", bankrupt("anna", "bank"), bankrupt("ben", "bank"))
    assert game.status == "running"
    ok(game, bankrupt("carla", "bank"))  # nobody left to play against
    assert game.end_reason == "last_player_standing"


def test_two_player_karlsruhe_table_ends_with_last_player() -> None:
    game = new_game("karlsruhe", players=("anna", "ben"))
    ok(game, bankrupt("anna", "ben"))
    assert game.end_reason == "last_player_standing"


def test_ending_can_be_configured() -> None:
    rules = get_ruleset("classic").replace(end_condition="second_bankruptcy")
    game = new_game(rules, bankrupt("anna", "bank"), bankrupt("ben", "bank"))
    assert game.end_reason == "second_bankruptcy"


def test_creditor_must_afford_interest_in_ledger_mode() -> None:
    game = new_game(
        "classic",
        *buy("anna", "parkstrasse"),
        {"type": "mortgage", "deed": "parkstrasse"},
        {"type": "pay", "from": "anna", "to": "bank", "amount": 1325},
        {"type": "pay", "from": "ben", "to": "bank", "amount": 1490},
        ledger=True,
    )
    assert game.state.cash == {"anna": 0, "ben": 10, "carla": 1500, "dieter": 1500}
    refused(game, bankrupt("anna", "ben"), "insufficient_cash")  # 18 interest, 10 cash
    ok(game, bankrupt("anna", "carla"))
    assert game.state.cash["carla"] == 1482
