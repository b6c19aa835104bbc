"""The seating generator's one domain error: a stable ``code`` plus a readable message."""

from __future__ import annotations

from typing import Any

IMPOSSIBLE_SPLIT = "impossible_split"
INVALID_PLAYERS = "invalid_players"
INVALID_ROUNDS = "invalid_rounds"
INVALID_TABLE_SIZE = "invalid_table_size"
INVALID_MIN_SIZE = "invalid_min_size"
INVALID_SECONDS = "invalid_seconds"
INVALID_WEIGHTS = "invalid_weights"
INVALID_HISTORY = "invalid_history"
UNKNOWN_PLAYER = "unknown_player"
INVALID_CLUBS = "invalid_clubs"
INVALID_FILE = "invalid_file"


class SeatingError(ValueError):
    """A request the generator refuses; callers map ``code`` to their own error types.

    ``str(error)`` is the message alone (English, for the command line); ``params`` holds the
    figures, so that a caller can word the refusal in its reader's language.
    """

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = dict(params or {})

    def __repr__(self) -> str:
        return f"SeatingError({self.code!r}, {self.message!r})"
