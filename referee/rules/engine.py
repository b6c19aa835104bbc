"""The referee: a table's state and the rules that move it, one event at a time.

``Game`` is what the console keeps per table: ``apply`` validates and applies an event
incrementally (cheap), ``check`` validates without changing anything, a ``void`` rebuilds the
state from the record without the voided event. Every handler validates completely before it
changes anything, so a refused event leaves the state untouched.

What this project adds to the record contract (all optional):

* event ``end``: closes the final round when the ruleset's ``time_limit_mode`` is
  ``finish_round`` (``time_up`` then only starts the final round; status ``final_round``);
* ``time_up.player`` or, after a ``time_up`` without it (the server's), event ``on_turn``
  {player} (finish-round mode): whose turn it is at time. That player and everyone after them
  in seat order still play (``state.final_turns``); event ``turn_played`` {player} marks each
  one's last turn, in that order, and the game ends after the last of them (a player going
  bankrupt meanwhile drops out of the list; ``end`` still closes the round at once);
* ``trade.unmortgage`` / ``bankrupt.unmortgage``: mortgaged deeds the receiver pays off at once;
* ``release.fine``: ``true`` when the player paid the jail fine (charged to the player);
* ``build.price``: the building was auctioned because the bank ran short (the price is paid
  instead of the house cost; Karlsruhe: only the bank's last house, minimum 10).

Decisions where the rulebooks leave room (RULESETS.md "Decisions" are followed as written):

* Before ``start`` only ``deal`` is accepted. Set-up ends with the first play event (anything
  but ``start``, ``deal``, ``pause``, ``resume``, ``cash``, ``void``); no deal after it. The
  engine does not insist that every player received all their deals.
* Mortgaged deeds received in a trade or a (non-final) bankruptcy: the receiver pays 10 %
  interest at once and keeps them mortgaged, unless listed under ``unmortgage`` (then mortgage
  + 10 % at once). A later pay-off costs mortgage + 10 % again.
* Bankruptcy to a player: every building goes back to the bank at half its price, that money
  and the bankrupt player's cash (never below 0) go to the creditor, the deeds pass. To the
  bank: deeds return free of mortgage and must then be auctioned (``buy`` is refused for them
  until an ``auction`` happened); buildings return to the bank's supply.
* The game ends at the ruleset's bankruptcy (first/second) and in every ruleset when only one
  player is left (``last_player_standing``); ``time_limit_only`` is not ended by bankruptcies.
* After the auction stop ``buy`` is refused for every deed for the rest of the game: a deed
  the bank still has (no bid, or returned by a bankruptcy) can only be auctioned.
* Clock: game time = wall time since ``start`` minus breaks, from ``at``. When ``start`` or a
  break has no ``at`` the game time is unknown and the 45/90-minute checks are skipped (the
  banker is trusted). ``at`` may never go backwards.
* ``void``: the voided event counts as never recorded. The state equals a replay of the record
  without every voided event (and without the voids); a void is refused if a remaining event
  would then be refused. A ``void`` or the ``start`` cannot be voided, nor an event twice.
  A void after the end may reopen the game (e.g. voiding the game-ending bankruptcy).
* A trade without deeds is refused (lending between players is forbidden), unless the ruleset
  sets ``lending_allowed``.
* Stations count every station the owner has, mortgaged ones included (the mortgaged one earns
  nothing). ``single`` and ``double_only_if_none_mortgaged`` give the same amounts: the
  rulebooks phrase the same rule from two sides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.rules.board import Board, get_board
from referee.rules.contract import (
    BANK,
    EVENT_TYPES,
    FINISHED,
    FORMAT,
    PROJECT_EVENT_TYPES,
    RUNNING,
    SETUP,
)
from referee.rules.errors import RecordError, RuleViolation
from referee.rules.fields import (
    _MISSING,
    _TEXT,
    _WHOLE,
    _field,
    _parse_at,
    _refuse,
)
from referee.rules.handlers_clock import (
    _auction_stop,
    _end,
    _on_turn,
    _pause,
    _resume,
    _start,
    _time_up,
    _turn_played,
)
from referee.rules.handlers_deeds import (
    _auction,
    _build,
    _buy,
    _deal,
    _mortgage,
    _sell_building,
    _unmortgage,
)
from referee.rules.handlers_money import (
    _bankrupt,
    _cash,
    _jail,
    _pay,
    _release,
    _trade,
)
from referee.rules.rulesets import Ruleset, get_ruleset
from referee.rules.state import GameState

__all__ = [
    "BANK",
    "EVENT_TYPES",
    "PROJECT_EVENT_TYPES",
    "Game",
    "GameState",
    "check_event",
]


# Events that are not play: any other event closes the set-up (no more deals afterwards).
_SETUP_EVENTS = frozenset({"start", "deal", "pause", "resume", "cash", "void"})


_HANDLERS = {
    "start": _start,
    "pause": _pause,
    "resume": _resume,
    "deal": _deal,
    "buy": _buy,
    "auction": _auction,
    "auction_stop": _auction_stop,
    "build": _build,
    "sell_building": _sell_building,
    "mortgage": _mortgage,
    "unmortgage": _unmortgage,
    "trade": _trade,
    "jail": _jail,
    "release": _release,
    "pay": _pay,
    "cash": _cash,
    "bankrupt": _bankrupt,
    "time_up": _time_up,
    "end": _end,
    "on_turn": _on_turn,
    "turn_played": _turn_played,
}
_AFTER_END = frozenset({"cash"})
_BEFORE_START = frozenset({"start", "deal"})


def _run(s: GameState, ev: Any, idx: int | None, commit: bool) -> None:
    """Validate ``ev`` against ``s`` and, if ``commit``, apply it. Not for ``void``."""
    if not isinstance(ev, Mapping):
        raise _refuse("malformed_event", idx, ev)
    kind = ev.get("type", _MISSING)
    handler = _HANDLERS.get(kind) if type(kind) is str else None
    if handler is None:
        if kind is _MISSING:
            raise _refuse("missing_field", idx, ev, field="type")
        raise _refuse("unknown_event_type", idx, ev, type=kind)
    raw_at = ev.get("at")
    at = None
    if raw_at is not None:
        at = _parse_at(raw_at, ev, idx)
        if s.last_at is not None and at < s.last_at:
            raise _refuse("time_goes_backwards", idx, ev, at=raw_at, previous=s.last_at.isoformat())
    status = s.status
    if status == FINISHED and kind not in _AFTER_END:
        raise _refuse("game_over", idx, ev)
    if not s.started and kind not in _BEFORE_START:
        raise _refuse("not_started", idx, ev)
    handler(s, ev, idx, at, commit)
    if commit:
        if at is not None:
            s.last_at = at
        if s.status == SETUP and kind not in _SETUP_EVENTS:
            s.status = RUNNING


def check_event(state: GameState, event: Any, *, index: int | None = None) -> None:
    """Raise ``RuleViolation`` if ``event`` may not happen now; never changes ``state``.

    ``void`` needs the history and is checked by ``Game.check``.
    """
    if isinstance(event, Mapping) and event.get("type") == "void":
        raise _refuse("unknown_event_type", index, event, type="void")
    _run(state, event, index, False)


# --------------------------------------------------------------------------- the game


def _copy_event(event: Any) -> Any:
    """Our own copy, so a caller changing its dict later cannot change the record."""
    if not isinstance(event, Mapping):
        return event
    return {k: (list(v) if isinstance(v, list) else v) for k, v in event.items()}


class Game:
    """One table's game: the record (events, voids) and the current state.

    ``apply`` is incremental; only ``void`` replays the record (without the voided event).
    """

    __slots__ = ("ruleset", "rules", "board", "players", "ledger", "_events", "_voided", "_state")

    def __init__(
        self,
        *,
        players: Iterable[str],
        ruleset: Ruleset | str = "karlsruhe",
        board: Board | str | None = None,
        ledger: bool = False,
    ) -> None:
        base = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if board is None:
            board = base.default_board
        if isinstance(board, str):
            try:
                board = get_board(board)
            except KeyError as exc:
                raise RecordError(str(exc.args[0])) from None
        seats = tuple(players) if not isinstance(players, str) else (players,)
        _check_players(seats, base)
        self.ruleset = base  # as given (for the record)
        self.rules = base.for_board(board)  # amounts in the board's currency
        self.board = board
        self.players = seats
        self.ledger = bool(ledger)
        self._events: list[Any] = []
        self._voided: set[int] = set()
        self._state = self._fresh_state()

    def _fresh_state(self) -> GameState:
        return GameState(
            board=self.board, rules=self.rules, players=self.players, ledger=self.ledger
        )

    # ---- reading

    @property
    def state(self) -> GameState:
        return self._state

    @property
    def status(self) -> str:
        """'setup', 'running', 'final_round' or 'finished'."""
        return self._state.status

    @property
    def end_reason(self) -> str | None:
        return self._state.end_reason

    @property
    def events(self) -> list[Any]:
        """The record's events as applied, voids included (copies)."""
        return [_copy_event(e) for e in self._events]

    def events_from(self, start: int) -> list[Any]:
        """The events from index ``start`` on (copies): a recent few without copying the
        whole record."""
        return [_copy_event(e) for e in self._events[start:]]

    @property
    def voided(self) -> frozenset[int]:
        """Indices of the events cancelled by a ``void``."""
        return frozenset(self._voided)

    def __len__(self) -> int:
        return len(self._events)

    def __repr__(self) -> str:
        return f"<Game {self.ruleset.key} on {self.board.key}: {len(self._events)} events, {self.status}>"

    def copy(self) -> Game:
        """An independent copy to change while others read this one (events are never changed
        once applied, so the record's list is copied, not its events)."""
        twin = Game.__new__(Game)
        twin.ruleset, twin.rules, twin.board = self.ruleset, self.rules, self.board
        twin.players, twin.ledger = self.players, self.ledger
        twin._events = list(self._events)
        twin._voided = set(self._voided)
        twin._state = self._state.copy()
        return twin

    # ---- changing

    def check(self, event: Any) -> None:
        """Raise ``RuleViolation`` if ``event`` would be refused now. Changes nothing."""
        idx = len(self._events)
        if isinstance(event, Mapping) and event.get("type") == "void":
            target = self._void_target(event, idx)
            self._rebuild(self._voided | {target}, idx, event)
        else:
            _run(self._state, event, idx, False)

    def apply(self, event: Any) -> None:
        """Validate and apply one event, appending it to the record; refuse with RuleViolation."""
        idx = len(self._events)
        event = _copy_event(event)
        if isinstance(event, Mapping) and event.get("type") == "void":
            target = self._void_target(event, idx)
            voided = self._voided | {target}
            self._state = self._rebuild(voided, idx, event)
            self._voided = voided
        else:
            _run(self._state, event, idx, True)
        self._events.append(event)

    def extend(self, events: Iterable[Any]) -> None:
        for event in events:
            self.apply(event)

    def _void_target(self, ev: Mapping[str, Any], idx: int) -> int:
        target = _field(ev, "event", idx)
        if type(target) is not int:
            raise _refuse("wrong_type", idx, ev, field="event", expected=_WHOLE)
        reason = _field(ev, "reason", idx)
        if type(reason) is not str:
            raise _refuse("wrong_type", idx, ev, field="reason", expected=_TEXT)
        if "at" in ev and ev["at"] is not None:
            _parse_at(ev["at"], ev, idx)
        if not 0 <= target < idx:
            raise _refuse("bad_event_index", idx, ev, target=target, last=idx - 1)
        voided_event = self._events[target]
        kind = voided_event.get("type") if isinstance(voided_event, Mapping) else None
        if kind == "void":
            raise _refuse("void_of_void", idx, ev)
        if kind == "start":
            raise _refuse("void_of_start", idx, ev)
        if target in self._voided:
            raise _refuse("already_voided", idx, ev, target=target)
        return target

    def _rebuild(self, voided: set[int], idx: int, void: Mapping[str, Any]) -> GameState:
        """The state of a replay of the record so far without the ``voided`` events."""
        state = self._fresh_state()
        for i, ev in enumerate(self._events):
            if i in voided or ev.get("type") == "void":
                continue
            try:
                _run(state, ev, i, True)
            except RuleViolation as exc:
                raise RuleViolation(
                    "void_breaks_later_event",
                    index=idx,
                    event=void,
                    target=void["event"],
                    cause=exc,
                ) from exc
        return state

    # ---- export

    def to_record(self) -> dict[str, Any]:
        """The game as a ``monopoly-game-record/1`` document (replaying it gives this state)."""
        record: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset.key,
            "board": self.board.key,
            "players": list(self.players),
        }
        if self.ledger:
            record["ledger"] = True
        try:
            base = get_ruleset(self.ruleset.key)
        except KeyError:
            base = None
        if base is not None and base != self.ruleset:
            record["overrides"] = self.ruleset.overrides_from(base)
        record["events"] = self.events
        return record


def _check_players(seats: tuple[str, ...], ruleset: Ruleset) -> None:
    for p in seats:
        if type(p) is not str or not p.strip():
            raise RecordError(f"players must be non-empty strings, not {p!r}")
        if p == BANK:
            raise RecordError("'bank' is reserved for the bank and cannot be a player")
    if len(set(seats)) != len(seats):
        dupes = sorted({p for p in seats if seats.count(p) > 1})
        raise RecordError(f"players must be unique: {', '.join(dupes)} twice")
    if not ruleset.players_min <= len(seats) <= ruleset.players_max:
        raise RecordError(
            f"the '{ruleset.key}' rules seat {ruleset.players_min} to {ruleset.players_max} "
            f"players, not {len(seats)}"
        )
