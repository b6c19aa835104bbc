"""The names of the game-record contract (``../shared/spec/game-record.md``) that every part of
the engine shares: the record's format, the bank, a game's statuses, the event types."""

from __future__ import annotations

#: The record format this engine reads and writes (``Game.to_record``, ``record.parse_record``).
FORMAT = "monopoly-game-record/1"

BANK = "bank"

# Status values of a game.
SETUP, RUNNING, FINAL_ROUND, FINISHED = "setup", "running", "final_round", "finished"

# The contract's event types, and the ones this project adds (``end`` closes a final round,
# ``on_turn`` says whose turn it was at the time limit, ``turn_played`` that a player has had
# their last turn in it).
EVENT_TYPES = (
    "start",
    "pause",
    "resume",
    "deal",
    "buy",
    "auction",
    "auction_stop",
    "build",
    "sell_building",
    "mortgage",
    "unmortgage",
    "trade",
    "jail",
    "release",
    "pay",
    "cash",
    "bankrupt",
    "time_up",
    "void",
)
PROJECT_EVENT_TYPES = ("end", "on_turn", "turn_played")
