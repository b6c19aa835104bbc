"""Game records (``monopoly-game-record/1``): parse the envelope, replay, report the result.

The record is the contract (``shared/spec/game-record.md``). Optional fields this project adds
to the envelope: ``overrides`` (tournament changes to the ruleset, as ``{parameter: value}``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from referee.rules.board import Board, get_board
from referee.rules.contract import FINISHED, FORMAT
from referee.rules.engine import Game
from referee.rules.errors import RecordError
from referee.rules.queries import standings
from referee.rules.rulesets import Ruleset, get_ruleset
from referee.rules.state import GameState

__all__ = ["FORMAT", "Record", "parse_record", "replay", "replay_result"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Record:
    """A record's envelope, checked, and its events (not yet checked: replay does that)."""

    ruleset: Ruleset
    board: Board
    players: tuple[str, ...]
    ledger: bool = False
    events: list[Any] = field(default_factory=list)

    def new_game(self) -> Game:
        return Game(
            ruleset=self.ruleset, board=self.board, players=self.players, ledger=self.ledger
        )


def _named(key: str, own: Mapping[str, T] | None, built_in: Callable[[str], T]) -> T:
    """The organisers' own ruleset or board of that key, else the built-in one."""
    if own and key in own:
        return own[key]
    try:
        return built_in(key)
    except KeyError as exc:
        raise RecordError(str(exc.args[0])) from None


def parse_record(
    data: Any,
    *,
    boards: Mapping[str, Board] | None = None,
    rulesets: Mapping[str, Ruleset] | None = None,
) -> Record:
    """Check a record's envelope; ``boards`` and ``rulesets`` add organisers' own to the
    built-in ones (looked up by the record's keys).

    Raises ``RecordError`` with a reason a banker (or an organiser) can act on.
    """
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {fmt!r}")
    key = data.get("ruleset")
    if not isinstance(key, str):
        raise RecordError("ruleset must be the key of a ruleset")
    ruleset = _named(key, rulesets, get_ruleset)
    overrides = data.get("overrides")
    if overrides is not None:
        if not isinstance(overrides, Mapping):
            raise RecordError("overrides must be an object of ruleset parameters")
        try:
            ruleset = ruleset.with_overrides(dict(overrides))
        except (ValueError, TypeError) as exc:
            raise RecordError(f"overrides: {exc}") from None
    board_key = data.get("board", ruleset.default_board)
    if not isinstance(board_key, str):
        raise RecordError("board must be the key of a board")
    board = _named(board_key, boards, get_board)
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("players must be a non-empty list of player identifiers")
    ledger = data.get("ledger", False)
    if not isinstance(ledger, bool):
        raise RecordError("ledger must be true or false")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise RecordError("events must be a list")
    record = Record(ruleset, board, tuple(players), ledger, list(events))
    record.new_game()  # checks the players against the ruleset (RecordError)
    return record


def replay(
    record: Any,
    *,
    boards: Mapping[str, Board] | None = None,
    rulesets: Mapping[str, Ruleset] | None = None,
) -> Game:
    """Replay a record (dict or ``Record``) event by event; ``RuleViolation`` on the first
    refused event. The returned ``Game`` carries the state, the events and ``to_record()``."""
    if not isinstance(record, Record):
        record = parse_record(record, boards=boards, rulesets=rulesets)
    game = record.new_game()
    game.extend(record.events)
    return game


def replay_result(state: GameState | Game) -> dict[str, Any]:
    """The replay command's JSON: status, end reason and standings with net worth."""
    s = state.state if isinstance(state, Game) else state
    return {
        "status": "finished" if s.status == FINISHED else "running",
        "end_reason": s.end_reason,
        "standings": [st.as_dict() for st in standings(s)],
    }
