"""The shape of a banker's event before the rules engine sees it: the fields each type may
carry (``../shared/spec/game-record.md`` plus the console's own: a rent payment's ``deed`` and
``dice``, a pause's ``reason``), a length for free text and lists, and a size per event.

The engine checks what the fields mean; this checks that nothing else rides along. An event is
stored as sent and shown to every spectator in the feed, so an unknown field or a 2 MB note would
be kept for ever and sent with every state read.
"""

from __future__ import annotations

import json
from typing import Any

from referee.errors import (
    EVENT_TOO_LARGE,
    LIST_TOO_LONG,
    NESTED_VALUE,
    TEXT_TOO_LONG,
    UNKNOWN_FIELDS,
    BadEvent,
)

EVENT_MAX_BYTES = 4096  # the largest real event (a trade of 22 deeds) is about 600 bytes
TEXT_MAX = 500  # characters of a free-text field (a pause's or a void's reason)
LIST_MAX = 40  # deeds in one trade or pay-off list (a board has 28)

_CLOCK = frozenset({"at"})
FIELDS: dict[str, frozenset[str]] = {
    "start": _CLOCK,
    "pause": _CLOCK | {"reason"},
    "resume": _CLOCK,
    "auction_stop": _CLOCK,
    "time_up": _CLOCK,
    "end": _CLOCK,
    "deal": _CLOCK | {"player", "deed"},
    "buy": _CLOCK | {"player", "deed"},
    "auction": _CLOCK | {"deed", "winner", "price"},
    "build": _CLOCK | {"deed", "price"},
    "sell_building": _CLOCK | {"deed"},
    "mortgage": _CLOCK | {"deed"},
    "unmortgage": _CLOCK | {"deed"},
    "trade": _CLOCK | {"from", "to", "deeds", "cash", "unmortgage"},
    "jail": _CLOCK | {"player"},
    "release": _CLOCK | {"player", "fine"},
    "pay": _CLOCK | {"from", "to", "amount", "reason", "deed", "dice"},
    "cash": _CLOCK | {"player", "amount"},
    "bankrupt": _CLOCK | {"player", "creditor", "unmortgage"},
    "void": _CLOCK | {"event", "reason"},
}


def check_event_shape(event: dict[str, Any]) -> None:
    """Refuse (400) unknown fields, oversized events, long texts and lists, nested objects.

    Types the schema does not know are left to the engine, which refuses them by name."""
    kind = event.get("type")
    allowed = FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is not None:
        unknown = sorted(str(name) for name in event if name != "type" and name not in allowed)
        if unknown:
            names = ", ".join(f"“{name[:40]}”" for name in unknown[:5])
            raise BadEvent(UNKNOWN_FIELDS, code="unknown_event_field",
                           params={"type": kind, "fields": names})
    size = len(json.dumps(event, ensure_ascii=False, default=str).encode())
    if size > EVENT_MAX_BYTES:
        raise BadEvent(EVENT_TOO_LARGE, code="event_too_large",
                       params={"size": size, "max": EVENT_MAX_BYTES})
    for name, value in event.items():
        if isinstance(value, str) and len(value) > TEXT_MAX:
            raise BadEvent(TEXT_TOO_LONG, code="event_text_too_long",
                           params={"field": name, "max": TEXT_MAX})
        if isinstance(value, list):
            if len(value) > LIST_MAX:
                raise BadEvent(LIST_TOO_LONG, code="event_list_too_long",
                               params={"field": name, "max": LIST_MAX})
            if any(isinstance(item, dict | list) for item in value):
                raise BadEvent(NESTED_VALUE, code="event_nested_value", params={"field": name})
        elif isinstance(value, dict):
            raise BadEvent(NESTED_VALUE, code="event_nested_value", params={"field": name})
