"""Copies of the laptop's SQLite database made with SQLite's online backup API.

A copy is consistent even while bankers post (the API copies a snapshot of the pages), is
written under a temporary name and renamed only when complete and checked, so a USB stick
pulled mid-copy never leaves a half file that looks like a backup. The newest ``keep`` are
kept. Restoring writes the copy back through the same API (WAL files included) after saving
the current database as one more copy, so a restore can itself be undone.

A backup never creates its folder: the folder is made once when ``serve`` starts and must then
stay on the same device (a pulled USB stick under an automounter leaves no folder, or an empty
mount point on the laptop's own disk; copying there would look like a backup and be none).

A copy holds no sessions (the session table is emptied in the copy and the file rewritten, so
no deleted page keeps a key): a stick is easily lost, and FAT/exFAT sticks cannot keep a file
private (no mode 600 there). Password reset links hold no state in the database (Django signs
them with the secret key, which stays in the data folder and is never copied). Not encrypted:
the key would have to stay on the laptop, and a copy is needed exactly when the laptop is dead.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

PREFIX = "championship-"
SUFFIX = ".sqlite3"
PRE_RESTORE = "before-restore"
#: Tables emptied in every copy: who is logged in is nobody's business on a stick.
PRIVATE_TABLES = ("django_session",)


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
    # Created private before a byte is written (where the file system knows modes at all).
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    src = _connect(source, readonly=True)
    dst = _connect(partial, readonly=False)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        strip_private(dst)
    finally:
        dst.close()
        src.close()
    with contextlib.suppress(OSError):  # FAT/exFAT: no modes (the copy holds no sessions)
        os.chmod(partial, 0o600)
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    check(partial)
    os.replace(partial, target)
    _fsync_dir(target.parent)


def strip_private(conn: sqlite3.Connection) -> None:
    """Empty the session table in a copy and rewrite the file (VACUUM), so that no free page
    still holds a session key."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for table in PRIVATE_TABLES:
        if table in tables:
            conn.execute(f'DELETE FROM "{table}"')  # noqa: S608 - our constant
    conn.commit()
    conn.execute("VACUUM")


def folder_problem(folder: Path, *, device: int | None, home_device: int | None = None
                   ) -> str | None:
    """Why ``folder`` cannot take a copy now (None: it can).

    ``device``: the folder's device when ``serve`` started. The folder must still exist (a
    backup never creates it) and be on that device; when the stick was re-plugged and got
    another device number, any device but the laptop's own disk (``home_device``) is accepted.
    """
    try:
        found = os.stat(folder)
    except FileNotFoundError:
        return f"{folder}: the backup folder is gone (USB stick pulled?)"
    except OSError as error:
        return f"{folder}: the backup folder cannot be read ({error.strerror})"
    if not os.path.isdir(folder):
        return f"{folder}: not a folder"
    moved = device is not None and found.st_dev != device
    if moved and (home_device is None or device == home_device or found.st_dev == home_device):
        return (f"{folder}: the backup folder is on another device than at the start "
                    "(USB stick not mounted?)")
    return None


def prepare_folder(folder: Path) -> int:
    """Make the backup folder at ``serve`` start (its parent must exist: for a stick, the
    mount point) and return its device."""
    if not folder.is_dir():
        if not folder.parent.is_dir():
            raise BackupError(f"{folder.parent}: does not exist (is the USB stick mounted?); "
                              "the backup folder is not created there")
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError as error:
            raise BackupError(f"{folder}: cannot create the backup folder ({error})") from None
    return folder.stat().st_dev


def keeps_files_private(folder: Path) -> bool:
    """False on FAT/exFAT and the like: a file made there with mode 600 is readable by all."""
    probe = folder / f".mode-probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.chmod(probe, 0o600)
        return probe.stat().st_mode & 0o077 == 0
    except OSError:
        return True  # cannot tell; a failing folder is reported elsewhere
    finally:
        probe.unlink(missing_ok=True)


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


