"""Building up and down evenly, hotels per ruleset, the bank's supply, and who may build."""

from __future__ import annotations

import pytest
from rules_testkit import build, buy, new_game, ok, refused

from referee.rules import Game, get_ruleset

BLUE = ("parkstrasse", "schlossallee")
BROWN = ("badstrasse", "turmstrasse")
LIGHT_BLUE = ("chausseestrasse", "elisenstrasse", "poststrasse")


def sell(deed: str) -> dict:
    return {"type": "sell_building", "deed": deed}


def blue_game(ruleset: object = "classic", *events: dict) -> Game:
    """Anna owns the dark-blue group (house cost 200)."""
    return new_game(ruleset, *buy("anna", *BLUE), *events)


@pytest.mark.parametrize("ruleset", ["karlsruhe", "classic"])
def test_build_a_house(ruleset: str) -> None:
    game = ok(blue_game(ruleset), build("parkstrasse")[0])
    s = game.state
    assert s.level["parkstrasse"] == 1 and s.houses("parkstrasse") == 1
    assert s.houses_in_bank == 31
    assert s.cash["anna"] == 1500 - 750 - 200


def test_uneven_building_names_the_streets() -> None:
    game = blue_game("classic", *build("parkstrasse", "schlossallee", "schlossallee"))
    exc = refused(game, build("schlossallee")[0], "uneven_building")
    assert exc.message_en == "uneven building — Parkstraße has 1 house, Schlossallee 2"
    assert exc.message_de == "Ungleichmäßig gebaut: Parkstraße hat 1 Haus, Schlossallee 2"
    assert exc.line() == (
        "event 6 (build schlossallee): uneven building — Parkstraße has 1 house, Schlossallee 2"
    )
    ok(game, build("parkstrasse")[0])
    ok(game, build("schlossallee")[0])


def test_uneven_selling() -> None:
    game = blue_game("classic", *build("parkstrasse", "schlossallee", "schlossallee"))
    exc = refused(game, sell("parkstrasse"), "uneven_selling")
    assert exc.message_en == "uneven selling — Schlossallee has 2 houses, Parkstraße 1"
    cash = game.state.cash["anna"]
    ok(game, sell("schlossallee"))
    assert game.state.cash["anna"] == cash + 100  # half the house price
    assert game.state.houses_in_bank == 30
    refused(game, sell("schlossallee") | {"deed": "badstrasse"}, "deed_unowned")


@pytest.mark.parametrize(
    ("ruleset", "max_houses"),
    [("karlsruhe", 3), ("short-game", 3), ("castle-short", 3), ("classic", 4), ("time-limit", 4)],
)
def test_hotel_after_max_houses(ruleset: str, max_houses: int) -> None:
    game = blue_game(ruleset)
    for _ in range(max_houses):
        game.extend(build(*BLUE))
    assert game.state.houses_in_bank == 32 - 2 * max_houses
    cash = game.state.cash["anna"]
    ok(game, build("parkstrasse")[0])  # the hotel: hand in max_houses houses, pay one more
    s = game.state
    assert s.has_hotel("parkstrasse") and s.houses("parkstrasse") == 0
    assert s.hotels_in_bank == 11
    assert s.houses_in_bank == 32 - max_houses  # the hotel's houses went back
    assert s.cash["anna"] == cash - 200
    exc = refused(game, build("parkstrasse")[0], "max_buildings")
    assert exc.message_en == "Parkstraße already has a hotel — nothing more can be built"
    ok(game, build("schlossallee")[0])


def test_hotel_needs_every_street_at_max_houses() -> None:
    game = blue_game("classic", *build(*BLUE, *BLUE, *BLUE), *build("parkstrasse"))
    assert game.state.level["parkstrasse"] == 4
    exc = refused(game, build("parkstrasse")[0], "uneven_building")
    assert exc.message_en == "uneven building — Schlossallee has 3 houses, Parkstraße 4"


def test_selling_a_hotel_returns_the_houses() -> None:
    game = blue_game("karlsruhe", *build(*BLUE, *BLUE, *BLUE, "parkstrasse"))
    refused(game, sell("schlossallee"), "uneven_selling")  # 3 houses vs a hotel
    cash = game.state.cash["anna"]
    ok(game, sell("parkstrasse"))
    s = game.state
    assert s.level["parkstrasse"] == 3 and s.hotels_in_bank == 12
    assert s.houses_in_bank == 32 - 6 and s.cash["anna"] == cash + 100


