"""A table's state at one moment: plain data the rules read and the event handlers change."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from referee.rules.board import Board, Square
from referee.rules.contract import SETUP
from referee.rules.rulesets import Ruleset


class GameState:
    """Everything the rules need to know about a table at one moment. Plain data, no history.

    ``level`` counts building levels per street: 1 … max_houses houses, max_houses + 1 = hotel.
    ``owner`` has an entry only for deeds that belong to a player.
    """

    __slots__ = (
        "board",
        "rules",
        "players",
        "seats",
        "ledger",
        "cash",
        "owner",
        "mortgaged",
        "level",
        "houses_in_bank",
        "hotels_in_bank",
        "in_jail",
        "bankrupt",
        "bankrupt_set",
        "deals",
        "must_auction",
        "started",
        "status",
        "end_reason",
        "auction_stop",
        "paused",
        "clock_start",
        "clock_known",
        "paused_total",
        "pause_started",
        "last_at",
        "final_turns",
    )

    def __init__(
        self, *, board: Board, rules: Ruleset, players: tuple[str, ...], ledger: bool
    ) -> None:
        self.board = board
        self.rules = rules
        self.players = players
        self.seats = frozenset(players)
        self.ledger = ledger
        self.cash = dict.fromkeys(players, rules.start_cash)
        self.owner: dict[str, str] = {}
        self.mortgaged: set[str] = set()
        self.level = {d.key: 0 for d in board.deeds if d.kind == "street"}
        self.houses_in_bank = rules.house_supply
        self.hotels_in_bank = rules.hotel_supply
        self.in_jail: set[str] = set()
        self.bankrupt: list[str] = []  # in the order they went bankrupt
        self.bankrupt_set: set[str] = set()
        self.deals = dict.fromkeys(players, 0)
        self.must_auction: set[str] = set()  # deeds a mid-game bankruptcy gave back to the bank
        self.started = False
        self.status = SETUP
        self.end_reason: str | None = None
        self.auction_stop = False
        self.paused = False
        self.clock_start: datetime | None = None
        self.clock_known = False  # game time is computable (start and all breaks carried ``at``)
        self.paused_total = timedelta()
        self.pause_started: datetime | None = None
        self.last_at: datetime | None = None
        # In the last round of turns (finish-round mode, ``time_up`` naming whose turn it was):
        # the players still to play, in seat order; None when not known.
        self.final_turns: tuple[str, ...] | None = None

    def copy(self) -> GameState:
        """An independent copy: the handlers change only these top-level containers (of
        strings, numbers and tuples), so copying each of them is enough."""
        twin = GameState.__new__(GameState)
        for name in GameState.__slots__:
            value = getattr(self, name)
            if type(value) in (dict, set, list):
                value = type(value)(value)
            setattr(twin, name, value)
        return twin

    # ---- derived facts the rules and the queries share

    @property
    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.bankrupt_set)

    def deeds_of(self, player: str) -> list[Square]:
        """The player's deeds in board order."""
        owner = self.owner
        return [d for d in self.board.deeds if owner.get(d.key) == player]

    def houses(self, street: str) -> int:
        lvl = self.level.get(street, 0)
        return lvl if lvl <= self.rules.max_houses else 0

    def has_hotel(self, street: str) -> bool:
        return self.level.get(street, 0) > self.rules.max_houses

    def game_time(self, at: datetime | None) -> timedelta | None:
        """Wall time since ``start`` minus table-wide breaks; None when it cannot be known."""
        if at is None or not self.clock_known or self.clock_start is None:
            return None
        now = self.pause_started if self.paused and self.pause_started is not None else at
        return now - self.clock_start - self.paused_total

    def snapshot(self) -> dict[str, Any]:
        """A plain, comparable picture of the state (two replays agree iff snapshots do)."""
        return {
            "status": self.status,
            "end_reason": self.end_reason,
            "cash": dict(self.cash),
            "owner": dict(sorted(self.owner.items())),
            "mortgaged": sorted(self.mortgaged),
            "level": {k: v for k, v in self.level.items() if v},
            "houses_in_bank": self.houses_in_bank,
            "hotels_in_bank": self.hotels_in_bank,
            "in_jail": sorted(self.in_jail),
            "bankrupt": list(self.bankrupt),
            "deals": dict(self.deals),
            "must_auction": sorted(self.must_auction),
            "started": self.started,
            "auction_stop": self.auction_stop,
            "paused": self.paused,
            "clock_known": self.clock_known,
            "paused_total": self.paused_total.total_seconds(),
            "final_turns": None if self.final_turns is None else list(self.final_turns),
        }


# --------------------------------------------------------------------------- field readers
