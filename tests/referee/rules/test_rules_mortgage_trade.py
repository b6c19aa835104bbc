"""Mortgages (whole-group building rule, 10 % rounded up) and trades between players."""

from __future__ import annotations

import pytest
from rules_testkit import build, buy, new_game, ok, refused

from referee.rules import (
    get_board,
    interest_due,
    mortgage_value,
    payoff_cost,
)


def mortgage(deed: str) -> dict:
    return {"type": "mortgage", "deed": deed}


def unmortgage(deed: str) -> dict:
    return {"type": "unmortgage", "deed": deed}


def trade(giver: str, taker: str, *deeds: str, cash: int = 0, **extra: object) -> dict:
    return {
        "type": "trade",
        "from": giver,
        "to": taker,
        "deeds": list(deeds),
        "cash": cash,
        **extra,
    }


@pytest.mark.parametrize(
    ("deed", "mortgage_amount", "payoff", "interest"),
    [
        ("parkstrasse", 175, 193, 18),
        ("schlossallee", 200, 220, 20),
        ("badstrasse", 30, 33, 3),
        ("elektrizitaetswerk", 75, 83, 8),
        ("poststrasse", 60, 66, 6),
    ],
)
def test_interest_rounded_up_in_whole_numbers(
    deed: str, mortgage_amount: int, payoff: int, interest: int
) -> None:
    game = new_game("classic", *buy("anna", deed))
    assert mortgage_value(game, deed) == mortgage_amount
    assert payoff_cost(game, deed) == payoff  # 200 -> 220, never ceil(200 * 1.1) == 221
    assert interest_due(game, deed) == interest
    cash = game.state.cash["anna"]
    ok(game, mortgage(deed))
    assert game.state.cash["anna"] == cash + mortgage_amount
    ok(game, unmortgage(deed))
    assert game.state.cash["anna"] == cash + mortgage_amount - payoff


def test_dm_board_payoff() -> None:
    board = get_board("classic-de-dm")
    assert board.deed("parkstrasse").payoff == 3850
    assert board.deed("schlossallee").payoff == 4400


def test_mortgage_twice_and_unmortgage_unmortgaged() -> None:
    game = new_game("classic", *buy("anna", "parkstrasse"), mortgage("parkstrasse"))
    refused(game, mortgage("parkstrasse"), "already_mortgaged")
    refused(
        new_game("classic", *buy("anna", "parkstrasse")), unmortgage("parkstrasse"), "not_mortgaged"
    )
    refused(new_game("classic"), mortgage("parkstrasse"), "deed_unowned")


@pytest.mark.parametrize("ruleset", ["karlsruhe", "classic"])
def test_no_mortgage_while_the_group_has_buildings(ruleset: str) -> None:
    game = new_game(ruleset, *buy("anna", "parkstrasse", "schlossallee"), *build("parkstrasse"))
    # The unbuilt street of a built group: refused too (the whole group counts).
    exc = refused(game, mortgage("schlossallee"), "buildings_in_group")
    assert exc.message_en == (
        "there are buildings in Schlossallee's group (Parkstraße) — sell them to the bank first"
    )
    ok(game, {"type": "sell_building", "deed": "parkstrasse"})
    ok(game, mortgage("schlossallee"))


def test_stations_and_utilities_mortgage_freely() -> None:
    game = new_game("classic", *buy("anna", "suedbahnhof", "wasserwerk"))
    ok(game, mortgage("suedbahnhof"))
    ok(game, mortgage("wasserwerk"))


def test_trade_with_cash() -> None:
    game = ok(
        new_game("classic", *buy("carla", "opernplatz")),
        trade("carla", "anna", "opernplatz", cash=300),
    )
    s = game.state
    assert s.owner["opernplatz"] == "anna"
    assert s.cash["anna"] == 1200 and s.cash["carla"] == 1500 - 240 + 300


def test_swap_is_two_trades() -> None:
    game = new_game("classic", *buy("anna", "badstrasse"), *buy("ben", "turmstrasse"))
    ok(game, trade("anna", "ben", "badstrasse"))
    ok(game, trade("ben", "anna", "turmstrasse"))
    assert game.state.owner == {"badstrasse": "ben", "turmstrasse": "anna"}


@pytest.mark.parametrize("ruleset", ["karlsruhe", "classic", "castle-short"])
def test_no_trade_from_a_group_with_buildings(ruleset: str) -> None:
    game = new_game(ruleset, *buy("anna", "parkstrasse", "schlossallee"), *build("schlossallee"))
    exc = refused(game, trade("anna", "ben", "parkstrasse", cash=500), "buildings_in_group")
    assert "(Schlossallee)" in exc.message_en
    ok(game, {"type": "sell_building", "deed": "schlossallee"})
    ok(game, trade("anna", "ben", "parkstrasse", cash=500))


def test_trade_checks_parties_and_deeds() -> None:
    game = new_game("classic", *buy("anna", "badstrasse"), *buy("ben", "turmstrasse"))
    exc = refused(game, trade("anna", "carla", "turmstrasse"), "not_owner")
    assert exc.message_en == "Turmstraße belongs to ben, not anna"
    refused(game, trade("anna", "carla", "parkstrasse"), "deed_unowned")
    refused(game, trade("anna", "anna", "badstrasse"), "same_party")
    refused(game, trade("anna", "carla", "badstrasse", "badstrasse"), "duplicate_deed")
    refused(game, trade("anna", "carla", cash=100), "trade_without_deeds")  # a loan
    refused(game, trade("anna", "carla", "badstrasse", cash=-5), "bad_amount")
    refused(game, trade("anna", "carla", "badstrasse") | {"deeds": "badstrasse"}, "wrong_type")
    refused(game, trade("anna", "zoe", "badstrasse"), "unknown_player")


def test_receiver_of_mortgaged_deed_pays_interest_or_pays_off() -> None:
    """Decision: the receiver pays 10 % at once and keeps it mortgaged, unless the trade lists
    the deed under ``unmortgage`` - then the receiver pays mortgage + 10 % at once."""
    base = new_game(
        "classic",
        *buy("anna", "parkstrasse", "suedbahnhof"),
        mortgage("parkstrasse"),
        mortgage("suedbahnhof"),
    )
    keep = ok(base, trade("anna", "ben", "parkstrasse", "suedbahnhof", cash=50))
    assert keep.state.cash["ben"] == 1500 - 50 - 18 - 10
    assert {"parkstrasse", "suedbahnhof"} <= keep.state.mortgaged
    ok(keep, unmortgage("parkstrasse"))  # a later pay-off costs another 10 %
    assert keep.state.cash["ben"] == 1500 - 50 - 18 - 10 - 193

    game = new_game(
        "classic",
        *buy("anna", "parkstrasse", "suedbahnhof"),
        mortgage("parkstrasse"),
        mortgage("suedbahnhof"),
    )
    ok(game, trade("anna", "ben", "parkstrasse", "suedbahnhof", unmortgage=["parkstrasse"]))
    assert game.state.cash["ben"] == 1500 - 193 - 10
    assert game.state.mortgaged == {"suedbahnhof"}


def test_unmortgage_list_must_name_mortgaged_traded_deeds() -> None:
    game = new_game("classic", *buy("anna", "parkstrasse", "schlossallee"), mortgage("parkstrasse"))
    refused(
        game, trade("anna", "ben", "parkstrasse", unmortgage=["schlossallee"]), "not_transferred"
    )
    refused(
        game, trade("anna", "ben", "schlossallee", unmortgage=["schlossallee"]), "not_mortgaged"
    )
