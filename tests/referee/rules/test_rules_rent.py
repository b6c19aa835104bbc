"""Rent due: streets (group doubling, houses, hotel), stations, utilities with dice, mortgages,
the owner in jail, and the three rulings on a group with a mortgaged street."""

from __future__ import annotations

import pytest
from rules_testkit import build, buy, new_game

from referee.rules import MortgagedGroupRent, get_ruleset, rent_due


def test_unowned_and_single_street() -> None:
    game = new_game("classic")
    assert rent_due(game, "parkstrasse") == 0
    game.extend(buy("anna", "parkstrasse"))
    assert rent_due(game, "parkstrasse") == 35
    assert rent_due(game.state, "parkstrasse") == 35


@pytest.mark.parametrize("ruleset", ["karlsruhe", "classic", "castle-short"])
def test_complete_group_doubles(ruleset: str) -> None:
    game = new_game(ruleset, *buy("anna", "parkstrasse", "schlossallee"))
    assert rent_due(game, "parkstrasse") == 70
    assert rent_due(game, "schlossallee") == 100


@pytest.mark.parametrize(
    ("ruleset", "rent"),
    [("karlsruhe", 50), ("classic", 100), ("short-game", 100), ("castle-short", 50)],
)
def test_complete_group_with_one_street_mortgaged(ruleset: str, rent: int) -> None:
    game = new_game(
        ruleset,
        *buy("anna", "parkstrasse", "schlossallee"),
        {"type": "mortgage", "deed": "parkstrasse"},
    )
    assert rent_due(game, "parkstrasse") == 0  # no rent on a mortgaged deed
    assert rent_due(game, "schlossallee") == rent


@pytest.mark.parametrize(
    ("rule", "rent"),
    [
        (MortgagedGroupRent.SINGLE, 50),
        (MortgagedGroupRent.DOUBLE_UNMORTGAGED, 100),
        (MortgagedGroupRent.DOUBLE_ONLY_IF_NONE_MORTGAGED, 50),
    ],
)
def test_each_mortgaged_group_rule(rule: MortgagedGroupRent, rent: int) -> None:
    rules = get_ruleset("classic").replace(mortgaged_group_rent=rule)
    game = new_game(rules, *buy("anna", "parkstrasse", "schlossallee"))
    assert rent_due(game, "schlossallee") == 100  # nothing mortgaged: double under every rule
    game.apply({"type": "mortgage", "deed": "parkstrasse"})
    assert rent_due(game, "schlossallee") == rent


@pytest.mark.parametrize(
    ("ruleset", "rents"),
    [
        ("karlsruhe", [100, 200, 600, 1400, 2000]),  # doubled bare rent, 3 houses, the hotel
        ("classic", [100, 200, 600, 1400, 1700, 2000]),
    ],
)
def test_houses_and_hotel(ruleset: str, rents: list[int]) -> None:
    game = new_game(ruleset, *buy("anna", "parkstrasse", "schlossallee"))
    seen = [rent_due(game, "schlossallee")]
    for _ in rents[1:]:
        game.extend(build("parkstrasse", "schlossallee"))
        seen.append(rent_due(game, "schlossallee"))
    assert seen == rents


@pytest.mark.parametrize(("count", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_station_rent(count: int, rent: int) -> None:
    stations = ["suedbahnhof", "westbahnhof", "nordbahnhof", "hauptbahnhof"][:count]
    game = new_game("karlsruhe", *buy("anna", *stations))
    assert rent_due(game, stations[0]) == rent


def test_mortgaged_station_earns_nothing_but_still_counts() -> None:
    game = new_game(
        "classic",
        *buy("anna", "suedbahnhof", "westbahnhof"),
        {"type": "mortgage", "deed": "westbahnhof"},
    )
    assert rent_due(game, "westbahnhof") == 0
    assert rent_due(game, "suedbahnhof") == 50


@pytest.mark.parametrize(
    ("board", "one", "both"), [("classic-de", 4, 10), ("classic-de-dm", 80, 200)]
)
def test_utility_rent_uses_the_dice(board: str, one: int, both: int) -> None:
    game = new_game("classic", *buy("anna", "wasserwerk"), board=board)
    assert rent_due(game, "wasserwerk", dice=7) == 7 * one
    game.extend(buy("anna", "elektrizitaetswerk"))
    assert rent_due(game, "wasserwerk", dice=12) == 12 * both
    with pytest.raises(ValueError, match="dice"):
        rent_due(game, "wasserwerk")
    with pytest.raises(ValueError, match="dice"):
        rent_due(game, "wasserwerk", dice=13)


@pytest.mark.parametrize(
    ("ruleset", "collects"),
    [("karlsruhe", False), ("classic", True), ("time-limit", True), ("castle-short", True)],
)
def test_owner_in_jail_rent(ruleset: str, collects: bool) -> None:
    game = new_game(
        ruleset,
        *buy("anna", "parkstrasse", "suedbahnhof", "wasserwerk"),
        {"type": "jail", "player": "anna"},
    )
    assert rent_due(game, "parkstrasse") == (35 if collects else 0)
    assert rent_due(game, "suedbahnhof") == (25 if collects else 0)
    assert rent_due(game, "wasserwerk", dice=5) == (20 if collects else 0)
    game.apply({"type": "release", "player": "anna"})
    assert rent_due(game, "parkstrasse") == 35


def test_dm_board_rent() -> None:
    game = new_game("classic-dm", *buy("anna", "parkstrasse", "schlossallee"))
    assert rent_due(game, "schlossallee") == 2000
    assert game.state.cash["anna"] == 30_000 - 7_000 - 8_000
