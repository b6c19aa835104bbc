"""Bench helper: start threads together and time them until the last one is done."""

from __future__ import annotations

import threading
import time


def run_together(threads: list[threading.Thread]) -> float:
    """Starts every thread, waits for all of them; the wall time in seconds."""
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started
