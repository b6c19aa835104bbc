"""Celery tasks: thin, idempotent wrappers over the referee services; they take ids."""

from __future__ import annotations

from celery import shared_task

from referee import services


@shared_task(name="referee.fire_deadlines", acks_late=True)
def fire_deadlines(game_id: int) -> int:
    """Record whatever of the auction stop / time limit is due for one game (maybe nothing)."""
    return len(services.enforce_deadlines(game_id=game_id))


@shared_task(name="referee.sweep_deadlines")
def sweep_deadlines() -> int:
    """Beat runs this every few seconds: a deadline whose timer was lost is caught here."""
    recorded = 0
    for game_id in services.due_games():
        recorded += len(services.enforce_deadlines(game_id=game_id))
    return recorded
