"""Deadlines (auction stop, time limit) fired by Celery with ``eta``, and a sweep that catches
anything missed. The deadline is always read from the database when a timer fires, so a late,
early or duplicate timer changes nothing.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.cache import cache

from config.queue import enqueue
from referee.models import Game
from referee.tasks import fire_deadlines

VERSION_KEY = "game:{id}:version"


def _fresh() -> str:
    return secrets.token_hex(6)


def bump_version(game_id: int) -> None:
    """Public pages and the state API use this as part of their ETag, with the game's event
    count: a change that adds events moves the count, so only the others bump (a ruling, a
    result, a name, a scrub, a new seating; ``signals.game_changed``'s ``events_added``).

    The version is replaced by a new random value, never counted: one write and no read (a
    counter on the file cache is a read and a write, and two processes counting at once
    both write the same number: the second change would keep the first one's ETag), and a
    version the cache lost comes back as a value no ETag named before (a counter would start
    at 1 again, an ETag of an older state of the same event count)."""
    cache.set(VERSION_KEY.format(id=game_id), _fresh(), timeout=None)


def version(game_id: int) -> str:
    """The game's version; a new value per call while the cache cannot keep one (Redis
    down): no ETag then repeats, so nobody is told "not modified" for a change."""
    return cache.get_or_set(VERSION_KEY.format(id=game_id), _fresh, timeout=None)


def schedule(game_id: int, *, due: tuple | None = None) -> None:
    """Queue a timer for each future deadline; without a broker the next request enforces.
    ``due``: the deadlines as the committed write set them (a post has them: not read back)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    if due is None:
        due = Game.objects.filter(pk=game_id).values_list(
            "auction_stop_due", "time_up_due").first()
    for moment in due or ():
        if moment is not None:
            enqueue(fire_deadlines, game_id, eta=moment)
