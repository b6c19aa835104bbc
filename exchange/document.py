"""The export document's format, its refusals (with the place in the document, in German
and English) and the checks every field of an uploaded document passes."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from config.inputs import check_text, visible_text
from config.parsers import parsed_bytes_estimate
from exchange.errors import (
    FIELD_INVALID,
    FIELD_MISSING,
    NOT_AN_OBJECT,
    NOT_JSON,
    TOO_BIG,
    TOO_MANY_VALUES,
    W_DOCUMENT,
    WRONG_FORMAT,
    ImportRefused,
)
from tournament.wording import lazy_format

FORMAT = "monopoly-championship-export/1"
#: Event fields that name a player (the engine's ``_player`` lookups); ``bank`` stays as it is.
PLAYER_FIELDS = ("player", "winner", "from", "to", "creditor")
#: An upload larger than this is refused before it is parsed.
MAX_BYTES = 50 * 1024 * 1024
#: Parsed, a JSON value becomes a Python object of 30–200 bytes, whatever its size in the
#: file: ``{"x":[{},{},…]}`` made 10 MB into 3.5 million dicts (+250 MB in a worker). Before it
#: is parsed, a document's memory is estimated from its bytes (``parsed_bytes_estimate``) and
#: refused beyond this many times its size: a real export estimates 4–7 (its densest part,
#: the game records, compact), the empty dicts 72.
MAX_PARSED_PER_BYTE = 12


# --------------------------------------------------------------------------- where


def _where(template, **params) -> Any:
    return lazy_format(template, params)


# --------------------------------------------------------------------------- field checks

_MISSING = object()


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "…"


def _field(
    obj: Any, name: str, where: Any, check: Callable[[Any], Any], *, default: Any = _MISSING
) -> Any:
    """``obj[name]`` passed through ``check`` (which returns the value to use or raises
    ValueError); a missing or null field takes ``default`` if there is one."""
    if not isinstance(obj, dict):
        raise ImportRefused(NOT_AN_OBJECT, params={"where": where})
    value = obj.get(name)
    if value is None:
        if default is not _MISSING:
            return default
        raise ImportRefused(FIELD_MISSING, params={"where": where, "field": name})
    try:
        return check(value)
    except (ValueError, TypeError):
        raise _invalid(where, name, value) from None


def _invalid(where: Any, name: str, value: Any) -> ImportRefused:
    """The refusal of a field's value: where, which field, the value (shortened)."""
    return ImportRefused(
        FIELD_INVALID, params={"where": where, "field": name, "value": _short(value)}
    )


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError
    return value


def _shown_name(value: Any) -> str:
    """A name people see (tournament, club, player): cleaned as the desk's forms clean one."""
    return _name(" ".join(visible_text(_text(value)).split()))


def _name(value: Any) -> str:
    value = _text(value).strip()
    if not value:
        raise ValueError
    return value


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError
    return value


def _positive(value: Any) -> int:
    if _whole(value) < 1:
        raise ValueError
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError
    return value


def _array(value: Any) -> list:
    if not isinstance(value, list):
        raise ValueError
    return value


def _moment(value: Any) -> dt.datetime:
    parsed = parse_datetime(_text(value))
    if parsed is None:
        raise ValueError
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, dt.UTC)


def _day(value: Any) -> dt.date:
    parsed = parse_date(_text(value))
    if parsed is None:
        raise ValueError
    return parsed


def _choice(choices) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices.values:
            raise ValueError
        return value

    return check


def _username(value: Any) -> str:
    value = _name(value)
    try:
        UnicodeUsernameValidator()(value)
    except ValidationError:
        raise ValueError from None
    if len(value) > 150:
        raise ValueError
    return value


# --------------------------------------------------------------------------- import


def parse_document(data: bytes | str | dict) -> dict[str, Any]:
    """The document as a dict: JSON bytes or text are parsed; anything else is refused."""
    if isinstance(data, bytes | str):
        if len(data) > MAX_BYTES:
            raise ImportRefused(TOO_BIG, params={"megabytes": MAX_BYTES // (1024 * 1024)})
        raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        if parsed_bytes_estimate(raw) > max(1 << 20, MAX_PARSED_PER_BYTE * len(raw)):
            raise ImportRefused(TOO_MANY_VALUES)
        del raw
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise ImportRefused(NOT_JSON, params={"reason": str(exc)}) from None
    if not isinstance(data, dict):
        raise ImportRefused(NOT_AN_OBJECT, params={"where": W_DOCUMENT})
    check_text(data)  # no NUL or lone surrogate may reach the database
    found = data.get("format")
    if found != FORMAT:
        raise ImportRefused(WRONG_FORMAT, params={"found": _short(found), "expected": FORMAT})
    return data


def _object(value: Any) -> dict:
    if not isinstance(value, dict):
        raise ValueError
    return value
