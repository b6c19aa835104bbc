"""``python -m laptop restore [FILE] [--older]``: put a copy back, for a dead laptop or disk.

After a crash on the same laptop, run ``make serve`` again instead: the database (WAL) holds
every acknowledged event, and any copy is older. Without FILE the newest copy by its content
(the last event's and the last result's time inside it, not the file's name or date) is taken
from every backup folder this data folder has used (the stick and ``var/backups``) and those
named with ``--backup-dir``. A copy that holds less than the database it replaces is refused,
with what would be lost, unless ``--older``. Refused while ``serve`` runs on the same data
folder; the database as it was is kept as a ``before-restore`` copy in ``var/backups``, and
the cache is emptied (nothing cached from the replaced database is served).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError

from laptop import backup, server


def known_folders(*, given: list[Path]) -> list[Path]:
    """The folders to look in: given ones, the ones ``serve`` used, the configured and the
    default one (each once)."""
    data_dir = settings.DATA_DIR
    remembered = data_dir / "backup-folders"
    folders = [*given]
    if remembered.is_file():
        folders += [Path(line) for line in remembered.read_text().splitlines() if line.strip()]
    folders += [settings.LAPTOP_BACKUP_DIR, data_dir / "backups"]
    unique: list[Path] = []
    for folder in folders:
        folder = folder.resolve()
        if folder not in unique:
            unique.append(folder)
    return unique


def newest(folders: list[Path]) -> tuple[backup.Content | None, list[str]]:
    """The copy holding the newest event or result, and the copies that could not be read."""
    best: backup.Content | None = None
    unreadable = []
    for folder in folders:
        for path in backup.backups(folder):
            if backup.PRE_RESTORE in path.name:
                continue
            try:
                found = backup.content(path)
            except backup.BackupError as error:
                unreadable.append(str(error))
                continue
            if best is None or (found.mark, found.events) > (best.mark, best.events):
                best = found
    return best, unreadable


class Command(BaseCommand):
    help = ("Restore the laptop's database from a backup copy (the server must be stopped; "
            "after a crash on the same laptop run `make serve` again instead).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", nargs="?", type=Path, default=None,
                            help="a copy; default: the newest by content in every backup folder")
        parser.add_argument("--backup-dir", type=Path, action="append", default=[],
                            help="a folder with copies to look in too (repeatable)")
        parser.add_argument("--older", action="store_true",
                            help="put the copy back even when the database holds more")

    def handle(self, *args, **options) -> None:
        if not hasattr(settings, "LAPTOP_BACKUP_DIR"):
            raise CommandError("run it as `python -m laptop restore` (make restore FILE=…)")
        out = self.stdout
        database = settings.DATABASE_FILE
        if server.is_running(settings.DATA_DIR):
            raise CommandError("the server is running on this data folder: stop it first "
                               "(Ctrl-C) / erst den Server beenden")
        if options["file"] is not None:
            try:
                chosen = backup.content(options["file"].resolve())
            except backup.BackupError as error:
                raise CommandError(str(error)) from None
        else:
            folders = known_folders(given=options["backup_dir"])
            chosen, unreadable = newest(folders)
            for line in unreadable:
                out.write(f"skipped / übersprungen: {line}")
            if chosen is None:
                raise CommandError("no backup in / keine Sicherung in: "
                                   + ", ".join(str(f) for f in folders))
            out.write(f"looked in / gesucht in: {', '.join(str(f) for f in folders)}")
        out.write(f"newest copy / neueste Sicherung: {chosen.path} (last event / letztes "
                  f"Ereignis {chosen.last_event or '-'}, last result / letztes Ergebnis "
                  f"{chosen.last_result or '-'})")
        lost = self._loss(database, chosen.path)
        if lost:
            words = f"would be lost / ginge verloren: {lost.words()}"
            if not options["older"]:
                raise CommandError(
                    f"the copy is older than the database it would replace; {words}. After a "
                    "crash on this laptop run `make serve` again (nothing is lost); to put the "
                    "older copy back anyway add --older / Die Sicherung ist älter als die "
                    "Datenbank: nach einem Absturz einfach `make serve` erneut starten.")
            out.write(f"--older: {words}")
        own = settings.DATA_DIR / "backups"
        try:
            before = backup.restore(backup=chosen.path, database=database, folder=own)
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        for cache in caches.all():
            cache.clear()
        out.write(f"restored {chosen.path} into {database}")
        if before is not None:
            out.write(f"the database as it was is kept as {before}")

    @staticmethod
    def _loss(database: Path, copy: Path) -> backup.Loss | None:
        """What the copy lacks, or None when the database is gone or unreadable (a dead disk:
        nothing there to lose)."""
        if not database.is_file():
            return None
        try:
            backup.check(database)
        except backup.BackupError:
            return None
        return backup.loss(database=database, copy=copy)
