"""Where a background job (a print run, a big import) keeps its progress and its file: a
progress record in the shared cache for a day, the file in a folder under MEDIA_ROOT."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache

TTL = 24 * 3600  # seconds a job's progress record is kept
JOB_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class JobStore:
    kind: str  # "print", "import": the cache key's prefix and the folder's name
    suffix: str  # the file's, e.g. ".pdf"

    def key(self, job_id: str) -> str:
        return f"{self.kind}-job:{job_id}"

    def folder(self) -> Path:
        path = Path(settings.MEDIA_ROOT) / self.kind
        path.mkdir(mode=0o700, parents=True, exist_ok=True)  # private: only the server's user
        return path

    def path_for(self, job_id: str) -> Path:
        if not JOB_ID.match(job_id):
            raise ValueError(f"not a {self.kind} job id: {job_id!r}")
        return self.folder() / f"{job_id}{self.suffix}"

    def read(self, job_id: str) -> dict[str, Any] | None:
        if not JOB_ID.match(job_id or ""):
            return None
        return cache.get(self.key(job_id))

    def update(self, job_id: str, **changes: Any) -> dict[str, Any]:
        state = cache.get(self.key(job_id)) or {"id": job_id}
        state.update(changes)
        cache.set(self.key(job_id), state, TTL)
        return state

    def progress(self, job_id: str, **also: Any) -> Callable[[int, int], None]:
        """A progress callback for a job's worker: writes ``done``/``total`` (and ``also``) at
        most a few times a second, and always the last step."""
        last = 0.0

        def report(done: int, total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= 0.25 or done == total:
                last = now
                self.update(job_id, **also, done=done, total=total)

        return report
