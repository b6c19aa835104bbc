"""The banker's answers: net worth, standings, costs, unowned deeds and legal actions."""

from __future__ import annotations

import pytest
from rules_testkit import build, buy, new_game

from referee.rules import (
    NetWorth,
    build_cost,
    building_sale_value,
    legal_actions,
    net_worth,
    replay_result,
    standings,
    unowned_deeds,
)


@pytest.mark.parametrize(("ruleset", "hotel_value"), [("karlsruhe", 4 * 200), ("classic", 5 * 200)])
def test_net_worth_breakdown(ruleset: str, hotel_value: int) -> None:
    houses = 3 if ruleset == "karlsruhe" else 4
    game = new_game(
        ruleset,
        *buy("anna", "parkstrasse", "schlossallee", "badstrasse"),
        *build("parkstrasse", "schlossallee") * houses,
        *build("parkstrasse"),
        {"type": "mortgage", "deed": "badstrasse"},
        {"type": "cash", "player": "anna", "amount": 1000},
    )
    worth = net_worth(game, "anna")
    assert worth == NetWorth(
        cash=1000, deeds=750, mortgaged=30, houses=houses * 200, hotels=hotel_value
    )
    assert worth.total == sum(worth.as_dict().values())


def test_standings_share_places_and_rank_bankruptcies() -> None:
    game = new_game(
        "karlsruhe",
        {"type": "bankrupt", "player": "dieter", "creditor": "bank"},
        {"type": "cash", "player": "anna", "amount": 0},
        {"type": "cash", "player": "ben", "amount": 2000},
        {"type": "cash", "player": "carla", "amount": 2000},
        players=("anna", "ben", "carla", "dieter", "eva"),
    )
    game.apply({"type": "bankrupt", "player": "eva", "creditor": "anna"})  # anna gets 1500
    rows = [(s.player, s.place, s.bankrupt, s.net_worth) for s in standings(game)]
    assert rows == [
        ("ben", 1, False, 2000),
        ("carla", 1, False, 2000),
        ("anna", 3, False, 1500),
        ("eva", 4, True, 0),
        ("dieter", 5, True, 0),
    ]
    result = replay_result(game)
    assert result["status"] == "finished" and result["end_reason"] == "second_bankruptcy"
    assert result["standings"][3]["breakdown"] == {
        "cash": 0,
        "deeds": 0,
        "mortgaged": 0,
        "houses": 0,
        "hotels": 0,
    }


def test_replay_result_while_setting_up_and_in_final_round() -> None:
    from referee.rules import TimeLimitMode, get_ruleset

    assert replay_result(new_game("karlsruhe", start=False))["status"] == "running"
    rules = get_ruleset("karlsruhe").replace(time_limit_mode=TimeLimitMode.FINISH_ROUND)
    game = new_game(rules, {"type": "time_up"})
    assert game.status == "final_round"
    assert replay_result(game)["status"] == "running"  # the contract knows running/finished


def test_costs() -> None:
    game = new_game("classic")
    assert build_cost(game, "badstrasse") == 50 and building_sale_value(game, "badstrasse") == 25
    assert (
        build_cost(game, "schlossallee") == 200 and building_sale_value(game, "schlossallee") == 100
    )


def test_unowned_deeds_in_board_order() -> None:
    game = new_game("karlsruhe", *buy("anna", "turmstrasse", "schlossallee"))
    remaining = unowned_deeds(game)
    assert remaining[:3] == ["badstrasse", "suedbahnhof", "chausseestrasse"]
    assert remaining[-1] == "parkstrasse" and len(remaining) == 26


def test_legal_actions_in_set_up_and_play() -> None:
    game = new_game("karlsruhe")
    actions = legal_actions(game, "anna")
    assert len(actions["deal"]) == 28 and len(actions["buy"]) == 28
    assert "build" not in actions and "release" not in actions
    assert actions["jail"] == [] and actions["cash"] == []

    game.extend(buy("anna", "parkstrasse", "schlossallee", "badstrasse"))
    game.apply({"type": "jail", "player": "ben"})
    actions = legal_actions(game, "anna")
    assert "deal" not in actions
    assert actions["build"] == ["parkstrasse", "schlossallee"]
    assert actions["mortgage"] == ["badstrasse", "parkstrasse", "schlossallee"]
    assert actions["trade"] == ["badstrasse", "parkstrasse", "schlossallee"]
    assert "unmortgage" not in actions and "sell_building" not in actions
    assert "release" in legal_actions(game, "ben")

    game.extend(build("parkstrasse"))
    actions = legal_actions(game, "anna")
    assert actions["build"] == ["schlossallee"]  # evenly
    assert actions["sell_building"] == ["parkstrasse"]
    assert actions["mortgage"] == ["badstrasse"]  # not in a group with buildings
    assert actions["trade"] == ["badstrasse"]

    game.apply({"type": "jail", "player": "anna"})
    assert "build" not in legal_actions(game, "anna")  # Karlsruhe: not from jail


def test_legal_actions_after_auction_stop_and_end() -> None:
    game = new_game("karlsruhe", {"type": "auction_stop"})
    actions = legal_actions(game, "anna")
    assert "buy" not in actions and len(actions["auction"]) == 28
    game.apply({"type": "time_up"})
    assert legal_actions(game, "anna") == {"cash": []}


def test_legal_actions_every_entry_is_accepted() -> None:
    game = new_game(
        "classic",
        *buy("anna", "parkstrasse", "schlossallee", "suedbahnhof"),
        {"type": "mortgage", "deed": "suedbahnhof"},
    )
    actions = legal_actions(game, "anna")
    assert actions["unmortgage"] == ["suedbahnhof"]
    for deed in actions["build"]:
        game.check({"type": "build", "deed": deed})
    with pytest.raises(KeyError):
        legal_actions(game, "zoe")
