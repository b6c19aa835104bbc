"""Deadlines, standings and backups without a broker: one thread in the ``serve`` process.

It runs the very tasks Celery beat runs in production (looked up by name in the Celery app, so
there is one code path): the deadline sweep every ``DEADLINE_SWEEP_SECONDS`` (1 s on the
laptop: an auction stop is recorded within about a second even when no request arrives; the
same idempotent ``enforce_deadlines`` as the Celery timers, reading the deadline from the
database) and the standings sweep. It also copies the database: when a result was confirmed
or a round closed (so a confirmed result is never only on the laptop's disk), every few
minutes when anything changed, and once more on shutdown. It looks at the backup folder every
few seconds (``LAPTOP_BACKUP_CHECK_SECONDS``, 3), as ``serve`` looks at the addresses, so a
pulled stick shows on the staff pages before the next result; while copies fail (here or in a
web process) it tries again every ``LAPTOP_BACKUP_RETRY_SECONDS`` (30), and at once when the
folder is back.

Only one ``serve`` runs per data folder (``laptop.lock``), so there is only one scheduler,
whatever the number of web processes.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection

from laptop import copies, status

logger = logging.getLogger("laptop.scheduler")


@dataclass
class Job:
    name: str
    every: float
    run: object
    due: float = 0.0
    runs: int = 0
    failures: int = 0


@dataclass
class BackupPolicy:
    database: Path
    folder: Path
    keep: int
    minutes: float
    data_dir: Path | None = None  # where the shared status lives (default: the database's)
    device: int | None = None  # the folder's device at the start
    home_device: int | None = None
    check_seconds: float = 3.0
    retry_seconds: float = 30.0
    last: Path | None = None
    made: list[Path] = field(default_factory=list)

    @property
    def target(self) -> copies.Target:
        return copies.Target(database=self.database, folder=self.folder, keep=self.keep,
                             data_dir=self.data_dir or self.database.parent, device=self.device,
                             home_device=self.home_device)


def beat_task(name: str):
    """The task Celery beat would send, called in-process (tasks are eager here)."""
    from config.celery import app

    app.loader.import_default_modules()  # the apps' tasks modules, as a worker does
    task = app.tasks[name]
    return lambda: task.apply().get()


def milestones() -> tuple:
    """Changes when a round is closed (or re-opened)."""
    from django.db.models import Count, Max

    from tournament.models import Round

    rounds = Round.objects.exclude(closed_at=None).aggregate(n=Count("id"), last=Max("closed_at"))
    return rounds["n"], rounds["last"]


class Scheduler(threading.Thread):
    def __init__(self, *, backups: BackupPolicy | None, deadline_seconds: float,
                 standings_seconds: float, tick: float = 0.25) -> None:
        super().__init__(name="laptop-scheduler", daemon=True)
        self.jobs = [
            Job("deadlines", deadline_seconds, beat_task("referee.sweep_deadlines")),
            Job("standings", standings_seconds, beat_task("scoring.refresh_running_standings")),
            # The same beat entry as in production (settings.CELERY_BEAT_SCHEDULE).
            Job("retention", settings.CELERY_BEAT_SCHEDULE["anonymize-expired"]["schedule"],
                beat_task("tournament.anonymize_expired")),
            Job("signups", settings.CELERY_BEAT_SCHEDULE["signup-sweep"]["schedule"],
                beat_task("tournament.signup_sweep")),
        ]
        self.backups = backups
        self.tick = tick
        self.stopping = threading.Event()
        self.recorded = 0
        self._marks: tuple | None = None
        self._version_conn: sqlite3.Connection | None = None
        self._changed_since_backup = False
        self._next_periodic = 0.0
        self._next_check = 0.0
        self._next_retry = 0.0
        self._folder_gone = False

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        if self.backups:
            self._marks = self._safe(milestones)
            self._next_periodic = time.monotonic() + self.backups.minutes * 60
        while not self.stopping.is_set():
            started = time.monotonic()
            for job in self.jobs:
                if started >= job.due:
                    job.due = started + job.every
                    self._run(job)
            if self.backups:
                try:
                    self._backup_if_needed(started)
                except Exception:  # noqa: BLE001 - deadlines must go on without backups
                    logger.exception("BACKUP FAILED")
            close_old_connections()
            self.stopping.wait(self.tick)
        connection.close()

    def stop(self, *, final_backup: bool = True) -> Path | None:
        self.stopping.set()
        if self.is_alive():
            self.join(timeout=30)
        if final_backup and self.backups:
            return self.backup("shutdown")
        return None

    def _run(self, job: Job) -> None:
        try:
            result = job.run()
            job.runs += 1
            if job.name == "deadlines" and result:
                self.recorded += result
                logger.info("deadlines: %s recorded", result)
        except Exception:  # noqa: BLE001 - the next run tries again; the server goes on
            job.failures += 1
            logger.exception("scheduler job %s failed", job.name)
            connection.close()

    @staticmethod
    def _safe(function):
        try:
            return function()
        except Exception:  # noqa: BLE001
            logger.exception("scheduler: %s failed", function.__name__)
            connection.close()
            return None

    # ------------------------------------------------------------------ backups
    def _database_changed(self) -> bool:
        """SQLite's data_version changes whenever another connection committed."""
        policy = self.backups
        if self._version_conn is None:
            self._version_conn = sqlite3.connect(policy.database, timeout=20,
                                                 check_same_thread=False)
        version = self._version_conn.execute("PRAGMA data_version").fetchone()[0]
        changed = version != getattr(self, "_data_version", None)
        self._data_version = version
        return changed

    def _folder_ok(self, now: float) -> bool:
        """Look at the backup folder every ``check_seconds``: gone or on another device is a
        failure at once (shown everywhere); back again, a copy is made at once."""
        policy = self.backups
        if now < self._next_check:
            return not self._folder_gone
        self._next_check = now + policy.check_seconds
        target = policy.target
        problem = target.problem()
        if problem:
            current = status.read(target.data_dir)
            if current.ok or current.error != problem:
                copies.failure(target, problem)
            self._folder_gone = True
            return False
        if self._folder_gone:
            self._folder_gone = False
            self._next_retry = now + policy.retry_seconds
            self.backup("retry")
        return True

    def _backup_if_needed(self, now: float) -> None:
        if not self._folder_ok(now):
            return
        if self._safe(self._database_changed):
            self._changed_since_backup = True
        if now >= self._next_retry and not status.read(self.backups.target.data_dir).ok:
            self._next_retry = now + self.backups.retry_seconds
            self.backup("retry")
            return
        marks = self._safe(milestones)
        if marks is not None and marks != self._marks:
            self._marks = marks
            self.backup("round")
        elif now >= self._next_periodic:
            self._next_periodic = now + self.backups.minutes * 60
            if self._changed_since_backup:
                self.backup("periodic")

    def backup(self, reason: str) -> Path | None:
        policy = self.backups
        path, _error = copies.make_copy(policy.target, reason=reason)
        if path is None:
            return None
        policy.last = path
        policy.made.append(path)
        self._changed_since_backup = False
        logger.info("backup: %s", path)
        return path
