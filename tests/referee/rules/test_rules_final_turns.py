"""Issue 18: at time the banker marks whose turn it is; that player and everyone after them in
seat order play once more, and the game ends after the last of them."""

from __future__ import annotations

from rules_testkit import PLAYERS, new_game, ok, refused

from referee.rules import Game, TimeLimitMode, get_ruleset

FIVE = ("anna", "ben", "carla", "dora", "emil")


def official_game(players: tuple[str, ...] = FIVE) -> Game:
    rules = get_ruleset("time-limit").replace(
        time_limit_minutes=90, time_limit_mode=TimeLimitMode.FINISH_ROUND
    )
    return new_game(rules, players=players)


def test_time_up_naming_the_player_on_turn_lists_who_still_plays_in_seat_order() -> None:
    game = ok(official_game(), {"type": "time_up", "player": "carla"})
    assert game.status == "final_round"
    assert game.state.final_turns == ("carla", "dora", "emil")
    refused(game, {"type": "turn_played", "player": "dora"}, "not_their_turn")
    ok(game, {"type": "turn_played", "player": "carla"})
    ok(game, {"type": "turn_played", "player": "dora"})
    assert game.status == "final_round"
    ok(game, {"type": "turn_played", "player": "emil"})
    assert game.status == "finished" and game.end_reason == "time_limit"


def test_the_servers_time_up_then_the_bankers_mark_of_whose_turn_it_is() -> None:
    game = ok(official_game(), {"type": "time_up"})
    assert game.state.final_turns is None
    refused(game, {"type": "turn_played", "player": "anna"}, "final_turns_unknown")
    ok(game, {"type": "on_turn", "player": "emil"})
    refused(game, {"type": "on_turn", "player": "anna"}, "final_turns_known")
    assert game.state.final_turns == ("emil",)
    ok(game, {"type": "turn_played", "player": "emil"})
    assert game.status == "finished"


def test_the_first_seat_on_turn_means_a_whole_round_of_turns() -> None:
    game = ok(official_game(PLAYERS[:4]), {"type": "time_up", "player": PLAYERS[0]})
    assert game.state.final_turns == PLAYERS[:4]


def test_bankrupt_players_are_skipped_and_drop_out_of_the_list() -> None:
    game = official_game()
    ok(game, {"type": "bankrupt", "player": "dora", "creditor": "bank"})
    ok(game, {"type": "time_up", "player": "carla"})
    assert game.state.final_turns == ("carla", "emil")
    ok(game, {"type": "turn_played", "player": "carla"})
    ok(game, {"type": "bankrupt", "player": "emil", "creditor": "bank"})
    # time-limit rules are not ended by bankruptcies; emil had no turn left to play
    assert game.status == "finished" and game.end_reason == "time_limit"


def test_marks_only_in_the_final_round_and_end_still_closes_it_at_once() -> None:
    game = official_game()
    refused(game, {"type": "on_turn", "player": "anna"}, "not_final_round_turn")
    refused(game, {"type": "turn_played", "player": "anna"}, "not_final_round_turn")
    ok(game, {"type": "time_up", "player": "ben"})
    ok(game, {"type": "end"})
    assert game.status == "finished"


def test_a_record_with_final_turns_replays_and_a_void_reopens_the_list() -> None:
    game = official_game()
    game.extend([{"type": "time_up", "player": "dora"}, {"type": "turn_played", "player": "dora"}])
    again = Game(players=FIVE, ruleset=game.ruleset, board=game.board)
    again.extend(game.to_record()["events"])
    assert again.state.snapshot() == game.state.snapshot()
    ok(game, {"type": "void", "event": len(game) - 1, "reason": "zu früh"})
    assert game.state.final_turns == ("dora", "emil")