def backup_now(*, database: Path, folder: Path, keep: int, reason: str = "periodic",
               device: int | None = None, home_device: int | None = None) -> Path:
    """Copy the database into ``folder`` now; keep the newest ``keep`` copies. The folder
    must exist (and be on ``device``, see :func:`folder_problem`): it is never created here."""
    if not database.is_file():
        raise BackupError(f"{database}: no database to back up")
    problem = folder_problem(folder, device=device, home_device=home_device)
    if problem:
        raise BackupError(problem)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = folder / f"{PREFIX}{stamp}-{reason}{SUFFIX}"
    try:
        copy_database(database, target)
    except (OSError, sqlite3.Error, BackupError) as error:
        with contextlib.suppress(OSError):  # no half file left behind (a read-only stick)
            target.with_name(f".{target.name}.partial").unlink(missing_ok=True)
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
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # the laptop's own var/backups
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


# --------------------------------------------------------------------------- what a copy holds


@dataclass(frozen=True)
class Content:
    """What a database holds, read from inside it (a file's name or time says nothing: a copy
    can be renamed, copied around, or made on a laptop with a wrong clock)."""

    path: Path
    last_event: str  # SQLite's text of the newest event's server time ("" when none)
    last_result: str  # the newest result counted or confirmed
    events: int
    results: int
    tournaments: int

    @property
    def mark(self) -> str:
        """The newest moment recorded in the database (Django stores one sortable format)."""
        return max(self.last_event, self.last_result)


def content(path: Path) -> Content:
    check(path)
    conn = _connect(path, readonly=True)
    try:
        last_event, events = conn.execute(
            "SELECT coalesce(max(recorded_at), ''), count(*) FROM referee_gameevent").fetchone()
        last_result, results = conn.execute(
            "SELECT coalesce(max(max(counted_at, coalesce(confirmed_at, ''))), ''), "
            "sum(status = 'confirmed') FROM referee_gameresult").fetchone()
        tournaments = conn.execute("SELECT count(*) FROM tournament_tournament").fetchone()[0]
    finally:
        conn.close()
    return Content(path, last_event, last_result, events, results or 0, tournaments)


@dataclass(frozen=True)
class Loss:
    """What putting a copy back would take away from the database it replaces."""

    events: int
    results: int
    tournaments: list[str]  # slugs missing from the copy
    crownings: list[str]  # slugs whose winner the copy does not know

    def __bool__(self) -> bool:
        return bool(self.events or self.results or self.tournaments or self.crownings)

    def words(self) -> str:
        parts = [f"{self.events} events / Ereignisse", f"{self.results} confirmed results / "
                 "bestätigte Ergebnisse"]
        if self.tournaments:
            parts.append("tournaments / Turniere: " + ", ".join(self.tournaments))
        if self.crownings:
            parts.append("winners / Sieger von: " + ", ".join(self.crownings))
        return "; ".join(parts)


def loss(*, database: Path, copy: Path) -> Loss:
    """Events, confirmed results, tournaments and crownings in ``database`` not in ``copy``."""
    conn = _connect(database, readonly=True)
    try:
        conn.execute("ATTACH DATABASE ? AS c", (f"file:{copy}?mode=ro",))
        events = conn.execute(
            "SELECT count(*) FROM main.referee_gameevent e WHERE NOT EXISTS (SELECT 1 FROM "
            "c.referee_gameevent x WHERE x.game_id = e.game_id AND x.seq = e.seq "
            "AND x.recorded_at = e.recorded_at)").fetchone()[0]
        results = conn.execute(
            "SELECT count(*) FROM main.referee_gameresult r WHERE r.status = 'confirmed' AND "
            "NOT EXISTS (SELECT 1 FROM c.referee_gameresult x WHERE x.game_id = r.game_id "
            "AND x.status = 'confirmed')").fetchone()[0]
        tournaments = [row[0] for row in conn.execute(
            "SELECT slug FROM main.tournament_tournament WHERE slug NOT IN "
            "(SELECT slug FROM c.tournament_tournament) ORDER BY slug")]
        crownings = [row[0] for row in conn.execute(
            "SELECT t.slug FROM main.tournament_tournament t WHERE t.winner_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM c.tournament_tournament x WHERE x.slug = t.slug "
            "AND x.winner_id IS NOT NULL) ORDER BY t.slug")]
    finally:
        conn.close()
    return Loss(events, results, tournaments, [s for s in crownings if s not in tournaments])
