"""Rules-engine games kept in process memory, so a post does not replay the whole record.

An entry is valid only while its event count equals the game's in the database. Behind it
(another web process took the table's last posts: with several workers that is most posts),
it catches up with the events it lacks (the log is append-only); ahead of it (a transaction
rolled back after ``apply``) it is rebuilt from all the events, which takes a few milliseconds
for a whole game.
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
    overrides = tuple(sorted((game.overrides or {}).items()))  # extra minutes change them
    return (tuple(game.players), game.ruleset, game.board, game.table_id, overrides)


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
    if game.pk is None:  # not created yet (a read before the console was opened): no events
        return new_engine(game)
    identity = _identity(game)
    with _lock:
        entry = _games.get(game.pk)
        if entry is not None and entry[0] == identity and len(entry[1]) == game.event_count:
            _games.move_to_end(game.pk)
            return entry[1]
    if entry is not None and entry[0] == identity and len(entry[1]) < game.event_count:
        caught_up = _catch_up(game, entry[1])
        if caught_up is not None:
            return caught_up
    engine = new_engine(game)
    data = list(game.events.order_by("seq").values_list("data", flat=True))
    engine.extend(data)
    with _lock:
        _games[game.pk] = (identity, engine)
        _games.move_to_end(game.pk)
        while len(_games) > MAX_GAMES:
            _games.popitem(last=False)
    return engine


def _catch_up(game, engine: rules.Game) -> rules.Game | None:
    """``engine`` extended by the events it lacks, or None (another thread moved it meanwhile,
    or the events do not apply: the caller rebuilds). Extended under the lock, so two threads
    never extend one engine at once; a writer applies only to an engine at its locked count,
    which an engine being extended has not reached."""
    have = len(engine)
    missing = list(
        game.events.filter(seq__gte=have, seq__lt=game.event_count).order_by("seq")
        .values_list("data", flat=True)
    )
    if len(missing) != game.event_count - have:
        return None
    with _lock:
        entry = _games.get(game.pk)
        if entry is None or entry[1] is not engine or len(engine) != have:
            return None
        try:
            engine.extend(missing)
        except rules.RuleViolation:
            _games.pop(game.pk, None)
            return None
        _games.move_to_end(game.pk)
    return engine


def clear() -> None:
    with _lock:
        _games.clear()



def forget(game_id: int) -> None:
    with _lock:
        _games.pop(game_id, None)
