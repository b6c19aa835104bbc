"""Text that no field can store: NUL characters and lone surrogates.

PostgreSQL refuses NUL (``\\x00``) in text and jsonb columns, and a lone surrogate (JSON allows
``"\\ud800"``) cannot be encoded as UTF-8 — neither stored nor echoed back in an error message.
Both would end in a server error (500) deep down; they are refused at the door instead, with a
400 and the field named in both languages: by the API's parsers (``config.parsers``) and by the
tournament import. Django's form fields refuse NUL themselves; free-text notes read straight from
a form go through :func:`clean_note`.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.utils.translation import gettext_lazy as _

from config.errors import UnusableText

UNUSABLE_TEXT = _(
    "“%(field)s” contains a character that cannot be stored (a NUL character or a broken "
    "Unicode character). Remove it and try again."
)


def _unusable(text: str) -> bool:
    if "\x00" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _printable(path: list[Any]) -> str:
    """The field's path, safe to show even when a key itself is the unusable part."""
    name = ".".join(str(part) for part in path) or "body"
    name = name.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")
    return name if len(name) <= 80 else name[:79] + "…"


def find_unusable(value: Any, path: list[Any] | None = None) -> str | None:
    """The path of the first string (key or value) in ``value`` that cannot be stored."""
    path = path or []
    if isinstance(value, str):
        return _printable(path) if _unusable(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and _unusable(key):
                return _printable([*path, key])
            found = find_unusable(item, [*path, key])
            if found:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = find_unusable(item, [*path, index])
            if found:
                return found
    return None


def check_text(value: Any) -> None:
    """Raise :class:`UnusableText` if any string in ``value`` cannot be stored."""
    field = find_unusable(value)
    if field is not None:
        raise UnusableText(UNUSABLE_TEXT, params={"field": field})


NOTE_MAX = 2000
NUL_IN_NOTE = _(
    "The note contains a NUL character, which cannot be stored. Remove it and try again."
)
NOTE_TOO_LONG = _("The note is %(length)s characters long; at most %(max)s are allowed.")


def clean_note(value: str | None, *, max_length: int = NOTE_MAX) -> str:
    """A free-text note from a form (a dispute, a ruling): trimmed, refused with a 400 when it
    holds a NUL character or is longer than ``max_length``."""
    note = (value or "").strip()
    if "\x00" in note:
        raise UnusableText(NUL_IN_NOTE, code="note_nul")
    if len(note) > max_length:
        raise UnusableText(
            NOTE_TOO_LONG, code="note_too_long", params={"length": len(note), "max": max_length}
        )
    return note


#: Invisible although not of a format category: Hangul fillers, the braille blank, the
#: combining grapheme joiner.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def visible_text(value: str | None) -> str:
    """``value`` without control and format characters (bidi overrides and isolates such as
    U+202E, zero-width spaces and joiners, the soft hyphen, a BOM) and other invisible ones.

    For names: a name is shown to everyone (public pages, hall screens, prints), and these
    characters let one look like another or turn the text around it (``\u202eevil`` shows
    reversed). They are stripped rather than refused: pasted from a spreadsheet, a name often
    carries a zero-width space nobody can see, let alone remove. Whitespace (tabs, line
    breaks) is kept for the caller to collapse."""
    text = value or ""
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        char for char in text
        if char.isspace()
        or (unicodedata.category(char) not in ("Cc", "Cf") and char not in _INVISIBLE)
    )


def whole_amount(value: Any) -> int | None:
    """A whole amount as a person types it ("1.900", "1,900", "1 900") or as a number; None
    when empty; ValueError when it is no whole number. Amounts have no decimals here, so every
    mark between digits is a thousands mark."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    text = str(value if value is not None else "").strip()
    for mark in (".", ",", " ", "\u00a0", "\u202f", "'"):
        text = text.replace(mark, "")
    return int(text) if text else None


def posted_revision(request) -> int:
    """The result's revision a form carried (its hidden ``revision``): the page's decision is
    checked against it (``referee.results.check_revision``). Missing or unreadable: -1, which
    no result has, so the write is refused as decided against a changed result."""
    try:
        return int(request.POST.get("revision", ""))
    except (TypeError, ValueError):
        return -1
