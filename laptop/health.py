"""``/healthz`` on the laptop: a ``backup`` entry, not ok while copies fail or the backup
folder is gone right now (checked live: the scheduler may not have looked yet)."""

from __future__ import annotations

from django.conf import settings

from laptop import status
from laptop.copies import Target


def backup() -> str:
    problem = Target.from_settings().problem()
    if problem:
        raise RuntimeError(problem)
    current = status.read(settings.DATA_DIR)
    if not current.ok:
        raise RuntimeError(f"failing since {current.failing_since}: {current.error}")
    return f"last copy {current.last_copy_at or '-'}"
