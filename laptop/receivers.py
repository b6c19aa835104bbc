"""A confirmed result is copied off the laptop before the banker sees "confirmed": the copy is
made in the request that confirmed it (after commit), so killing the laptop right after the
answer loses nothing that was confirmed. The answer says whether the copy exists
(``config.safekeeping``); a failure shows at once on every staff page (``laptop.status``)."""

from __future__ import annotations

import logging

from django.conf import settings

from config.safekeeping import note_copy
from referee.changes import ResultChange

logger = logging.getLogger("laptop.backup")


def backup_after_result(change: ResultChange) -> None:
    """Step after a changed result (``settings.RESULT_STEPS``), the last: a confirmed result
    is copied off the laptop. Only on the laptop (config.laptop): elsewhere PostgreSQL has
    its own backups. A copy that fails in a way ``make_copy`` did not foresee is noted all the
    same: the banker must not read "confirmed" without hearing that no copy exists."""
    if not change.confirmed or not hasattr(settings, "LAPTOP_BACKUP_DIR"):
        return
    from laptop.copies import Target, make_copy

    try:
        path, error = make_copy(Target.from_settings(), reason="result")
    except Exception as exc:
        note_copy(made=False, detail=str(exc))
        raise
    note_copy(made=path is not None, detail=str(path) if path else error)
    if path is not None:
        logger.info("backup after a confirmed result (game %s): %s", change.game_id, path)
