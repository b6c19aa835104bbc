"""Event handlers of the clock: start, breaks, the auction stop, the time limit, the end.

Each handler: (state, event, index, at, commit). Validate everything, then (if commit) change."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from referee.rules.contract import FINAL_ROUND, FINISHED
from referee.rules.fields import (
    _clock,
    _clock_td,
    _player,
    _refuse,
)
from referee.rules.rulesets import TimeLimitMode
from referee.rules.state import GameState


def _start(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if s.started:
        raise _refuse("already_started", idx, ev)
    if commit:
        s.started = True
        s.clock_start = at
        s.clock_known = at is not None


def _pause(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if s.paused:
        raise _refuse("already_paused", idx, ev)
    if commit:
        s.paused = True
        s.pause_started = at
        if at is None:
            s.clock_known = False


def _resume(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if not s.paused:
        raise _refuse("not_paused", idx, ev)
    if commit:
        if s.clock_known and at is not None and s.pause_started is not None:
            s.paused_total += at - s.pause_started
        else:
            s.clock_known = False
        s.paused = False
        s.pause_started = None


def _auction_stop(
    s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool
) -> None:
    minute = s.rules.auction_stop_minute
    if minute is None:
        raise _refuse("no_auction_stop", idx, ev, ruleset=s.rules.key)
    if s.auction_stop:
        raise _refuse("auction_stop_repeated", idx, ev)
    elapsed = s.game_time(at)
    if elapsed is not None and elapsed < timedelta(minutes=minute):
        raise _refuse(
            "auction_stop_too_early", idx, ev, minimum=_clock(minute), game_time=_clock_td(elapsed)
        )
    if commit:
        s.auction_stop = True


def _time_up(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    rules = s.rules
    if not rules.has_time_limit:
        raise _refuse("no_time_limit", idx, ev, ruleset=rules.key)
    if s.status == FINAL_ROUND:
        raise _refuse("already_final_round", idx, ev)
    turn = _player(s, ev, idx) if ev.get("player") is not None else None
    limit = rules.time_limit_minutes
    elapsed = s.game_time(at)
    if limit is not None and elapsed is not None and elapsed < timedelta(minutes=limit):
        raise _refuse(
            "time_up_too_early", idx, ev, minimum=_clock(limit), game_time=_clock_td(elapsed)
        )
    if commit:
        if rules.time_limit_mode == TimeLimitMode.FINISH_ROUND:
            s.status = FINAL_ROUND
            if turn is not None:
                # Whose turn it is at time, and everyone after them in seat order, still play
                # (a round of turns begins at the first seat).
                active = s.active_players
                s.final_turns = active[active.index(turn) :]
        else:
            _finish(s, "time_limit")


def _end(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if s.status != FINAL_ROUND:
        raise _refuse("not_final_round", idx, ev)
    if commit:
        _finish(s, "time_limit")


def _on_turn(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    """Whose turn it was at the time limit (when ``time_up`` did not say, e.g. the server's)."""
    if s.status != FINAL_ROUND:
        raise _refuse("not_final_round_turn", idx, ev)
    if s.final_turns is not None:
        raise _refuse("final_turns_known", idx, ev)
    player = _player(s, ev, idx)
    if commit:
        active = s.active_players
        s.final_turns = active[active.index(player) :]


def _turn_played(
    s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool
) -> None:
    """A player has had their last turn; after the last of them the game ends."""
    if s.status != FINAL_ROUND:
        raise _refuse("not_final_round_turn", idx, ev)
    if not s.final_turns:
        raise _refuse("final_turns_unknown", idx, ev)
    player = _player(s, ev, idx)
    if player != s.final_turns[0]:
        raise _refuse("not_their_turn", idx, ev, player=player, expected=s.final_turns[0])
    if commit:
        s.final_turns = s.final_turns[1:]
        if not s.final_turns:
            _finish(s, "time_limit")


def drop_from_final_turns(s: GameState, player: str) -> None:
    """A player who goes bankrupt in the last round of turns has no turn left."""
    if s.final_turns is not None and player in s.final_turns:
        s.final_turns = tuple(p for p in s.final_turns if p != player)
        if not s.final_turns and s.status == FINAL_ROUND:
            _finish(s, "time_limit")


def _finish(s: GameState, reason: str) -> None:
    s.status = FINISHED
    s.end_reason = reason
