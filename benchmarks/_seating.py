"""Helpers of the seating benches (no Django): one instance seated and timed, and the closing
line on missed targets (a goal not met is printed; ``make bench`` fails only when something
breaks)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.seating import SeatingResult, seat_rounds  # noqa: E402


def seat_timed(**arguments: Any) -> tuple[SeatingResult, float]:
    """``seat_rounds(**arguments)`` and the seconds it took (the bench's "time s")."""
    started = time.perf_counter()
    result = seat_rounds(**arguments)
    return result, time.perf_counter() - started


def missed_targets(missed: int) -> int:
    """The bench's exit status after the closing line: 0, a missed target is printed, not
    failed."""
    if missed:
        print(f"{missed} instance(s) missed their target (see MISSED TARGET above)")
    return 0
