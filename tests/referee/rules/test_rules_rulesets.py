"""Rulesets as data: the registry, each rulebook's parameters, overrides and the DM currency."""

from __future__ import annotations

import dataclasses

import pytest
from rules_testkit import ALL_RULESETS

from referee.rules import (
    get_board,
    get_ruleset,
    replay,
    rulesets,
)


def test_registry_has_every_ruleset() -> None:
    assert set(rulesets.RULESETS) == set(ALL_RULESETS)
    assert get_ruleset("karlsruhe") is rulesets.RULESETS["karlsruhe"]
    with pytest.raises(KeyError, match="known: karlsruhe"):
        get_ruleset("monopoly-deluxe")


def test_karlsruhe_parameters() -> None:
    r = get_ruleset("karlsruhe")
    assert (r.players_max, r.table_size, r.start_cash, r.salary) == (6, 6, 1500, 200)
    assert (r.deal_count, r.deals_paid) == (2, True)
    assert r.max_houses == 3 and r.hotel_value_in_houses == 4
    assert not r.owner_in_jail_collects_rent and not r.owner_in_jail_may_build
    assert r.mortgaged_group_rent == rulesets.MortgagedGroupRent.SINGLE
    assert r.jail_fine == 50 and r.auction_min_bid == 1
    assert r.building_shortage == rulesets.BuildingShortage.AUCTION_LAST_HOUSE
    assert r.building_auction_min_bid == 10
    assert (r.house_supply, r.hotel_supply) == (32, 12)
    assert r.auction_stop_minute == 45 and r.time_limit_minutes == 90
    assert r.end_condition == rulesets.EndCondition.SECOND_BANKRUPTCY
    assert r.winner == rulesets.WinnerRule.HIGHEST_NET_WORTH
    assert r.time_limit_mode == rulesets.TimeLimitMode.AT_ONCE
    assert r.default_board == "classic-de"
    assert not r.free_parking_pot and not r.lending_allowed and r.rent_lapses_after_next_roll


@pytest.mark.parametrize(
    ("key", "deals", "paid", "houses", "end", "winner", "group_rent", "min_bid"),
    [
        (
            "classic",
            0,
            True,
            4,
            "last_player_standing",
            "last_player_standing",
            "double_unmortgaged",
            0,
        ),
        (
            "short-game",
            2,
            True,
            3,
            "second_bankruptcy",
            "highest_net_worth",
            "double_unmortgaged",
            0,
        ),
        ("time-limit", 2, True, 4, "time_limit_only", "highest_net_worth", "double_unmortgaged", 0),
        (
            "castle-short",
            3,
            False,
            3,
            "first_bankruptcy",
            "highest_net_worth",
            "double_only_if_none_mortgaged",
            1,
        ),
        (
            "classic-dm",
            0,
            True,
            4,
            "last_player_standing",
            "last_player_standing",
            "double_unmortgaged",
            0,
        ),
    ],
)
def test_other_rulesets(
    key: str,
    deals: int,
    paid: bool,
    houses: int,
    end: str,
    winner: str,
    group_rent: str,
    min_bid: int,
) -> None:
    r = get_ruleset(key)
    assert (r.deal_count, r.deals_paid, r.max_houses) == (deals, paid, houses)
    assert (r.end_condition, r.winner, r.mortgaged_group_rent) == (end, winner, group_rent)
    assert r.auction_min_bid == min_bid
    assert (r.players_min, r.players_max) == (2, 8)
    assert r.owner_in_jail_collects_rent and r.owner_in_jail_may_build
    assert r.auction_stop_minute is None


def test_time_limits_differ() -> None:
    assert get_ruleset("time-limit").time_limit_agreed and get_ruleset("time-limit").has_time_limit
    assert get_ruleset("karlsruhe").has_time_limit
    assert not get_ruleset("classic").has_time_limit
    castle = get_ruleset("castle-short")
    assert castle.time_guide_minutes == (60, 90) and not castle.has_time_limit
    assert castle.must_leave_jail_next_turn


def test_classic_dm_amounts() -> None:
    r = get_ruleset("classic-dm")
    assert (r.start_cash, r.salary, r.jail_fine) == (30_000, 4_000, 1_000)
    assert r.default_board == "classic-de-dm" and r.money_scale == 20


def test_amounts_follow_the_board() -> None:
    dm, classic = get_board("classic-de-dm"), get_board("classic-de")
    k = get_ruleset("karlsruhe").for_board(dm)
    assert (k.start_cash, k.salary, k.jail_fine, k.auction_min_bid, k.building_auction_min_bid) == (
        30_000,
        4_000,
        1_000,
        20,
        200,
    )
    assert k.for_board(dm) is k  # idempotent
    back = get_ruleset("classic-dm").for_board(classic)
    assert (back.start_cash, back.salary, back.jail_fine) == (1500, 200, 50)
    assert get_ruleset("karlsruhe").for_board(classic) is get_ruleset("karlsruhe")


def test_replace_is_validated_and_leaves_original() -> None:
    r = get_ruleset("karlsruhe")
    shorter = r.replace(time_limit_minutes=60)
    assert shorter.time_limit_minutes == 60 and r.time_limit_minutes == 90
    with pytest.raises(ValueError):
        r.replace(players_min=7)
    with pytest.raises(ValueError):
        r.replace(max_houses=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.start_cash = 1  # type: ignore[misc]


def test_overrides_round_trip_through_json_values() -> None:
    base = get_ruleset("karlsruhe")
    custom = base.replace(
        time_limit_minutes=60,
        time_limit_mode=rulesets.TimeLimitMode.FINISH_ROUND,
        time_guide_minutes=(50, 70),
    )
    overrides = custom.overrides_from(base)
    assert overrides == {
        "time_limit_minutes": 60,
        "time_limit_mode": "finish_round",
        "time_guide_minutes": [50, 70],
    }
    assert base.with_overrides(overrides) == custom
    with pytest.raises(ValueError, match="unknown ruleset parameter"):
        base.with_overrides({"house_rules": True})
    with pytest.raises(ValueError, match="cannot be"):
        base.with_overrides({"time_limit_minutes": "sixty"})
    with pytest.raises(ValueError, match="cannot be"):
        base.with_overrides({"end_condition": "whenever"})


def test_a_new_ruleset_is_only_data() -> None:
    """A club's house rules: nothing but parameters, and the engine plays them."""
    from rules_testkit import new_game

    club = rulesets.Ruleset(
        key="club",
        name="Club",
        deal_count=1,
        deals_paid=False,
        max_houses=2,
        end_condition=rulesets.EndCondition.FIRST_BANKRUPTCY,
        winner=rulesets.WinnerRule.HIGHEST_NET_WORTH,
    )
    game = new_game(club, {"type": "deal", "player": "anna", "deed": "badstrasse"})
    assert game.state.cash["anna"] == 1500
    game.apply({"type": "bankrupt", "player": "ben", "creditor": "bank"})
    assert game.end_reason == "first_bankruptcy"
    again = replay(game.to_record(), rulesets={"club": club})
    assert again.state.snapshot() == game.state.snapshot()
