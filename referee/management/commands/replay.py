"""``python manage.py replay RECORD.json``: replay a game record and print the result as JSON.

A thin wrapper around ``referee.rules``: exit 0 with the result on stdout; exit 2 with one line
on stderr (nothing on stdout) when the record is unreadable or an event is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from referee.rules import (
    BoardError,
    RecordError,
    RuleViolation,
    load_board,
    replay,
    replay_result,
)


class Command(BaseCommand):
    help = "Replay a game record (monopoly-game-record/1) and print status and standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="path of the record's JSON file")
        parser.add_argument(
            "--lang", choices=("en", "de"), default="en", help="language of a refusal"
        )
        parser.add_argument(
            "--board-file",
            action="append",
            default=[],
            metavar="PATH",
            help="an organiser's board (CSV or JSON) the record refers to by key; repeatable",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        lang = options["lang"]
        path = Path(options["record"])
        try:
            boards = {}
            for board_path in options["board_file"]:
                board = load_board(board_path)
                boards[board.key] = board
            data = json.loads(path.read_text(encoding="utf-8"))
            game = replay(data, boards=boards)
        except RuleViolation as exc:
            self._fail(exc.line(lang))
        except RecordError as exc:
            self._fail(f"{path}: {exc.message(lang)}")
        except BoardError as exc:
            self._fail(f"board: {exc}")
        except json.JSONDecodeError as exc:
            self._fail(f"{path} is not valid JSON: {exc}")
        except (OSError, UnicodeDecodeError) as exc:
            self._fail(f"cannot read {path}: {exc}")
        self.stdout.write(json.dumps(replay_result(game), indent=1, ensure_ascii=False))

    def _fail(self, line: str) -> None:
        self.stderr.write(" ".join(line.split()))
        raise SystemExit(2)
