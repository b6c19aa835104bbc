"""Celery tasks of the standings: thin wrappers taking ids; safe to run twice."""

from __future__ import annotations

from celery import shared_task

from scoring.standings import services


@shared_task(name="scoring.recompute_standings", acks_late=True)
def recompute_standings(tournament_id: int) -> bool:
    return services.recompute_standings(tournament_id=tournament_id)


@shared_task(name="scoring.refresh_running_standings")
def refresh_running_standings() -> int:
    """Beat runs this every few seconds: a recompute task lost with a killed worker is caught
    here (a no-op when no result changed, thanks to the input signature)."""
    return services.refresh_running_standings()
