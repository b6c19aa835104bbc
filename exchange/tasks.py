"""Celery task of the exchange: a large tournament import, run once (see ``jobs``)."""

from __future__ import annotations

from celery import shared_task
from django.contrib.auth.models import User
from django.db import transaction

from config.queue import enqueue
from exchange import jobs


@shared_task(name="scoring.import_tournament", acks_late=True)
def import_tournament(job_id: str) -> str | None:
    """Import a kept upload; idempotent (a finished job is not run again)."""
    return jobs.run(job_id)


def start_import(*, data: bytes, slug: str | None, user: User) -> str:
    """Keep the document, record the job and queue the task once the request commits (the
    embedded default runs it in-process then); the job's id."""
    job_id = jobs.create(data=data, slug=slug, user=user)
    transaction.on_commit(lambda: enqueue(import_tournament, job_id))
    return job_id
