"""Where the console API keeps a table's rendered state and record: one key per table and
reader, replaced when the ETag changes, so no older copy (an old name, a scrubbed reason)
stays behind in the cache; an erasure drops them at once."""

from __future__ import annotations

import zlib
from collections.abc import Iterable

from django.core.cache import cache

from referee import timers
from referee.models import Game


def state_key(table_id: int, *, private: bool, held: bool = False) -> str:
    return f"referee:state:t{table_id}-{int(private)}{'-held' if held else ''}"


def state_etag(*, table_id: int, game: Game, private: bool, held: bool = False) -> str:
    """The state's ETag: the game's events and version (every change of the game, its
    result, its extra minutes or a player's name bumps it). The console carries the one its
    fragment was drawn at, so its first poll is a 304 unless the table moved on meanwhile."""
    if game.pk is None:  # nobody opened the console yet: the unstarted picture, no row
        seating = ",".join(game.players)
        etag = f'"t{table_id}-unstarted-{zlib.crc32(seating.encode())}-{int(private)}"'
    else:
        etag = f'"g{game.pk}-{game.event_count}-{timers.version(game.pk)}-{int(private)}"'
    return etag[:-1] + '-held"' if held else etag


def record_key(table_id: int, *, private: bool) -> str:
    return f"referee:record:t{table_id}-{int(private)}"


def forget_tables(table_ids: Iterable[int]) -> None:
    """Drop the tables' kept bodies (an erasure: no copy of an old name may stay behind)."""
    keys = []
    for table_id in table_ids:
        keys += [state_key(table_id, private=True), state_key(table_id, private=False),
                 state_key(table_id, private=False, held=True),
                 record_key(table_id, private=True), record_key(table_id, private=False)]
    if keys:
        cache.delete_many(keys)
