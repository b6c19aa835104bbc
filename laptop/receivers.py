"""A confirmed result is copied off the laptop before the banker sees "confirmed": the copy is
made in the request that confirmed it (after commit), so killing the laptop right after the
answer loses nothing that was confirmed."""

from __future__ import annotations

import logging

from django.conf import settings

logger = logging.getLogger("laptop.backup")


def on_result_changed(sender, *, game_id: int, **kwargs) -> None:
    from referee.models import GameResult

    from . import backup

    if not GameResult.objects.filter(game_id=game_id,
                                     status=GameResult.Status.CONFIRMED).exists():
        return
    try:
        path = backup.backup_now(database=settings.DATABASE_FILE,
                                 folder=settings.LAPTOP_BACKUP_DIR,
                                 keep=settings.LAPTOP_BACKUP_KEEP, reason="result")
    except backup.BackupError as error:  # the result is stored; the next backup catches up
        logger.error("BACKUP FAILED after a confirmed result: %s", error)
        return
    logger.info("backup after a confirmed result (game %s): %s", game_id, path)


def connect() -> None:
    """Only on the laptop (config.laptop): elsewhere PostgreSQL has its own backups."""
    if not hasattr(settings, "LAPTOP_BACKUP_DIR"):
        return
    from referee.signals import result_changed

    result_changed.connect(on_result_changed, dispatch_uid="laptop.on_result_changed")
