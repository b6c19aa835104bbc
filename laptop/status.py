"""Whether backups work, shared by every process of ``serve`` (the web workers copy after a
confirmed result, the scheduler checks the folder and retries): one small JSON file in the
data folder, replaced whole under a lock, so that a failure seen by any process shows at once
on every staff page, on the round desk and in ``/healthz``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

NAME = "backup-status.json"
#: How long "backups work again" stays on the staff pages after a failure ended.
RECOVERED_SHOWN = dt.timedelta(minutes=10)


@dataclass(frozen=True)
class Status:
    ok: bool = True
    failing_since: str | None = None  # ISO time of the first failure of this run of failures
    error: str = ""
    last_copy: str | None = None  # the newest copy's path
    last_copy_at: str | None = None
    recovered_at: str | None = None  # when the last run of failures ended

    def since(self) -> dt.datetime | None:
        return dt.datetime.fromisoformat(self.failing_since) if self.failing_since else None

    def recovered(self, now: dt.datetime) -> dt.datetime | None:
        """When backups worked again, while that is recent enough to be shown."""
        if not self.ok or not self.recovered_at:
            return None
        at = dt.datetime.fromisoformat(self.recovered_at)
        return at if now - at <= RECOVERED_SHOWN else None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def read(data_dir: Path) -> Status:
    try:
        raw = json.loads((data_dir / NAME).read_text())
    except (OSError, ValueError):
        return Status()
    fields = Status.__dataclass_fields__
    return Status(**{key: value for key, value in raw.items() if key in fields})


@contextlib.contextmanager
def _locked(data_dir: Path):
    with open(data_dir / f"{NAME}.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _write(data_dir: Path, status: Status) -> None:
    partial = data_dir / f".{NAME}.{os.getpid()}"
    partial.write_text(json.dumps(asdict(status)))
    os.replace(partial, data_dir / NAME)


def failed(data_dir: Path, error: str, *, now: dt.datetime | None = None) -> tuple[Status, bool]:
    """Record a failure; True when it is the first of a run (the terminal says so once)."""
    now = now or _now()
    with _locked(data_dir):
        old = read(data_dir)
        first = old.ok
        new = Status(ok=False, failing_since=now.isoformat() if first else old.failing_since,
                     error=error, last_copy=old.last_copy, last_copy_at=old.last_copy_at,
                     recovered_at=old.recovered_at)
        _write(data_dir, new)
    return new, first


def succeeded(data_dir: Path, copy: Path, *, now: dt.datetime | None = None
              ) -> tuple[Status, bool]:
    """Record a copy; True when it ended a run of failures ("backups work again")."""
    now = now or _now()
    with _locked(data_dir):
        old = read(data_dir)
        recovered = not old.ok
        new = Status(ok=True, last_copy=str(copy), last_copy_at=now.isoformat(),
                     recovered_at=now.isoformat() if recovered else old.recovered_at)
        _write(data_dir, new)
    return new, recovered


def reset(data_dir: Path) -> None:
    """A new ``serve``: the folder was just checked and a first copy made."""
    with _locked(data_dir):
        _write(data_dir, Status())
