"""The export document's format, its refusals (with the place in the document, in German
and English) and the checks every field of an uploaded document passes."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils import timezone, translation
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.encoding import force_str

from config.errors import DomainError
from config.inputs import check_text
from tournament import tournaments as tournament_settings

from ..errors import (
    FIELD_INVALID,
    FIELD_MISSING,
    NOT_AN_OBJECT,
    NOT_JSON,
    TOO_BIG,
    W_DOCUMENT,
    WRONG_FORMAT,
)

FORMAT = "monopoly-championship-export/1"
#: Event fields that name a player (the engine's ``_player`` lookups); ``bank`` stays as it is.
PLAYER_FIELDS = ("player", "winner", "from", "to", "creditor")
#: An upload larger than this is refused before it is parsed.
MAX_BYTES = 50 * 1024 * 1024


# --------------------------------------------------------------------------- errors


class ImportRefused(DomainError, code="import_refused"):
    """The document cannot be imported; the message names the place and the reason."""

    def message_in(self, language: str) -> str:
        with translation.override(language):
            params = {
                key: value.message_in(language) if isinstance(value, DomainError)
                else force_str(value)
                for key, value in self.params.items()
            }
            text = force_str(self.message)
            return text % params if params else text


lazy_format = tournament_settings.lazy_format


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
        raise ImportRefused(
            FIELD_INVALID, params={"where": where, "field": name, "value": _short(value)}
        ) from None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError
    return value


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
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
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
