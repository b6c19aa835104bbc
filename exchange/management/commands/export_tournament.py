"""``python manage.py export_tournament SLUG [-o FILE.json]``: the whole tournament as one JSON
document (see ``exchange``); on stdout without ``-o``.

Exit 0 on success; exit 1 with one line on stderr for an unknown tournament or an unwritable
file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exchange import services as exchange
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament (settings, players, rounds, seating, game records, results)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")

    def handle(self, *args: Any, slug: str, output: str | None, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"There is no tournament '{slug}'.")
        data = exchange.export_json(tournament)
        if not output or output == "-":
            self.stdout.write(data.decode())
            return
        try:
            Path(output).write_bytes(data)
        except OSError as exc:
            raise CommandError(f"{output}: {exc.strerror or exc}") from None
        games = sum(
            1 for round_ in json.loads(data)["rounds"] for table in round_["tables"]
            if table["game"]
        )
        self.stderr.write(
            f"Exported '{slug}': {tournament.players.count()} players, "
            f"{tournament.rounds.count()} rounds, {games} game records -> {output}"
        )
