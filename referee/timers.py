"""Deadlines (auction stop, time limit) fired by Celery with ``eta``, and a sweep that catches
anything missed. The deadline is always read from the database when a timer fires, so a late,
early or duplicate timer changes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from config.queue import enqueue
from referee.models import Game
from referee.tasks import fire_deadlines

VERSION_KEY = "game:{id}:version"


def bump_version(game_id: int) -> None:
    """Public pages and the state API use this as part of their ETag."""
    key = VERSION_KEY.format(id=game_id)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=None)


def version(game_id: int) -> int:
    return cache.get_or_set(VERSION_KEY.format(id=game_id), 1, timeout=None)


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
