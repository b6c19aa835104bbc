"""All-or-nothing CSV import of a tournament's players.

Columns (a header row is required; English or German names, any case, any order):
name (required), club, e-mail, public-name consent. Comma, semicolon (German Excel) or tab
separated; UTF-8 with or without BOM, or Windows-1252. Every bad line is reported with its line
number and reason (German and English) in one :class:`CsvImportError`; then nothing is saved.
Clubs are matched by name or short name, case-insensitively, and created only on success.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from config.errors import Conflict
from tournament import names
from tournament.models import Club, Player, Tournament
from tournament.players.csv_reading import (
    CONSENT_VALUES,
    CsvImportError,
    LineError,
    column_for,
    decode,
    fold,
    sniff_delimiter,
)
from tournament.players.errors import (
    BROKEN_QUOTES,
    CLUB_TOO_LONG,
    COLUMN_COUNT,
    CONSENT_INVALID,
    DUPLICATE_COLUMN,
    EMAIL_INVALID,
    EMPTY_FILE,
    EMPTY_HEADER_CELL,
    EXTRA_VALUE,
    HEADER_ONLY,
    IMPORT_RACE,
    LINE_NAME_MISSING,
    NAME_COLUMNS_TWICE,
    NAME_LOOKS_LIKE_LINE,
    NAME_LOOKS_REGISTERED,
    NAME_TAKEN,
    NAME_TOO_LONG,
    NAME_TWICE,
    NO_CONSENT_COLUMN,
    NO_HEADER,
    NO_NAME_COLUMN,
    QUOTE_NEW_LINE,
    QUOTE_NOT_CLOSED,
    QUOTE_OTHER,
    QUOTE_TEXT_AFTER,
    TOO_BIG,
    TOO_MANY,
    TOO_MANY_BROKEN,
    TOURNAMENT_FINISHED,
    UNKNOWN_COLUMN,
)
from tournament.players.services import (
    CLUB_MAX,
    NAME_MAX,
    PlayersLocked,
    clean_name,
    club_key,
    find_clubs,
    valid_email,
)

MAX_BYTES = 2 * 1024 * 1024
MAX_PLAYERS = 5000


# --------------------------------------------------------------------------- result


@dataclass
class ImportResult:
    players: list[Player]
    clubs: list[Club]  # the clubs created by this import
    encoding: str
    delimiter: str
    #: What the organizer should check although everything was saved (no consent column, a
    #: name that looks like another one), by line.
    warnings: list[LineError] = field(default_factory=list)


@dataclass
class _Row:
    line: int
    name: str
    club: str
    email: str
    consent: bool


# --------------------------------------------------------------------------- rows

NAME_REGISTERED = NAME_TAKEN


def _delimiter_label(delimiter: str) -> str:
    return {"\t": "Tab"}.get(delimiter, delimiter)


def parse(
    text: str, *, existing_names: set[str], warnings: list[LineError] | None = None
) -> tuple[list[_Row], list[LineError], str]:
    """Read and check every line; (rows, errors, delimiter). Saves nothing. A header without a
    consent column is noted in ``warnings`` (every public name becomes initials)."""
    errors: list[LineError] = []
    first = next((line for line in text.splitlines() if line.strip()), None)
    if first is None:
        return [], [LineError(1, "csv_empty", EMPTY_FILE)], ","
    delimiter = sniff_delimiter(first)

    header: list[str] | None = None
    header_line = 0
    consent_column = False
    columns: list[str | None] = []
    ignored: set[int] = set()  # trailing header cells without a name
    rows: list[_Row] = []
    seen: dict[str, int] = {}
    for line, record in _records(text, delimiter, errors):
        if record is None:  # a broken line, reported: before the header, nothing is known yet
            if header is None:
                break
            continue
        if not any(cell.strip() for cell in record):
            continue  # blank line (Excel writes ";;;" for empty rows)
        if header is None:
            header, header_line = record, line
            columns, ignored, header_errors, fatal = _read_header(record, line)
            errors.extend(header_errors)
            if fatal:
                return [], errors, delimiter
            consent_column = "consent" in columns
            continue
        if [fold(cell) for cell in record] == [fold(cell) for cell in header]:
            continue  # the header repeated (two exports pasted together)
        row = _read_row(
            record,
            line=line,
            columns=columns,
            ignored=ignored,
            delimiter=delimiter,
            seen=seen,
            existing_names=existing_names,
            errors=errors,
        )
        if row is not None:
            rows.append(row)

    if header is not None and not rows and not errors:
        errors.append(LineError(header_line, "csv_no_players", HEADER_ONLY))
    if warnings is not None and header is not None and rows and not consent_column:
        warnings.append(LineError(header_line, "csv_no_consent_column", NO_CONSENT_COLUMN,
                                  {"count": len(rows)}))
    if len(rows) > MAX_PLAYERS:
        errors.append(
            LineError(
                header_line, "csv_too_many", TOO_MANY, {"count": len(rows), "max": MAX_PLAYERS}
            )
        )
    return rows, errors, delimiter


MAX_BROKEN_LINES = 50


def _records(
    text: str, delimiter: str, errors: list[LineError]
) -> Iterator[tuple[int, list[str] | None]]:
    """(first line, cells) of every record; a line that cannot be read (quotation marks) is
    reported in ``errors`` and yields ``None``, and reading goes on with the line after it: a
    quotation mark left open must not hide every later line's errors."""
    lines = list(io.StringIO(text, newline=""))  # the csv module's own line ends
    start = 0  # index of the first line the current reader reads
    while start < len(lines):
        reader = csv.reader(itertools.islice(lines, start, None), delimiter=delimiter,
                            strict=True)
        previous_end = 0
        try:
            for record in reader:
                yield start + previous_end + 1, record
                previous_end = reader.line_num
        except csv.Error as exc:
            broken = start + previous_end + 1
            errors.append(_broken_line(broken, exc, delimiter,
                                       several_lines=reader.line_num > previous_end + 1))
            yield broken, None
            if sum(error.code == "csv_syntax" for error in errors) >= MAX_BROKEN_LINES:
                errors.append(LineError(broken, "csv_syntax_stop", TOO_MANY_BROKEN,
                                        {"count": MAX_BROKEN_LINES}))
                return
            start = broken  # the next reader starts on the line after the broken one
            continue
        return


