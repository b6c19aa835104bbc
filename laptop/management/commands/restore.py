"""``python -m laptop restore [FILE]``: put a copy back (the newest when no FILE is given).

Refused while ``serve`` runs on the same data folder; the database as it was is kept as a
``before-restore`` copy first, so a restore can be undone.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from laptop import backup, server


class Command(BaseCommand):
    help = "Restore the laptop's database from a backup copy (the server must be stopped)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", nargs="?", type=Path, default=None,
                            help="a copy; default: the newest in the backup folder")
        parser.add_argument("--backup-dir", type=Path, default=None)

    def handle(self, *args, **options) -> None:
        if not hasattr(settings, "LAPTOP_BACKUP_DIR"):
            raise CommandError("run it as `python -m laptop restore` (make restore FILE=…)")
        folder = (options["backup_dir"] or settings.LAPTOP_BACKUP_DIR).resolve()
        chosen = options["file"]
        if chosen is None:
            copies = [p for p in backup.backups(folder) if backup.PRE_RESTORE not in p.name]
            if not copies:
                raise CommandError(f"no backup in {folder}")
            chosen = copies[-1]
        if server.is_running(settings.DATA_DIR):
            raise CommandError("the server is running on this data folder: stop it first "
                               "(Ctrl-C) / erst den Server beenden")
        try:
            before = backup.restore(backup=chosen.resolve(), database=settings.DATABASE_FILE,
                                    folder=folder)
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"restored {chosen} into {settings.DATABASE_FILE}")
        if before is not None:
            self.stdout.write(f"the database as it was is kept as {before}")
