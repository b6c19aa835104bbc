"""One copy of the laptop's database, with its outcome shared (``laptop.status``) and said in
the terminal: used by the request that confirms a result, by the scheduler and at the start."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from laptop import backup, status

logger = logging.getLogger("laptop.backup")


@dataclass(frozen=True)
class Target:
    database: Path
    folder: Path
    keep: int
    data_dir: Path
    device: int | None = None  # the folder's device at the start (None: not checked)
    home_device: int | None = None  # the data folder's device (the laptop's own disk)

    @classmethod
    def from_settings(cls) -> Target:
        from django.conf import settings

        return cls(database=settings.DATABASE_FILE, folder=settings.LAPTOP_BACKUP_DIR,
                   keep=settings.LAPTOP_BACKUP_KEEP, data_dir=settings.DATA_DIR,
                   device=settings.LAPTOP_BACKUP_DEVICE,
                   home_device=settings.DATA_DIR.stat().st_dev)

    def problem(self) -> str | None:
        """Why the folder cannot take a copy now (None: it can)."""
        return backup.folder_problem(self.folder, device=self.device,
                                     home_device=self.home_device)


def make_copy(target: Target, *, reason: str) -> tuple[Path | None, str]:
    """Copy now; record the outcome for every process. Returns (the copy, "") or (None, why)."""
    try:
        path = backup.backup_now(database=target.database, folder=target.folder,
                                 keep=target.keep, reason=reason, device=target.device,
                                 home_device=target.home_device)
    except backup.BackupError as error:
        failure(target, str(error))
        return None, str(error)
    _, recovered = status.succeeded(target.data_dir, path)
    if recovered:
        logger.warning("BACKUPS WORK AGAIN / Sicherungen funktionieren wieder: %s", path)
    return path, ""


def failure(target: Target, error: str) -> None:
    _, first = status.failed(target.data_dir, error)
    if first:
        logger.error("BACKUP FAILED / Sicherung fehlgeschlagen: %s", error)
    else:
        logger.warning("backup still failing: %s", error)
