"""Print jobs for large batches: a PDF written to ``MEDIA_ROOT/print/<job>.pdf`` by a Celery task,
its progress kept in the cache (no model): ``{"state", "done", "total", …}``.

The organizer's page creates a job (:func:`create`), queues ``scoring.print_document`` with the
job's id and the ids it needs, and polls :func:`read`. Running a job twice is harmless: a job
that is done is not redone, and the file appears atomically (written beside, then renamed).
With the embedded default (no Redis) the task runs in-process when queued.

The files hold private data (table cards carry the bankers' links): they are served only
through the organizers' download view, never from a public media URL. Web and worker processes
must share ``MEDIA_ROOT`` (one machine, or a shared volume).
"""

from __future__ import annotations

import logging
import os
import re
import time
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from tournament.models import Round, Tournament

from . import render

log = logging.getLogger(__name__)

TTL = 24 * 3600  # seconds a job's progress record is kept
JOB_ID = re.compile(r"^[0-9a-f]{32}$")
RECENT = 8  # jobs listed per round on the print page
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


def _key(job_id: str) -> str:
    return f"print-job:{job_id}"


def _recent_key(tournament_id: int, round_number: int | None) -> str:
    return f"print-jobs:{tournament_id}:{round_number or 0}"


def folder() -> Path:
    path = Path(settings.MEDIA_ROOT) / "print"
    path.mkdir(parents=True, exist_ok=True)
    return path


def path_for(job_id: str) -> Path:
    if not JOB_ID.match(job_id):
        raise ValueError(f"not a print job id: {job_id!r}")
    return folder() / f"{job_id}.pdf"


def prune(*, older_than: float = TTL) -> int:
    """Delete job files older than their progress records (a day); returns how many."""
    cutoff = time.time() - older_than
    removed = 0
    for path in folder().glob("*.pdf"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except FileNotFoundError:  # another process pruned it first
            continue
    return removed


def create(*, tournament: Tournament, round_: Round | None, document: str, lang: str,
           base_url: str, filename: str, total: int) -> str:
    """A new queued job (its id); listed among the round's recent jobs. Old files go."""
    prune()
    job_id = uuid.uuid4().hex
    state = {
        "id": job_id,
        "state": QUEUED,
        "done": 0,
        "total": total,
        "tournament": tournament.slug,
        "round": round_.number if round_ else None,
        "document": document,
        "lang": lang,
        "base_url": base_url,
        "filename": filename,
        "created": timezone.now().isoformat(),
        "error": "",
    }
    cache.set(_key(job_id), state, TTL)
    recent_key = _recent_key(tournament.pk, round_.number if round_ else None)
    recent = [job_id, *cache.get(recent_key, [])][:RECENT]
    cache.set(recent_key, recent, TTL)
    return job_id


def read(job_id: str) -> dict[str, Any] | None:
    if not JOB_ID.match(job_id or ""):
        return None
    return cache.get(_key(job_id))


def recent(tournament: Tournament, round_: Round | None) -> list[dict[str, Any]]:
    ids = cache.get(_recent_key(tournament.pk, round_.number if round_ else None), [])
    return [state for state in (read(job_id) for job_id in ids) if state]


def update(job_id: str, **changes: Any) -> dict[str, Any]:
    state = cache.get(_key(job_id)) or {"id": job_id}
    state.update(changes)
    cache.set(_key(job_id), state, TTL)
    return state


def fail(job_id: str, error: str) -> None:
    update(job_id, state=FAILED, error=error)


def run(job_id: str, *, tournament_id: int, round_number: int | None, document: str,
        lang: str = "de", base_url: str | None = None) -> str | None:
    """Write the job's PDF; returns its file name, or None when it failed (the reason is in
    the job's state). Idempotent: a job already done returns its file at once."""
    path = path_for(job_id)
    state = read(job_id)
    if state and state.get("state") == DONE and path.exists():
        return path.name
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        round_ = (Round.objects.get(tournament=tournament, number=round_number)
                  if round_number is not None else None)
    except (Tournament.DoesNotExist, Round.DoesNotExist):
        update(job_id, state=FAILED, error="The tournament or round no longer exists.")
        return None
    update(job_id, state=RUNNING, done=0, error="")
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= 0.25 or done == total:  # a few cache writes a second at most
            last = now
            update(job_id, state=RUNNING, done=done, total=total)

    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(partial, "wb") as out:
            result = render(document, out, tournament=tournament, round_=round_, lang=lang,
                            base_url=base_url, progress=progress)
        os.replace(partial, path)
    except Exception as exc:  # reported on the job's page; the worker keeps going
        log.exception("print job %s failed", job_id)
        update(job_id, state=FAILED, error=str(exc) or exc.__class__.__name__)
        return None
    finally:
        if partial.exists():
            partial.unlink()
    update(job_id, state=DONE, done=result.pages, total=result.pages, bytes=result.bytes)
    return path.name