def test_hotel_break_up_needs_houses_in_the_bank() -> None:
    rules = get_ruleset("karlsruhe").replace(house_supply=6)
    game = new_game(rules, *buy("anna", *BROWN, *LIGHT_BLUE), *build(*BROWN, *BROWN, *BROWN))
    assert game.state.houses_in_bank == 0
    exc = refused(game, build("chausseestrasse")[0], "no_houses_left")
    assert exc.message_en == "the bank has no house left (all 6 are on the board)"
    ok(game, build("badstrasse")[0])  # hotel: 3 houses back to the bank
    game.extend(build(*LIGHT_BLUE))  # ... and out again
    exc = refused(game, sell("badstrasse"), "no_houses_for_hotel")
    assert exc.message_en == "selling the hotel on Badstraße needs 3 houses from the bank, it has 0"
    game.extend([sell(d) for d in LIGHT_BLUE])
    ok(game, sell("badstrasse"))


def test_hotel_supply_runs_out() -> None:
    rules = get_ruleset("karlsruhe").replace(hotel_supply=1)
    game = new_game(rules, *buy("anna", *BLUE), *build(*BLUE, *BLUE, *BLUE, "parkstrasse"))
    exc = refused(game, build("schlossallee")[0], "no_hotels_left")
    assert "no hotel left (all 1" in exc.message_en


def test_the_bank_has_exactly_32_houses() -> None:
    game = new_game("classic")
    streets = [d.key for d in game.board.streets()]
    game.extend(buy("anna", *streets))
    built = 0
    for _round in range(4):
        for deed in streets:
            try:
                game.apply(build(deed)[0])
            except Exception as exc:  # noqa: BLE001 - we want the code
                assert exc.code == "no_houses_left"  # type: ignore[attr-defined]
                break
            built += 1
    assert built == 32 and game.state.houses_in_bank == 0


def test_build_needs_complete_group() -> None:
    game = new_game("classic", *buy("anna", "parkstrasse"), *buy("ben", "schlossallee"))
    exc = refused(game, build("parkstrasse")[0], "incomplete_group")
    assert exc.message_en == "anna does not own the whole dunkelblau group: Schlossallee is missing"
    refused(new_game("classic"), build("parkstrasse")[0], "deed_unowned")


@pytest.mark.parametrize("ruleset", ["karlsruhe", "classic", "castle-short"])
def test_no_building_with_a_mortgaged_street_in_group(ruleset: str) -> None:
    game = blue_game(ruleset, {"type": "mortgage", "deed": "schlossallee"})
    exc = refused(game, build("parkstrasse")[0], "mortgaged_in_group")
    assert (
        exc.message_en == "Schlossallee is mortgaged — nothing may be built anywhere in its group"
    )
    ok(game, {"type": "unmortgage", "deed": "schlossallee"})
    ok(game, build("parkstrasse")[0])


@pytest.mark.parametrize(
    ("ruleset", "may_build"),
    [("karlsruhe", False), ("classic", True), ("short-game", True), ("castle-short", True)],
)
def test_owner_in_jail_building(ruleset: str, may_build: bool) -> None:
    game = blue_game(ruleset, *build("parkstrasse"), {"type": "jail", "player": "anna"})
    if may_build:
        ok(game, build("schlossallee")[0])
    else:
        exc = refused(game, build("schlossallee")[0], "owner_in_jail")
        assert exc.message_en == "anna is in jail and may not build (selling is allowed)"
    ok(game, sell("parkstrasse") if not may_build else sell("schlossallee"))  # selling: always
    ok(game, {"type": "release", "player": "anna"})
    ok(game, build("schlossallee" if may_build else "parkstrasse")[0])


def test_only_streets_take_buildings() -> None:
    game = new_game("classic", *buy("anna", "suedbahnhof"))
    exc = refused(game, build("suedbahnhof")[0], "not_a_street")
    assert exc.message_en == "Südbahnhof is not a street — only streets take buildings"
    refused(game, sell("suedbahnhof"), "not_a_street")
    refused(blue_game("classic"), sell("parkstrasse"), "no_building")


@pytest.mark.parametrize(("ruleset", "allowed_at"), [("karlsruhe", 1), ("classic", None)])
def test_building_shortage_auction(ruleset: str, allowed_at: int | None) -> None:
    """Karlsruhe auctions only the bank's last house (start bid 10); classic any building,
    minimum the lowest printed house price (50 on the classic board)."""
    rules = get_ruleset(ruleset).replace(house_supply=3)
    game = new_game(rules, *buy("anna", *BLUE, *BROWN))
    auctioned = {"type": "build", "deed": "parkstrasse", "price": 250}
    if allowed_at:
        exc = refused(game, auctioned, "building_auction_not_allowed")
        assert exc.message_en == "only the bank's last house is auctioned; the bank still has 3"
        game.extend(build("badstrasse", "turmstrasse"))
        refused(game, auctioned | {"price": 9}, "auction_below_min_bid")
    else:
        refused(game, auctioned | {"price": 49}, "auction_below_min_bid")
    cash = game.state.cash["anna"]
    ok(game, auctioned)
    assert game.state.cash["anna"] == cash - 250
    assert game.state.level["parkstrasse"] == 1
