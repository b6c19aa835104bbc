"""The console's feed: a table's events in words and times, newest first, each row kept per
process by what it reads (issue 29: the 20 rows were described again on every post)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import get_language

from config.kept import Kept
from referee import rules
from referee.feed import describe
from referee.words import Names, parse_at

#: Events the banker may cancel with a correction (server events and the start are not).
VOIDABLE = frozenset(rules.EVENT_TYPES) - {"start", "void", "auction_stop", "time_up"}
FEED_LENGTH = 20


#: Feed rows kept per process (their words and times; issue 29: the 20 rows were described
#: again on every post), keyed by everything they read: see ``_feed_row``.
FEED_ROWS_KEPT = 2048
_feed_rows: Kept[dict[str, Any]] = Kept(size=FEED_ROWS_KEPT)
#: A token per reading of the events (names, board, language, time zone): a row's key holds
#: the token, not the tuple (hashed again for each of the 20 rows).
_feed_readers: Kept[object] = Kept(size=256)


def _feed_reader(*, names: Names, language: str | None, zone: Any) -> object:
    """The token of what the feed's words and times read besides the event itself."""
    return _feed_readers.get(
        key=(language, zone, names.board, tuple(names.players.items())), make=object)


def _feed_row(*, event: Any, names: Names, reader: object) -> dict[str, Any]:
    """The words and times of one event, kept by what they read: the event itself (its
    ``repr``: plain JSON data) and ``reader`` (``_feed_reader``: the players' names, the
    board, the language and the time zone). Whether the event is voided is not part of it
    (the caller adds that)."""

    def make() -> dict[str, Any]:
        is_dict = isinstance(event, dict)
        at = parse_at(event.get("at")) if is_dict else None
        made = parse_at(event.get("made_at")) if is_dict else None
        at = timezone.localtime(at) if at else None
        made = timezone.localtime(made) if made else None
        return {
            "type": event.get("type") if is_dict else None,
            "text": describe(event, names),
            "at": at,
            "time": f"{at:%H:%M:%S}" if at else "",  # as the time filter's "H:i:s" writes it
            # made offline, arrived later (``referee.services.made_at``)
            "made_at": made,
            "made_time": f"{made:%H:%M:%S}" if made else "",
        }

    return _feed_rows.get(key=(reader, repr(event)), make=make)


def feed(engine: rules.Game, names: Names, feed_all: bool) -> list[dict[str, Any]]:
    """The console's feed, newest first: the last ``FEED_LENGTH`` events (all with
    ``feed_all``), each with its words, times and whether it is voided or may be."""
    count = len(engine)
    voided = engine.voided
    start = 0 if feed_all else max(0, count - FEED_LENGTH)
    events = engine.events_from(start)  # the feed's own, not the whole record copied
    reader = _feed_reader(names=names, language=get_language(),
                          zone=timezone.get_current_timezone())
    out = []
    for index in range(count - 1, start - 1, -1):
        row = _feed_row(event=events[index - start], names=names, reader=reader)
        kind = row["type"]
        out.append({
            "index": index,
            **row,
            "voided": index in voided,
            "voidable": kind in VOIDABLE and index not in voided,
        })
    return out
