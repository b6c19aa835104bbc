"""Reading a players CSV before any row is checked: the refusal per line, bytes to text
(UTF-8 or Windows-1252), the separator, and header cells to columns (English or German)."""

from __future__ import annotations

import re

from tournament.players.errors import (
    BAD_BYTE,
    MIXED_ENCODING,
    NOT_TEXT,
    NUL_BYTE,
    UTF16,
    CsvImportError,
)
from tournament.wording import LineError

ALIASES: dict[str, frozenset[str]] = {
    "name": frozenset(
        {
            "name",
            "namen",
            "fullname",
            "vollername",
            "vorundnachname",
            "player",
            "playername",
            "spieler",
            "spielerin",
            "spielername",
            "teilnehmer",
            "teilnehmerin",
            "teilnehmername",
        }
    ),
    # A first and a last name column are joined when there is no name column.
    "first_name": frozenset({"vorname", "firstname", "givenname", "rufname"}),
    "last_name": frozenset({"nachname", "lastname", "familienname", "surname", "zuname"}),
    "club": frozenset(
        {
            "club",
            "clubname",
            "verein",
            "vereinsname",
            "klub",
            "team",
            "family",
            "familie",
            "clubfamily",
            "vereinfamilie",
            "clubfamilie",
        }
    ),
    "email": frozenset(
        {
            "email",
            "emailadresse",
            "emailaddress",
            "mail",
            "mailadresse",
            "mailaddress",
        }
    ),
    "consent": frozenset(
        {
            "consent",
            "public",
            "publicname",
            "publicnameconsent",
            "namepublic",
            "showname",
            "einwilligung",
            "oeffentlich",
            "offentlich",
            "oeffentlichername",
            "nameoeffentlich",
            "namensfreigabe",
            "freigabe",
            "zustimmung",
            "veroeffentlichung",
            "publish",
        }
    ),
}
# Then generous: a header containing one of these words (e.g. "Einwilligung Namensnennung").
CONTAINS: tuple[tuple[str, str], ...] = (
    ("consent", "einwilligung"),
    ("consent", "consent"),
    ("consent", "oeffentlich"),
    ("consent", "public"),
    ("consent", "freigabe"),
    ("consent", "zustimmung"),
    ("email", "mail"),
    ("club", "verein"),
    ("club", "club"),
)

CONSENT_VALUES: dict[str, bool] = {
    "": False,
    "ja": True,
    "j": True,
    "yes": True,
    "y": True,
    "1": True,
    "x": True,
    "true": True,
    "wahr": True,
    "✓": True,
    "✔": True,
    "nein": False,
    "n": False,
    "no": False,
    "0": False,
    "false": False,
    "falsch": False,
    "-": False,
}

# --------------------------------------------------------------------------- decoding


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode(data: bytes) -> tuple[str, str]:
    """(text, encoding): UTF-8 (BOM or not), else Windows-1252; else every unreadable line."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CsvImportError([LineError(1, "csv_utf16", UTF16)])
    if data.startswith(b"PK\x03\x04") or b"\x00" in data[:4096]:
        raise CsvImportError([LineError(1, "csv_not_text", NOT_TEXT)])
    if b"\x00" in data:  # further down: no name may keep it (PostgreSQL refuses NUL)
        lines = sorted({_line_of(data, match.start()) for match in re.finditer(b"\x00", data)})
        raise CsvImportError([LineError(number, "csv_nul", NUL_BYTE) for number in lines[:50]])
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    lines = data.split(b"\n")
    utf8_lines, bad_utf8 = [], []
    for number, raw in enumerate(lines, start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad_utf8.append((number, raw, exc))
        else:
            if any(byte >= 0x80 for byte in raw):
                utf8_lines.append(number)
    errors: list[LineError] = []
    if utf8_lines:
        # Some lines are UTF-8 with umlauts, others are not: a mixed file (pasted together).
        for number, raw, exc in bad_utf8:
            errors.append(
                LineError(
                    number,
                    "csv_encoding_mixed",
                    MIXED_ENCODING,
                    {"byte": f"0x{raw[exc.start]:02X}", "column": exc.start + 1},
                )
            )
        raise CsvImportError(errors)
    for number, raw in enumerate(lines, start=1):
        try:
            raw.decode("cp1252")
        except UnicodeDecodeError as exc:
            errors.append(
                LineError(
                    number,
                    "csv_encoding",
                    BAD_BYTE,
                    {"byte": f"0x{raw[exc.start]:02X}", "column": exc.start + 1},
                )
            )
    if errors:
        raise CsvImportError(errors)
    return data.decode("cp1252"), "cp1252"


# --------------------------------------------------------------------------- header

_SPELL_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def fold(cell: str) -> str:
    """Header comparison key: "E-Mail" → "email", "Öffentlich" → "oeffentlich"."""
    return re.sub(r"[^0-9a-z]", "", cell.strip().casefold().translate(_SPELL_OUT))


def column_for(cell: str) -> str | None:
    key = fold(cell)
    if not key:
        return None
    for column, aliases in ALIASES.items():
        if key in aliases:
            return column
    for column, word in CONTAINS:
        if word in key:
            return column
    return None


def sniff_delimiter(line: str) -> str:
    """The separator of the header line: the most frequent of ; , and tab outside quotes."""
    unquoted = re.sub(r'"[^"]*"', "", line)
    counts = {sep: unquoted.count(sep) for sep in (";", ",", "\t")}
    best = max(counts, key=lambda sep: (counts[sep], sep == ";"))
    return best if counts[best] else ","