def _broken_line(line: int, exc: csv.Error, delimiter: str, *, several_lines: bool) -> LineError:
    """Why the line cannot be read, in words (the csv module's own are English only)."""
    detail = str(exc)
    if several_lines or "end of data" in detail or "field limit" in detail:
        # A quotation mark opened on this line and never closed on it: the reader took the
        # next lines as part of the value.
        return LineError(line, "csv_syntax", QUOTE_NOT_CLOSED)
    if "expected after" in detail:
        return LineError(line, "csv_syntax", QUOTE_TEXT_AFTER,
                         {"delimiter": _delimiter_label(delimiter)})
    words = QUOTE_NEW_LINE if "new-line character" in detail else QUOTE_OTHER
    return LineError(line, "csv_syntax", BROKEN_QUOTES, {"detail": words})


def _read_header(
    record: list[str], line: int
) -> tuple[list[str | None], set[int], list[LineError], bool]:
    """(column per position, ignored positions, errors, fatal?)."""
    errors: list[LineError] = []
    # Trailing cells without a name are tolerated (spreadsheets add them); inner ones are not.
    last_named = max((i for i, cell in enumerate(record) if cell.strip()), default=-1)
    ignored = set(range(last_named + 1, len(record)))
    columns: list[str | None] = []
    first_cell: dict[str, str] = {}
    unknown: list[str] = []
    for position, cell in enumerate(record):
        if position in ignored:
            columns.append(None)
            continue
        column = column_for(cell)
        columns.append(column)
        if not cell.strip():
            errors.append(
                LineError(line, "csv_header_empty", EMPTY_HEADER_CELL, {"position": position + 1})
            )
        elif column is None:
            unknown.append(cell.strip())
        elif column in first_cell:
            errors.append(
                LineError(
                    line,
                    "csv_duplicate_column",
                    DUPLICATE_COLUMN,
                    {"column": cell.strip(), "other": first_cell[column]},
                )
            )
            columns[-1] = None
        else:
            first_cell[column] = cell.strip()
    cells = ", ".join(cell.strip() for cell in record if cell.strip())
    if not first_cell:
        return (
            columns,
            ignored,
            [LineError(line, "csv_no_header", NO_HEADER, {"cells": cells})],
            True,
        )
    for cell in unknown:
        errors.append(LineError(line, "csv_unknown_column", UNKNOWN_COLUMN, {"column": cell}))
    split = [first_cell[c] for c in ("first_name", "last_name") if c in first_cell]
    if "name" in first_cell and split:
        errors.append(
            LineError(
                line,
                "csv_name_columns_twice",
                NAME_COLUMNS_TWICE,
                {"name": first_cell["name"], "other": ", ".join(split)},
            )
        )
    elif "name" not in first_cell and not split:
        errors.append(LineError(line, "csv_no_name_column", NO_NAME_COLUMN, {"cells": cells}))
        return columns, ignored, errors, True
    return columns, ignored, errors, False


