"""``python -m laptop backup``: one copy of the laptop's database now (server running or not)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from laptop import backup


class Command(BaseCommand):
    help = "Copy the laptop's SQLite database into the backup folder (online backup API)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--backup-dir", type=Path, default=None)
        parser.add_argument("--keep", type=int, default=None)

    def handle(self, *args, **options) -> None:
        if not hasattr(settings, "LAPTOP_BACKUP_DIR"):
            raise CommandError("run it as `python -m laptop backup`")
        folder = (options["backup_dir"] or settings.LAPTOP_BACKUP_DIR).resolve()
        try:
            backup.prepare_folder(folder)  # made only where its parent (a stick's mount) exists
            path = backup.backup_now(
                database=settings.DATABASE_FILE, folder=folder,
                keep=options["keep"] or settings.LAPTOP_BACKUP_KEEP, reason="manual")
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(str(path))
