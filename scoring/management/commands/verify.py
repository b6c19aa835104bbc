"""``python manage.py verify SLUG [--lang en]``: replay every game of the tournament and check
every stored result, standings row and public figure against the records and the staff's
recorded rulings (``scoring.verify``).

Prints each difference on a line of its own and exits 1 when there is any; exit 0 with one
line of what was checked when everything agrees; exit 2 with one line for an unknown
tournament.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser
from django.utils import translation

from config.commands import OneLineCommand
from scoring.verify import verify_tournament
from tournament.models import Tournament


class Command(OneLineCommand):
    help = "Check every stored result, standings row and public figure against the records."
    refusal_name = "verify"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("--lang", choices=["de", "en"], default="de",
                            help="the language of the report (default: de)")

    def handle(self, *args: Any, slug: str, lang: str, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            self._refuse(f"there is no tournament '{slug}'")
        with translation.override(lang):
            report = verify_tournament(tournament=tournament)
            for difference in report.differences:
                self.stdout.write(str(difference))
            if report.ok:
                self.stdout.write(report.summary)
                return
            self.stderr.write(report.summary)
        sys.exit(1)
