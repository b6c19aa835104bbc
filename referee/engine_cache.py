"""Rules-engine games kept in process memory, so a post does not replay the whole record.

An entry is valid only while its event count equals the game's in the database; anything else
(another process wrote, a transaction rolled back after ``apply``) makes it rebuild from the
events, which takes a few milliseconds for a whole game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from referee import rules

MAX_GAMES = 512
_lock = threading.Lock()
_games: OrderedDict[int, tuple[tuple, rules.Game]] = OrderedDict()


def _identity(game) -> tuple:
    """What makes a cached engine belong to this game row, beyond its primary key (SQLite
    reuses the key of a deleted newest row)."""
    return (tuple(game.players), game.ruleset, game.board, game.table_id)


def envelope(game) -> dict:
    """The record's header for a stored game (events not included)."""
    record = {
        "format": rules.FORMAT,
        "ruleset": game.ruleset,
        "board": game.board,
        "players": list(game.players),
        "ledger": game.ledger,
    }
    if game.overrides:
        record["overrides"] = dict(game.overrides)
    return record


def new_engine(game) -> rules.Game:
    return rules.parse_record({**envelope(game), "events": []}).new_game()


def engine_for(game) -> rules.Game:
    """The engine for ``game`` at exactly ``game.event_count`` events."""
    identity = _identity(game)
    with _lock:
        entry = _games.get(game.pk)
        if entry is not None and entry[0] == identity and len(entry[1]) == game.event_count:
            _games.move_to_end(game.pk)
            return entry[1]
    engine = new_engine(game)
    data = list(game.events.order_by("seq").values_list("data", flat=True))
    engine.extend(data)
    with _lock:
        _games[game.pk] = (identity, engine)
        _games.move_to_end(game.pk)
        while len(_games) > MAX_GAMES:
            _games.popitem(last=False)
    return engine


def clear() -> None:
    with _lock:
        _games.clear()



def forget(game_id: int) -> None:
    with _lock:
        _games.pop(game_id, None)
