"""``python manage.py import_tournament FILE.json [--slug NEW]``: rebuild a tournament from an
export (see ``exchange``). Every game record is replayed through the rules engine.

Exit 0 on success; exit 1 with the reason on stderr (nothing is saved) when the file cannot be
read or the document is refused.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from config.errors import DomainError
from exchange import services as exchange


class Command(BaseCommand):
    help = "Import a tournament from an export document; all or nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the export's JSON file ('-' for stdin)")
        parser.add_argument("--slug", help="a new short name (default: the document's)")
        parser.add_argument(
            "--lang", choices=("en", "de"), default="en", help="language of a refusal"
        )

    def handle(self, *args: Any, file: str, slug: str | None, lang: str, **options: Any) -> None:
        try:
            data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror or exc}") from None
        try:
            outcome = exchange.import_document(data, slug=slug)
        except DomainError as refusal:
            raise CommandError(f"{file}: {refusal.message_in(lang)}") from None
        tournament = outcome.tournament
        with translation.override(lang):
            for warning in outcome.warnings:
                self.stderr.write(f"Warning: {warning}")
            self.stdout.write(
                f"Imported '{tournament.slug}' ({tournament.name}): "
                f"{tournament.players.count()} players, {tournament.rounds.count()} rounds."
            )
        moved = outcome.moved
        if moved is not None:  # moving up: say exactly what kept its identity and what not
            self.stdout.write(
                f"Kept: {moved.codes_kept} personal codes (printed player cards work), "
                f"{moved.links_kept} banker links, {moved.audit_entries} audit log entries "
                "(marked imported).")
            if moved.codes_new:
                self.stdout.write(f"New personal codes: {moved.codes_new} (taken on this server "
                                  "or not in the export): print those players' cards again.")
            if moved.links_new:
                self.stdout.write(f"New banker links: {moved.links_new}: print those tables' "
                                  "cards again.")
            self.stdout.write(
                "Not moved: passwords and logins (bankers come over by name without a password; "
                "organizers: manage.py createsuperuser). Banker links verify with the secret key: "
                "the printed table cards work here only when SECRET_KEY is the laptop's "
                "(var/secret_key); else give the bankers new links.")