def _values(
    record: list[str], *, line: int, columns: list[str | None], ignored: set[int],
    errors: list[LineError],
) -> dict[str, str]:
    """The line's cells by column; a value in a column without a name is an error."""
    values: dict[str, str] = {}
    for position, (column, cell) in enumerate(zip(columns, record, strict=True)):
        if column is not None:
            values[column] = cell
        elif position in ignored and cell.strip():
            errors.append(
                LineError(
                    line,
                    "csv_extra_value",
                    EXTRA_VALUE,
                    {"position": position + 1, "value": cell.strip()[:40]},
                )
            )
    return values


def _check_name(
    name: str, *, line: int, seen: dict[str, int], existing_names: set[str],
    errors: list[LineError],
) -> None:
    """A name is given, not too long, once in the file and not registered already."""
    if not name:
        errors.append(LineError(line, "csv_name_missing", LINE_NAME_MISSING))
    elif len(name) > NAME_MAX:
        errors.append(
            LineError(
                line, "csv_name_too_long", NAME_TOO_LONG, {"length": len(name), "max": NAME_MAX}
            )
        )
    else:
        key = name.lower()
        if key in seen:
            errors.append(
                LineError(
                    line, "csv_name_duplicate", NAME_TWICE, {"name": name, "other": seen[key]}
                )
            )
        else:
            seen[key] = line
            if key in existing_names:
                errors.append(
                    LineError(line, "csv_name_registered", NAME_REGISTERED, {"name": name})
                )


def _read_row(
    record: list[str],
    *,
    line: int,
    columns: list[str | None],
    ignored: set[int],
    delimiter: str,
    seen: dict[str, int],
    existing_names: set[str],
    errors: list[LineError],
) -> _Row | None:
    if len(record) != len(columns):
        errors.append(
            LineError(
                line,
                "csv_column_count",
                COLUMN_COUNT,
                {
                    "expected": len(columns),
                    "found": len(record),
                    "delimiter": _delimiter_label(delimiter),
                },
            )
        )
        return None
    before = len(errors)
    values = _values(record, line=line, columns=columns, ignored=ignored, errors=errors)
    if "name" in values:
        name = clean_name(values["name"])
    else:
        name = clean_name(f"{values.get('first_name', '')} {values.get('last_name', '')}")
    _check_name(name, line=line, seen=seen, existing_names=existing_names, errors=errors)
    club = clean_name(values.get("club"))
    if len(club) > CLUB_MAX:
        errors.append(
            LineError(
                line, "csv_club_too_long", CLUB_TOO_LONG, {"length": len(club), "max": CLUB_MAX}
            )
        )

    email = (values.get("email") or "").strip()
    if email and not valid_email(email):
        errors.append(LineError(line, "csv_email_invalid", EMAIL_INVALID, {"email": email}))

    raw_consent = (values.get("consent") or "").strip()
    consent = CONSENT_VALUES.get(raw_consent.casefold())
    if consent is None:
        errors.append(
            LineError(line, "csv_consent_invalid", CONSENT_INVALID, {"value": raw_consent})
        )

    if len(errors) > before:
        return None
    return _Row(line=line, name=name, club=club, email=email, consent=bool(consent))


