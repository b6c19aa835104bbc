"""Bench helpers: start threads together and time them until the last one is done; the median
and 95th percentile of timed samples, as the figures a bench reports."""

from __future__ import annotations

import statistics
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


def p95(samples: list[float]) -> float:
    """The 95th percentile (a single sample is its own)."""
    return statistics.quantiles(samples, n=100)[94] if len(samples) > 1 else samples[0]


def percentiles(name: str, samples: list[float], *, digits: int = 2) -> dict[str, float | None]:
    """``<name>_p50_ms`` and ``<name>_p95_ms`` of samples in milliseconds, rounded to
    ``digits`` (``p50_ms`` and ``p95_ms`` without a name; None without samples)."""
    prefix = f"{name}_" if name else ""
    if not samples:
        return {f"{prefix}p50_ms": None, f"{prefix}p95_ms": None}
    return {
        f"{prefix}p50_ms": round(statistics.median(samples), digits),
        f"{prefix}p95_ms": round(p95(samples), digits),
    }
