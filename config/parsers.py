"""The API's parsers: DRF's, refusing text no field can store (see :mod:`config.inputs`), and
JSON bodies that are too large or nested too deeply.

Default for every API view (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``); views that pick
their parsers pick these. A JSON body is read at most to its limit (``JSON_MAX_BYTES``, or a
view's ``max_json_bytes`` — the tournament import takes 50 MB) and its nesting is counted on the
raw text, before Python's recursive parser sees it: a deeply nested body would otherwise end in
a RecursionError (a 500) and cost a worker the time to get there.
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers

JSON_MAX_BYTES = 1024 * 1024  # default for a JSON body; the console's events are < 4 kB
JSON_MAX_DEPTH = 32  # a game event is 3 deep, an export document 8

BODY_TOO_LARGE = _("The request body is larger than %(kilobytes)s kB.")
BODY_TOO_DEEP = _("The JSON body is nested more than %(depth)s levels deep.")
BODY_NOT_JSON = _("The request body is not valid JSON: %(reason)s")

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
_PAIR = re.compile(rb"\[\]|\{\}")  # an innermost pair: one pass removes one level


def _errors():
    # Imported here: DRF reads its settings, and so this module, while config.errors is still
    # importing rest_framework.views.
    from config import errors

    return errors


def _check(data) -> None:
    from config.inputs import check_text

    check_text(data)


def nested_deeper_than(raw: bytes, depth: int) -> bool:
    """Whether arrays and objects in ``raw`` nest more than ``depth`` levels (strings skipped).

    Regular expressions and byte counts only (C speed, no recursion): a body with few brackets
    is answered by counting them; otherwise each pass removes the innermost pairs, so more
    than ``depth`` passes mean too deep. Unbalanced brackets stop early (the JSON parser then
    refuses the body)."""
    if raw.count(b"[") + raw.count(b"{") <= depth:
        return False
    brackets = _NOT_BRACKET.sub(b"", _STRING.sub(b"", raw))
    if brackets.count(b"[") + brackets.count(b"{") <= depth:
        return False
    if re.search(rb"[\[{]{%d}" % (depth + 1), brackets):  # the usual attack: one long run
        return True
    for _level in range(depth):
        shorter = _PAIR.sub(b"", brackets)
        if not shorter or len(shorter) == len(brackets):
            return False
        brackets = shorter
    return True


def parsed_bytes_estimate(raw: bytes) -> int:
    """About how many bytes of memory ``json.loads(raw)`` will take, counted in C on the bytes
    before any of it becomes a Python object (a regular expression's pieces would themselves
    take hundreds of MB on ``[{},{},…]``): a dict ~200 bytes, a list ~64, each further element
    or member ~16, a string ~50 (two quotes). Brackets, commas and quotes inside strings count
    too, and keys (shared by the parser) as strings: it errs on the high side."""
    return (200 * raw.count(b"{") + 64 * raw.count(b"[") + 16 * raw.count(b",")
            + 24 * raw.count(b'"'))


def read_bounded(stream, limit: int) -> bytes:
    """At most ``limit`` bytes of ``stream``; refuses (413) a longer body without reading it."""
    errors = _errors()
    raw = stream.read(limit + 1) if stream is not None else b""
    if len(raw) > limit:
        raise errors.DomainError(
            BODY_TOO_LARGE, code="body_too_large", http_status=413,
            params={"kilobytes": limit // 1024},
        )
    return raw


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def parse_json(raw: bytes, *, max_depth: int = JSON_MAX_DEPTH):
    """Bytes to Python, refusing too deep nesting and broken JSON with a 400."""
    errors = _errors()
    if nested_deeper_than(raw, max_depth):
        raise errors.DomainError(BODY_TOO_DEEP, code="body_too_deep", params={"depth": max_depth})
    try:
        return json.loads(raw.decode(settings.DEFAULT_CHARSET), parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise errors.DomainError(
            BODY_NOT_JSON, code="body_not_json", params={"reason": str(error)[:120]}
        ) from None


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        view = (parser_context or {}).get("view")
        limit = getattr(view, "max_json_bytes", None) or getattr(
            settings, "JSON_MAX_BYTES", JSON_MAX_BYTES
        )
        data = parse_json(read_bounded(stream, limit))
        _check(data)
        return data


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        _check(dict(data.lists()))
        return data


class MultiPartParser(parsers.MultiPartParser):
    """Form fields are checked; uploaded files are the importers' business."""

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        _check(dict(parsed.data.lists()))
        return parsed
