"""The one trigger for recomputing standings: their inputs changed (a result was counted,
confirmed, disputed or re-counted: the step ``on_result`` of ``settings.RESULT_STEPS``; a
round was closed, a penalty recorded: ``standings_changed``).

The recompute runs right after commit, in the request that changed the result: the hall sees
a confirmed result as soon as the banker's phone does, not after a worker's round trip (the
queue, a worker busy with the clocks' deadlines). It is idempotent and serialized per
tournament (``services.recompute_standings``); if it fails there, it is queued for the worker,
and ``scoring.refresh_running_standings`` repairs anything lost on the way.
"""

from __future__ import annotations

import logging

from django.db import transaction

from config.queue import enqueue
from referee.changes import ResultChange
from scoring.standings import services, tasks
from tournament.models import Tournament

logger = logging.getLogger("scoring.standings")


def standings_changed(*, tournament_id: int) -> None:
    transaction.on_commit(lambda: _recompute_now(tournament_id))


def on_result(change: ResultChange) -> None:
    """Step after a changed result (``settings.RESULT_STEPS``; already after commit): the
    tournament read with the change is not read again."""
    _recompute_now(change.tournament_id, tournament=change.tournament)


def _recompute_now(tournament_id: int, *, tournament: Tournament | None = None) -> None:
    try:
        services.recompute_standings(tournament_id=tournament_id, tournament=tournament)
    except Exception:  # noqa: BLE001 - the change is committed; the worker tries again
        logger.exception("standings of tournament %s left to the worker", tournament_id)
        enqueue(tasks.recompute_standings, tournament_id)
