"""Celery task of printing: a print job's PDF, written once (a done job is not redone)."""

from __future__ import annotations

from celery import shared_task

from printing import jobs


@shared_task(name="scoring.print_document", acks_late=True)
def print_document(job_id: str, tournament_id: int, round_number: int | None, document: str,
                   lang: str = "de", base_url: str | None = None) -> str | None:
    """Write a print job's PDF to MEDIA_ROOT/print/ with progress in the cache (a done job is
    not redone); see ``printing.jobs``."""
    return jobs.run(job_id, tournament_id=tournament_id, round_number=round_number,
                    document=document, lang=lang, base_url=base_url)
