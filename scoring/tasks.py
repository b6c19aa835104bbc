"""Celery tasks of scoring: thin wrappers taking ids; safe to run twice."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="scoring.recompute_standings", acks_late=True)
def recompute_standings(tournament_id: int) -> bool:
    return services.recompute_standings(tournament_id=tournament_id)


@shared_task(name="scoring.refresh_running_standings")
def refresh_running_standings() -> int:
    """Beat runs this every few seconds: a recompute task lost with a killed worker is caught
    here (a no-op when no result changed, thanks to the input signature)."""
    return services.refresh_running_standings()


@shared_task(name="scoring.print_document", acks_late=True)
def print_document(job_id: str, tournament_id: int, round_number: int | None, document: str,
                   lang: str = "de", base_url: str | None = None) -> str | None:
    """Write a print job's PDF to MEDIA_ROOT/print/ with progress in the cache (a done job is
    not redone); see ``scoring.printing.jobs``."""
    from .printing import jobs

    return jobs.run(job_id, tournament_id=tournament_id, round_number=round_number,
                    document=document, lang=lang, base_url=base_url)