# --------------------------------------------------------------------------- the import


def import_players(*, tournament: Tournament, data: bytes) -> ImportResult:
    """Import every player of the file, or none: raises :class:`CsvImportError` with all lines."""
    if len(data) > MAX_BYTES:
        raise CsvImportError(
            [
                LineError(
                    1,
                    "csv_too_big",
                    TOO_BIG,
                    {"size": len(data) // 1024, "max": MAX_BYTES // 1024},
                )
            ]
        )
    if not data.strip(b" \t\r\n\xef\xbb\xbf"):
        raise CsvImportError([LineError(1, "csv_empty", EMPTY_FILE)])
    text, encoding = decode(data)
    try:
        with transaction.atomic():
            return _import(tournament=tournament, text=text, encoding=encoding)
    except IntegrityError:  # a desk added the same name or club in the same instant
        raise Conflict(IMPORT_RACE, code="csv_changed_meanwhile") from None


def _import(*, tournament: Tournament, text: str, encoding: str) -> ImportResult:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise PlayersLocked(TOURNAMENT_FINISHED, code="tournament_finished")
    registered = list(tournament.players.values_list("name", flat=True))
    existing = {name.lower() for name in registered}
    warnings: list[LineError] = []
    rows, errors, delimiter = parse(text, existing_names=existing, warnings=warnings)
    if errors:
        raise CsvImportError(errors)
    warnings.extend(_look_alikes(rows, registered=registered))

    clubs = find_clubs((row.club for row in rows), tournament=tournament)
    new_clubs: dict[str, Club] = {}
    for row in rows:
        key = club_key(row.club) if row.club else ""
        if key and key not in clubs and key not in new_clubs:
            new_clubs[key] = Club(tournament=tournament, name=row.club)
    created_clubs = Club.objects.bulk_create(new_clubs.values())
    clubs.update({club_key(club.name): club for club in created_clubs})

    checked_in = tournament.status == Tournament.Status.RUNNING  # late entries are present
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            name=row.name,
            club=clubs[club_key(row.club)] if row.club else None,
            email=row.email,
            public_name_consent=row.consent,
            checked_in=checked_in,
        )
        for row in rows
    )
    return ImportResult(
        players=players, clubs=created_clubs, encoding=encoding, delimiter=delimiter,
        warnings=sorted(warnings, key=lambda warning: warning.line),
    )


def _look_alikes(rows: list[_Row], *, registered: list[str]) -> list[LineError]:
    """Lines whose name looks like a registered player's or an earlier line's ("Juergen
    Weiss" beside "Jürgen Weiß"; equal names are refused before): perhaps one person twice."""
    known = {names.look_alike_key(name): name for name in registered}
    earlier: dict[str, _Row] = {}
    found = []
    for row in rows:
        key = names.look_alike_key(row.name)
        if not key:
            continue
        if key in known:
            found.append(LineError(row.line, "csv_name_looks_registered", NAME_LOOKS_REGISTERED,
                                   {"name": row.name, "other": known[key]}))
        elif key in earlier:
            found.append(LineError(row.line, "csv_name_looks_like_line", NAME_LOOKS_LIKE_LINE,
                                   {"name": row.name, "other": earlier[key].name,
                                    "other_line": earlier[key].line}))
        else:
            earlier[key] = row
    return found
