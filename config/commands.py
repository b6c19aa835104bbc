"""A management command that refuses in one line: ``<name>: <reason>`` on stderr and a
non-zero exit status, usage errors included (exit status 2)."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

EXIT_REFUSED = 2


class OneLineCommand(BaseCommand):
    #: The name in front of every refusal (the command's own name).
    refusal_name = ""

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        """Usage errors, too, are one line on stderr and exit status 2 on the command line."""
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.called_from_command_line:
            parser.error = self._refuse_usage  # type: ignore[method-assign]
        return parser

    def _refuse(self, line: str) -> NoReturn:
        self.stderr.write(f"{self.refusal_name}: " + " ".join(line.split()), style_func=lambda text: text)
        sys.exit(EXIT_REFUSED)

    def _refuse_usage(self, message: str) -> NoReturn:
        self._refuse(f"usage: {message}")
