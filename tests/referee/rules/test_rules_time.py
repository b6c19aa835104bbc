"""The clock: game time without breaks, the time limit, the final round, and the end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rules_testkit import at, buy, new_game, ok, refused

from referee.rules import TimeLimitMode, get_ruleset


def timed(ruleset: object = "karlsruhe") -> object:
    game = new_game(ruleset, start=False)
    return ok(game, {"type": "start", "at": at(0)})


def test_time_up_at_90_minutes_inclusive() -> None:
    game = timed()
    exc = refused(game, {"type": "time_up", "at": at(89 + 59 / 60)}, "time_up_too_early")
    assert exc.message_en == "the time limit of 90:00 is not reached, game time is 89:59"
    assert exc.message_de == "Das Zeitlimit von 90:00 ist nicht erreicht, Spielzeit 89:59"
    ok(game, {"type": "time_up", "at": at(90)})
    assert game.status == "finished" and game.end_reason == "time_limit"


def test_breaks_do_not_count() -> None:
    game = timed()
    ok(game, {"type": "pause", "at": at(30)})
    assert game.state.game_time(game.state.last_at + timedelta(minutes=5)) == timedelta(minutes=30)
    ok(game, {"type": "resume", "at": at(45)})
    refused(game, {"type": "time_up", "at": at(104)}, "time_up_too_early")
    ok(game, {"type": "time_up", "at": at(105)})


def test_clock_unknown_without_times_is_trusted() -> None:
    ok(new_game("karlsruhe"), {"type": "time_up", "at": at(1)})  # start had no time
    game = timed()
    ok(game, {"type": "pause"})  # a break without a time: game time is unknown from here
    ok(game, {"type": "resume", "at": at(20)})
    ok(game, {"type": "time_up", "at": at(21)})


def test_pause_and_resume_must_alternate() -> None:
    game = new_game("classic", {"type": "pause"})
    refused(game, {"type": "pause"}, "already_paused")
    ok(game, {"type": "resume"})
    refused(game, {"type": "resume"}, "not_paused")


def test_time_cannot_go_backwards_and_must_be_iso_with_offset() -> None:
    game = timed()
    ok(game, {**buy("anna", "badstrasse")[0], "at": at(10)})
    exc = refused(game, {**buy("ben", "turmstrasse")[0], "at": at(9)}, "time_goes_backwards")
    assert "is before 2026-11-28T14:10:00+01:00" in exc.message_en
    refused(game, {"type": "pause", "at": "2026-11-28T14:20:00"}, "bad_time")  # no offset
    refused(game, {"type": "pause", "at": "half past two"}, "bad_time")
    refused(game, {"type": "pause", "at": 1400}, "wrong_type")
    ok(game, {"type": "pause", "at": "2026-11-28T13:20:00Z"})  # same instant as 14:20+01:00


@pytest.mark.parametrize("ruleset", ["classic", "short-game", "castle-short"])
def test_no_time_up_without_a_time_limit(ruleset: str) -> None:
    exc = refused(new_game(ruleset), {"type": "time_up"}, "no_time_limit")
    assert exc.message_en == f"the '{ruleset}' rules have no time limit"


def test_time_limit_ruleset_takes_the_agreed_limit() -> None:
    ok(new_game("time-limit"), {"type": "time_up"})  # agreed at the table: banker calls it
    game = timed(get_ruleset("time-limit").replace(time_limit_minutes=60))
    refused(game, {"type": "time_up", "at": at(59)}, "time_up_too_early")
    ok(game, {"type": "time_up", "at": at(60)})
    assert game.end_reason == "time_limit"


def test_tournament_may_shorten_karlsruhe() -> None:
    game = timed(get_ruleset("karlsruhe").replace(time_limit_minutes=75))
    ok(game, {"type": "time_up", "at": at(75)})


def final_round_game() -> object:
    rules = get_ruleset("karlsruhe").replace(time_limit_mode=TimeLimitMode.FINISH_ROUND)
    return new_game(rules, *buy("anna", "parkstrasse", "schlossallee"))


def test_finish_round_mode() -> None:
    game = final_round_game()
    refused(game, {"type": "end"}, "not_final_round")
    ok(game, {"type": "time_up"})
    assert game.status == "final_round" and game.end_reason is None
    refused(game, {"type": "time_up"}, "already_final_round")
    ok(game, {"type": "build", "deed": "parkstrasse"})  # play goes on until every turn is had
    ok(game, {"type": "end"})
    assert game.status == "finished" and game.end_reason == "time_limit"


def test_bankruptcy_in_the_final_round_still_ends_the_game() -> None:
    game = final_round_game()
    game.extend([{"type": "time_up"}, {"type": "bankrupt", "player": "ben", "creditor": "bank"}])
    ok(game, {"type": "bankrupt", "player": "carla", "creditor": "anna"})
    assert game.end_reason == "second_bankruptcy"


@pytest.mark.parametrize(
    "event",
    [
        {"type": "buy", "player": "anna", "deed": "badstrasse"},
        {"type": "pause"},
        {"type": "start"},
        {"type": "pay", "from": "anna", "to": "bank", "amount": 5},
        {"type": "jail", "player": "anna"},
        {"type": "time_up"},
        {"type": "end"},
        {"type": "deal", "player": "anna", "deed": "badstrasse"},
    ],
)
def test_after_the_end_only_counts_and_voids(event: dict) -> None:
    game = new_game("karlsruhe", {"type": "time_up"})
    exc = refused(game, event, "game_over")
    assert exc.message_en == "the game is over — only cash counts and voids are accepted now"
    ok(game, {"type": "cash", "player": "anna", "amount": 2000})
    assert game.state.cash["anna"] == 2000
    ok(game, {"type": "void", "event": len(game) - 1, "reason": "miscounted"})
