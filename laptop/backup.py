"""Copies of the laptop's SQLite database made with SQLite's online backup API.

A copy is consistent even while bankers post (the API copies a snapshot of the pages), is
written under a temporary name and renamed only when complete and checked, so a USB stick
pulled mid-copy never leaves a half file that looks like a backup. The newest ``keep`` are
kept. Restoring writes the copy back through the same API (WAL files included) after saving
the current database as one more copy, so a restore can itself be undone.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from pathlib import Path

PREFIX = "championship-"
SUFFIX = ".sqlite3"
PRE_RESTORE = "before-restore"


class BackupError(Exception):
    """A backup cannot be made or a file is not a usable backup (one line for the command)."""


def _connect(path: Path, *, readonly: bool) -> sqlite3.Connection:
    if readonly:
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=20)
    return sqlite3.connect(path, timeout=20)


def backups(folder: Path) -> list[Path]:
    """The copies in ``folder``, oldest first (names sort by time)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(f"{PREFIX}*{SUFFIX}") if p.is_file())


def check(path: Path) -> None:
    """Refuse anything that is not an intact database of this project."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        with _connect(path, readonly=True) as conn:
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        conn.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path}: not an SQLite database ({error})") from None
    if verdict != "ok":
        raise BackupError(f"{path}: damaged ({verdict})")
    if "django_migrations" not in tables or "referee_gameevent" not in tables:
        raise BackupError(f"{path}: not a database of this championship software")


def copy_database(source: Path, target: Path) -> None:
    """Online backup of ``source`` into the new file ``target`` (complete and fsynced)."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    src = _connect(source, readonly=True)
    dst = _connect(partial, readonly=False)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        dst.close()
        src.close()
    os.chmod(partial, 0o600)  # it holds password hashes and sessions
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    check(partial)
    os.replace(partial, target)
    _fsync_dir(target.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def backup_now(*, database: Path, folder: Path, keep: int, reason: str = "periodic") -> Path:
    """Copy the database into ``folder`` now; keep the newest ``keep`` copies."""
    if not database.is_file():
        raise BackupError(f"{database}: no database to back up")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise BackupError(f"{folder}: cannot create the backup folder ({error})") from None
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = folder / f"{PREFIX}{stamp}-{reason}{SUFFIX}"
    try:
        copy_database(database, target)
    except (OSError, sqlite3.Error) as error:
        raise BackupError(f"{target}: backup failed ({error})") from None
    prune(folder, keep=keep)
    return target


def prune(folder: Path, *, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` copies (copies taken before a restore are kept)."""
    rotating = [p for p in backups(folder) if PRE_RESTORE not in p.name]
    gone = rotating[: max(0, len(rotating) - max(keep, 1))]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def restore(*, backup: Path, database: Path, folder: Path) -> Path | None:
    """Put ``backup`` back as the database (the server must be stopped). Returns the copy of
    the database as it was before, or None when there was none."""
    check(backup)
    before = None
    if database.is_file():
        before = backup_now(database=database, folder=folder, keep=10**6, reason=PRE_RESTORE)
    src = _connect(backup, readonly=True)
    dst = _connect(database, readonly=False)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL")
        dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        dst.close()
        src.close()
    check(database)
    return before
