"""Rules-engine games kept in process memory, so a post does not replay the whole record.

An entry is valid only while its event count equals the game's in the database. Behind it
(another web process took the table's last posts: with several workers that is most posts),
it catches up with the events it lacks (the log is append-only); ahead of it (a reader holding
a row read before the last commit) the engine is built from the events up to its count.

A kept engine is never changed: readers (the console's picture, the public table page, several
threads of one worker) take no lock and may hold it while a post runs. A writer holds the
game's row lock and changes a copy of its own (:func:`engine_to_change`); the copy is kept
after the commit (:func:`publish`), so a post that rolls back leaves nothing behind, and a
reader never sees an event half-applied or one the database does not hold. (Measured against a
per-game lock held by writers and readers: ``benchmarks/bench_console.py``, README.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import transaction

from config.prepared import PreparedRows
from referee import rules
from referee.models import GameEvent

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


def _kept(game, identity: tuple) -> rules.Game | None:
    with _lock:
        entry = _games.get(game.pk)
        if entry is None or entry[0] != identity:
            return None
        if len(entry[1]) == game.event_count:
            _games.move_to_end(game.pk)
        return entry[1]


#: The events a kept engine lacks (another web process took the table's last posts: on every
#: other post of a table in a hall served by two processes), compiled once (issue 29).
_EVENTS_FROM = PreparedRows(lambda game_id, first, end: (
    GameEvent.objects.filter(game_id=game_id).filter(seq__gte=first, seq__lt=end)
    .order_by("seq").values_list("data")
))


def _built(game, kept: rules.Game | None) -> rules.Game:
    """A new engine at exactly ``game.event_count`` events: ``kept`` (never changed) copied and
    extended by the events it lacks, else built from the events."""
    if kept is not None and len(kept) < game.event_count:
        have = len(kept)
        missing = [data for (data,) in _EVENTS_FROM.all(game.pk, have, game.event_count)]
        if len(missing) == game.event_count - have:
            engine = kept.copy()
            try:
                engine.extend(missing)
            except rules.RuleViolation:
                pass  # not this game's history after all: built from the start below
            else:
                return engine
    engine = new_engine(game)
    if game.event_count:  # a game without events reads none (the first post)
        engine.extend(
            game.events.filter(seq__lt=game.event_count).order_by("seq")
            .values_list("data", flat=True)
        )
    return engine


def engine_for(game) -> rules.Game:
    """The engine for ``game`` at exactly ``game.event_count`` events, to read: shared with
    other threads, so never change it (a writer takes :func:`engine_to_change`)."""
    if game.pk is None:  # not created yet (a read before the console was opened): no events
        return new_engine(game)
    identity = _identity(game)
    kept = _kept(game, identity)
    if kept is not None and len(kept) == game.event_count:
        return kept
    engine = _built(game, kept)
    publish(game, engine)
    return engine


def engine_to_change(game) -> rules.Game:
    """A copy of the engine at ``game.event_count`` events for the writer that holds the
    game's row lock. Nobody else sees it until :func:`publish` keeps it after the commit."""
    if game.pk is None:
        return new_engine(game)
    kept = _kept(game, _identity(game))
    if kept is not None and len(kept) == game.event_count:
        return kept.copy()
    return _built(game, kept)  # a new object already


def publish(game, engine: rules.Game) -> None:
    """Keep ``engine`` for ``game`` once the transaction that wrote its events committed: a
    writer calls this after its transaction block (a rollback raised past it), inside an outer
    transaction it waits for that one's commit. An engine with fewer events than the kept one
    (a late commit's, a stale reader's) does not replace it."""
    pk, identity = game.pk, _identity(game)

    def keep() -> None:
        with _lock:
            entry = _games.get(pk)
            if entry is not None and entry[0] == identity and len(entry[1]) > len(engine):
                return
            _games[pk] = (identity, engine)
            _games.move_to_end(pk)
            while len(_games) > MAX_GAMES:
                _games.popitem(last=False)

    connection = transaction.get_connection()
    # Outside a transaction (a writer calls this after its block) the events are committed. A
    # test case's own transaction (never committed) stands for autocommit here, as it does for
    # Django's durable blocks; any other open transaction may still roll back: keep at commit.
    if all(getattr(block, "_from_testcase", False) for block in connection.atomic_blocks):
        keep()
    else:
        transaction.on_commit(keep)


def clear() -> None:
    with _lock:
        _games.clear()


def forget(game_id: int) -> None:
    with _lock:
        _games.pop(game_id, None)
