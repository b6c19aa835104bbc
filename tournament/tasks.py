"""Celery tasks of the tournament app (Celery's autodiscovery looks here)."""

from __future__ import annotations

from celery import shared_task

from . import privacy


@shared_task(name="tournament.anonymize_expired")
def anonymize_expired() -> int:
    """The retention sweep (beat, and the event laptop's scheduler): players of tournaments
    past their retention period are anonymized; idempotent."""
    return privacy.anonymize_expired()
