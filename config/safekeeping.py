"""Whether the request's confirmed result already has a copy off the laptop.

The event laptop (``laptop.receivers``) copies the database in the request that confirms a
result and notes here how that went; the console's answer says it ("… a copy is on the backup
stick" or that there is none). Elsewhere (PostgreSQL has its own backups) nothing is noted.
Per thread: a request runs in one thread from the confirmation to its answer.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

_local = threading.local()


@dataclass(frozen=True)
class CopyNote:
    made: bool
    detail: str  # the copy's path, or why there is none


def note_copy(*, made: bool, detail: str) -> None:
    _local.note = CopyNote(made, detail)


def take_copy_note() -> CopyNote | None:
    """The note of this thread's last copy, once (then forgotten)."""
    note = getattr(_local, "note", None)
    _local.note = None
    return note
