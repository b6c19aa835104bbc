"""Celery tasks of the tournament app (Celery's autodiscovery looks here)."""

from __future__ import annotations

from celery import shared_task

from tournament import privacy
from tournament.signup import services as signups
from tournament.signup.outbox import send_signup_mail

__all__ = ["anonymize_expired", "send_signup_mail", "signup_sweep"]


@shared_task(name="tournament.anonymize_expired")
def anonymize_expired() -> int:
    """The retention sweep (beat, and the event laptop's scheduler): players of tournaments
    past their retention period are anonymized; idempotent."""
    return privacy.anonymize_expired()


@shared_task(name="tournament.signup_sweep")
def signup_sweep() -> dict[str, int]:
    """Sign-ups (beat, and the event laptop's scheduler): unconfirmed ones older than 48 hours
    are deleted, the reminders of tomorrow's tournaments queued, unsent mails queued again."""
    return signups.sweep()
