"""Import jobs: a large tournament document is rebuilt by a Celery task, not in the web request
(a 13 MB export took 23 s; 50 MB would pass the worker timeout). Small documents still import
at once (``INLINE_BYTES``).

The upload is written to ``MEDIA_ROOT/import/<job>.json`` (web and worker share the folder, as
for print jobs), the job's state lives in the cache — ``{"state", "done", "total", "slug",
"message_de", "message_en", …}`` — and the organizer's page polls it. The task takes the job's
id, is idempotent (a finished job is not run again) and deletes the file when it is done.
"""

from __future__ import annotations

import logging
import os
import uuid

from django.contrib.auth.models import User
from django.utils import timezone

from config.errors import DomainError
from config.jobs import JobStore
from exchange.importer import import_document
from tournament import staff

log = logging.getLogger(__name__)

INLINE_BYTES = 1024 * 1024  # documents up to this size import in the request
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


_store = JobStore(kind="import", suffix=".json")
_key, folder, path_for = _store.key, _store.folder, _store.path_for
read, update = _store.read, _store.update


def create(*, data: bytes, slug: str | None, user: User) -> str:
    """Keep the document and record the job (``tasks.start_import`` queues it); its id."""
    job_id = uuid.uuid4().hex
    path = path_for(job_id)
    partial = path.with_name(f".{path.name}.part")
    partial.write_bytes(data)
    os.replace(partial, path)
    update(job_id, state=QUEUED, done=0, total=0, slug=slug or "", user=user.pk,
           bytes=len(data), created=timezone.now().isoformat(), result_slug="",
           message_de="", message_en="", warnings=[])
    return job_id


def run(job_id: str) -> str | None:
    """Import the job's document; the new tournament's slug, or None when it was refused (the
    reason is in the job's state, in both languages). A finished job is not run again."""
    state = read(job_id)
    if state is None or state.get("state") in (DONE, FAILED):
        return (state or {}).get("result_slug") or None
    path = path_for(job_id)
    try:
        data = path.read_bytes()
        user = User.objects.get(pk=state["user"])
    except (FileNotFoundError, User.DoesNotExist):
        update(job_id, state=FAILED, message_en="The uploaded file is gone.",
               message_de="Die hochgeladene Datei ist nicht mehr da.")
        return None
    update(job_id, state=RUNNING, done=0)
    progress = _store.progress(job_id)

    try:
        outcome = import_document(data, slug=state.get("slug") or None, progress=progress)
        staff.ensure_role(tournament=outcome.tournament, user=user, role=staff.Role.ORGANIZER)
    except DomainError as refusal:
        update(job_id, state=FAILED, message_de=refusal.message_in("de"),
               message_en=refusal.message_in("en"))
        path.unlink(missing_ok=True)
        return None
    except Exception as exc:  # reported on the job's page; the worker keeps going
        log.exception("import job %s failed", job_id)
        update(job_id, state=FAILED, message_de=str(exc), message_en=str(exc))
        return None
    tournament = outcome.tournament
    update(job_id, state=DONE, result_slug=tournament.slug, name=tournament.name,
           players=tournament.players.count(), rounds=tournament.rounds.count(),
           warnings=[str(warning) for warning in outcome.warnings])
    path.unlink(missing_ok=True)
    return tournament.slug
