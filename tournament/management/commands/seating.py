"""``manage.py seating``: seat players 1..N for R rounds and print one JSON document.

Contract (docs: the seating spec): stdout gets ``{"rounds", "repeated_pairs",
"same_club_pairs"}`` and the exit status is 0; any refusal (impossible table split, unreadable
or malformed file, unknown player, invalid option) writes exactly one line to stderr, nothing
to stdout, and exits with status 2.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from config.commands import OneLineCommand
from tournament.seating import SeatingError, seat_rounds
from tournament.seating.errors import (
    INVALID_CLUBS,
    INVALID_FILE,
    INVALID_HISTORY,
    UNKNOWN_PLAYER,
)


def read_clubs(path: Path, *, players: int) -> dict[int, str]:
    """Parse ``player,club`` lines (optional ``player,club`` header, blank lines ignored)."""
    text = _read(path, "clubs")
    clubs: dict[int, str] = {}
    first = True
    for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        header = first and [cell.lower() for cell in cells] == ["player", "club"]
        first = False
        if header:
            continue
        if len(cells) != 2 or not cells[1]:
            raise SeatingError(
                INVALID_CLUBS,
                f"{path} line {number}: expected 'player,club', got {','.join(row)!r}",
            )
        try:
            player = int(cells[0])
        except ValueError:
            raise SeatingError(
                INVALID_CLUBS, f"{path} line {number}: player must be a number, got {cells[0]!r}"
            ) from None
        if not 1 <= player <= players:
            raise SeatingError(
                UNKNOWN_PLAYER,
                f"{path} line {number}: no player {player} (players are 1..{players})",
            )
        if clubs.get(player, cells[1]) != cells[1]:
            raise SeatingError(
                INVALID_CLUBS,
                f"{path} line {number}: player {player} is already in club {clubs[player]!r}",
            )
        clubs[player] = cells[1]
    return clubs


def read_history(path: Path) -> list[list[list[int]]]:
    """Parse earlier rounds: a JSON list of rounds, or an earlier output of this command."""
    text = _read(path, "history")
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SeatingError(
            INVALID_FILE,
            f"{path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
        ) from None
    if isinstance(data, dict) and "rounds" in data:
        data = data["rounds"]
    tables_shape = "a list of tables, each a list of player numbers"
    if not isinstance(data, list):
        raise SeatingError(INVALID_HISTORY, f"{path}: history must be a list of rounds")
    for number, tables in enumerate(data, start=1):
        if not isinstance(tables, list) or not all(
            isinstance(table, list)
            and all(isinstance(p, int) and not isinstance(p, bool) for p in table)
            for table in tables
        ):
            raise SeatingError(INVALID_HISTORY, f"{path}: round {number} is not {tables_shape}")
    return data


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SeatingError(INVALID_FILE, f"cannot read {what} file {path}: {reason}") from None


class Command(OneLineCommand):
    refusal_name = "seating"
    help = (
        "Seat players 1..N at tables for R rounds with as few repeated meetings and club-mates "
        "at one table as possible; prints one JSON document."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players (1..N)")
        parser.add_argument("--table-size", type=int, default=6, help="seats per table (default 6)")
        parser.add_argument("--rounds", type=int, required=True, help="rounds to seat")
        parser.add_argument("--seed", type=int, default=None, help="makes the output reproducible")
        parser.add_argument(
            "--seconds", type=float, default=10.0, help="search time limit (default 10)"
        )
        parser.add_argument("--clubs", type=Path, help="CSV file of 'player,club' lines")
        parser.add_argument("--history", type=Path, help="JSON file of rounds already played")
        parser.add_argument(
            "--min-size", type=int, default=None, help="smallest table allowed (default size - 1)"
        )
        parser.add_argument(
            "--larger",
            action="store_true",
            help="tables of table-size or table-size + 1 (official rules: 4s with 5s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            clubs = (
                read_clubs(options["clubs"], players=options["players"])
                if options["clubs"] is not None and options["players"] >= 1
                else None
            )
            history = read_history(options["history"]) if options["history"] is not None else ()
            result = seat_rounds(
                players=options["players"],
                rounds=options["rounds"],
                table_size=options["table_size"],
                clubs=clubs,
                history=history,
                seed=options["seed"],
                seconds=options["seconds"],
                min_size=options["min_size"],
                larger=options["larger"],
            )
        except SeatingError as exc:
            self._refuse(f"{exc.code}: {exc.message}")
        self.stdout.write(json.dumps(result.as_dict()))
