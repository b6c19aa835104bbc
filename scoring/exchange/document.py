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
from django.utils.translation import gettext_lazy as _

from config.errors import DomainError
from config.inputs import check_text
from tournament import tournaments as tournament_settings

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


NOT_JSON = _("The file is not a JSON document: %(reason)s")
TOO_BIG = _("The file is larger than %(megabytes)s MB.")
WRONG_FORMAT = _("This is not a tournament export (format “%(found)s”, expected “%(expected)s”).")
NOT_AN_OBJECT = _("%(where)s: expected a JSON object.")
FIELD_MISSING = _("%(where)s: “%(field)s” is missing.")
FIELD_INVALID = _("%(where)s: “%(field)s” has an invalid value: %(value)s.")
DUPLICATE_CLUB = _("Club “%(name)s” appears twice.")
DUPLICATE_PLAYER_KEY = _("Player key “%(key)s” appears twice.")
DUPLICATE_PLAYER_NAME = _("Player “%(name)s” appears twice.")
UNKNOWN_CLUB = _("%(where)s: club “%(club)s” is not among the document's clubs.")
UNKNOWN_PLAYER = _("%(where)s: player “%(player)s” is not among the document's players.")
DUPLICATE_ROUND = _("Round %(round)s appears twice.")
DUPLICATE_TABLE = _("Round %(round)s: table %(table)s appears twice.")
SEATED_TWICE = _("Round %(round)s: player “%(player)s” is seated twice.")
EMPTY_TABLE = _("Round %(round)s: table %(table)s has no players.")
RECORD_PLAYERS = _(
    "%(where)s: the game record's players are not the players seated at the table."
)
BAD_RECORD = _("%(where)s: the game record cannot be used: %(reason)s")
EVENT_REFUSED = _("%(where)s: the game record was refused at %(reason)s")
AUTHORS_LENGTH = _("%(where)s: “authors” must name one author (or null) per event.")
RESULT_WITHOUT_GAME = _("%(where)s: a result is given but no game record.")
RESULT_BEFORE_END = _("%(where)s: a result is given but the game record does not end the game.")
RESULT_PLAYERS = _("%(where)s: the result's placements do not match the table's players.")
RESULT_CONTRADICTS = _(
    "%(where)s: the game record, replayed, gives %(player)s place %(replayed)s with net worth "
    "%(worth)s, but the stored result says place %(stored)s with %(stored_worth)s. Only results "
    "from the paper sheet or amended by the head referee may differ from their record."
)
ROUND_NOT_CONFIRMED = _(
    "Round %(round)s is complete, but table %(table)s has no confirmed result."
)
STANDINGS_DIFFER = _(
    "The standings computed here differ from those in the export from position %(place)s on "
    "(the players got new ids here, so ties decided by lot can fall differently)."
)
SETTINGS_REFUSED = _("Tournament settings: %(reason)s")
DATABASE_REFUSED = _("The document contradicts itself: %(reason)s")

W_DOCUMENT = _("The document")
W_TOURNAMENT = _("Tournament")
W_CLUB = _("Club %(index)s")
W_PLAYER = _("Player %(index)s")
W_ROUND = _("Round %(round)s")
W_ROUND_AT = _("Round at position %(index)s")
W_TABLE = _("Round %(round)s, table %(table)s")
W_TABLE_AT = _("Round %(round)s, table at position %(index)s")
W_RESULT = _("Round %(round)s, table %(table)s, result")
W_PLACEMENT = _("Round %(round)s, table %(table)s, placement %(index)s")

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
