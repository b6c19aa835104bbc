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
import time
import uuid
from typing import Any

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext_noop

from config.jobs import TTL, JobStore
from printing.documents import render
from tournament import access
from tournament.access import Action
from tournament.models import Round, Tournament

log = logging.getLogger(__name__)

_store = JobStore(kind="print", suffix=".pdf")
_key, folder, path_for = _store.key, _store.folder, _store.path_for
read, update = _store.read, _store.update
RECENT = 8  # jobs listed per round on the print page
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


def _recent_key(tournament_id: int, round_number: int | None) -> str:
    return f"print-jobs:{tournament_id}:{round_number or 0}"


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


def forget_tournament(tournament_id: int) -> int:
    """Delete the tournament's print files (an erasure: a PDF made before it still names the
    player); their jobs say so. Files whose job is no longer known go too. Returns how many."""
    removed = 0
    for path in folder().glob("*.pdf"):
        state = read(path.stem)
        if state is not None and state.get("tournament_id") != tournament_id:
            continue
        path.unlink(missing_ok=True)
        removed += 1
        if state is not None:
            update(path.stem, state=FAILED, error=ERASED)
    return removed


#: A job whose file an erasure deleted (stored in English, shown in the reader's language).
ERASED = gettext_noop(
    "Deleted: a player's data was anonymized after this file was made. Print it again."
)


def create(*, tournament: Tournament, round_: Round | None, document: str, lang: str,
           base_url: str, filename: str, total: int, by: int | None = None) -> str:
    """A new queued job (its id); listed among the round's recent jobs. Old files go."""
    prune()
    job_id = uuid.uuid4().hex
    state = {
        "id": job_id,
        "state": QUEUED,
        "done": 0,
        "total": total,
        "tournament": tournament.slug,
        "tournament_id": tournament.pk,
        "by": by,
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


def recent(tournament: Tournament, round_: Round | None) -> list[dict[str, Any]]:
    ids = cache.get(_recent_key(tournament.pk, round_.number if round_ else None), [])
    return [state for state in (read(job_id) for job_id in ids) if state]


def fail(job_id: str, error: str) -> None:
    update(job_id, state=FAILED, error=error)


def _out_of_scope(state: dict | None, tournament: Tournament, document: str) -> str:
    """The job checks the tournament scope itself, when it runs: its record must name this
    tournament and document, and whoever queued it must still be allowed to print it there."""
    from django.contrib.auth.models import User

    from printing.documents import DOCUMENTS

    if not state or state.get("tournament_id", tournament.pk) != tournament.pk or state.get(
        "tournament"
    ) not in (None, tournament.slug) or state.get("document", document) != document:
        return "The print job does not belong to this tournament."
    by = state.get("by")
    if by is None:  # queued by the system (e.g. a command), not by a person
        return ""
    user = User.objects.filter(pk=by).first()
    doc = DOCUMENTS.get(document)
    needed = Action.PRINT_PRIVATE if doc is not None and doc.private else Action.PRINT
    if user is None or not access.can(user, needed, tournament):
        return "Whoever queued this print job may no longer print it in this tournament."
    return ""


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
    refusal = _out_of_scope(state, tournament, document)
    if refusal:
        update(job_id, state=FAILED, error=refusal)
        return None
    update(job_id, state=RUNNING, done=0, error="")
    progress = _store.progress(job_id, state=RUNNING)

    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        # Only the server's user reads it (names, e-mails on some sheets, bankers' links).
        with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
                       "wb") as out:
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
