"""``manage.py scoresheets SLUG [--round N] -o FILE.pdf``: the printed materials as a PDF.

``--document`` picks one of ``scoresheets`` (default: one page per table), ``seating`` (by
table), ``seating-names`` (alphabetical, for the entrance), ``cards`` (table cards with the
bankers' private links), ``standings`` (after round N) or ``certificates`` (``--top`` places).
``--lang en`` prints in English (German is the default); ``--base-url`` is the public address the
QR codes point to (default: the ``PUBLIC_BASE_URL`` setting). ``-o -`` writes to stdout.

Without ``--round`` the current round is used (the newest one that is not a draft). On success
one line on stdout names the file, its pages and size; any refusal (unknown tournament, round,
document or language, unwritable file) is one line on stderr and exit status 2, and no partial
file is left behind.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from config.commands import OneLineCommand
from printing import documents as printing
from tournament import selectors
from tournament.models import Round, Tournament


class Refused(Exception):
    pass


class Command(OneLineCommand):
    refusal_name = "scoresheets"
    help = "Write score sheets (or another printed document) of a tournament round as a PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("--round", type=int, dest="round_number", default=None,
                            help="round number (default: the current round)")
        parser.add_argument("-o", "--output", required=True,
                            help="the PDF file to write ('-' for stdout)")
        parser.add_argument("--document", default="scoresheets", choices=list(printing.DOCUMENTS),
                            help="which document (default: scoresheets)")
        parser.add_argument("--lang", default="de", choices=list(printing.LANGUAGES),
                            help="language (default: de)")
        parser.add_argument("--base-url", default=None,
                            help="public address for the QR codes (default: PUBLIC_BASE_URL)")
        parser.add_argument("--top", type=int, default=3,
                            help="certificates: how many places (default 3)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament, round_ = self._lookup(options["slug"], options["round_number"],
                                              options["document"])
            output = options["output"]
            kwargs = {"tournament": tournament, "round_": round_, "lang": options["lang"],
                      "base_url": options["base_url"], "top": options["top"]}
            printing.context_for(options["document"], **kwargs)  # refuse before writing
            if output == "-":
                result = printing.render(options["document"], sys.stdout.buffer, **kwargs)
                sys.stdout.buffer.flush()
                return
            result = self._write_file(Path(output), options["document"], kwargs)
        except (Refused, printing.PrintError) as exc:
            self._refuse(str(exc))
        pages = "page" if result.pages == 1 else "pages"
        self.stdout.write(f"{output}: {result.pages} {pages}, {result.bytes} bytes")

    def _lookup(self, slug: str, number: int | None,
                document: str) -> tuple[Tournament, Round | None]:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise Refused(f"no tournament {slug!r}")
        if number is not None:
            round_ = Round.objects.filter(tournament=tournament, number=number).first()
            if round_ is None:
                raise Refused(f"{slug} has no round {number}")
            return tournament, round_
        round_ = selectors.current_round(tournament)
        if round_ is None and printing.DOCUMENTS[document].needs_round:
            raise Refused(f"{slug} has no seated round yet; give --round")
        return tournament, round_

    def _write_file(self, path: Path, document: str, kwargs: dict) -> printing.Rendered:
        folder = path.parent if str(path.parent) else Path(".")
        try:
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.",
                                                 suffix=".part")
        except OSError as exc:
            raise Refused(f"cannot write {path}: {exc.strerror or exc}") from None
        try:
            with os.fdopen(handle, "wb") as out:
                result = printing.render(document, out, **kwargs)
            os.replace(temporary, path)
        except OSError as exc:
            raise Refused(f"cannot write {path}: {exc.strerror or exc}") from None
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        return result
