"""What the rehearsal found: each check and fault as it is decided, and the table of figures at
the end of ``python -m rehearsal.run``."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from .banker import Stats


def percentile(ordered: list[float], p: float) -> float:
    """Nearest rank: never below the median, even for two samples."""
    if not ordered:
        return float("nan")
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class Report:
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    faults: list[tuple[str, bool, str]] = field(default_factory=list)
    windows: list[tuple[float, float]] = field(default_factory=list)  # fault time windows

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append((name, bool(ok), detail))
        print(f"  [{'ok' if ok else 'FAIL'}] {name} {detail}", flush=True)
        return bool(ok)

    def fault(self, name: str, ok: bool, detail: str = "") -> None:
        self.faults.append((name, bool(ok), detail))
        print(f"  fault {name}: {'survived' if ok else 'NOT survived'} {detail}", flush=True)


def print_summary(*, report: Report, stats: Stats, elapsed: float, play_seconds: float,
                  codes: dict[int, int], deadlines: tuple[int, int, float],
                  ends: dict[str, int]) -> None:
    """The figures of the day as a Markdown table, for the log and docs/rehearsal.md."""
    s = stats
    lat = sorted(s.latencies)
    p95 = percentile(lat, 95) * 1000
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    handled = s.posted + s.replayed + s.stale + s.refused
    rate = handled / play_seconds if play_seconds else 0
    fresh = sorted(s.freshness)
    f95 = percentile(fresh, 95)
    stops, timeups, worst = deadlines
    lines = [
        ("wall time (set-up, play, checks)", f"{elapsed:.0f} s"),
        ("console posts handled", f"{handled} ({s.posted} new, {s.replayed} replayed, "
                                  f"{s.stale} stale 409, {s.refused} refused 422)"),
        ("events/s handled (play time)", f"{rate:.1f}"),
        ("console post latency p50 / p95", f"{p50:.0f} ms / {p95:.0f} ms"),
        ("retries after 5xx/no answer", f"{s.retries}"),
        ("leaderboard freshness p50 / p95 / max",
         f"{statistics.median(fresh) if fresh else float('nan'):.2f} / {f95:.2f} / "
         f"{max(fresh) if fresh else float('nan'):.2f} s"),
        ("spectator requests", ", ".join(f"{k}: {v}" for k, v in sorted(codes.items()))),
        ("server deadlines", f"{stops} auction stops, {timeups} time limits, "
                             f"worst {worst:.2f} s late"),
        ("game ends", ", ".join(f"{k or '-'}: {v}" for k, v in ends.items())),
        ("results counted/confirmed via", ", ".join(f"{k}: {v}" for k, v in
                                                    s.counted_via.items())),
        ("faults injected / survived",
         f"{len(report.faults)} / {sum(1 for f in report.faults if f[1])}"),
        ("checks passed", f"{sum(1 for c in report.checks if c[1])} / "
                          f"{len(report.checks)}"),
    ]
    width = max(len(k) for k, _ in lines)
    print("\n| what | figure |\n|---|---|")
    for key, value in lines:
        print(f"| {key.ljust(width)} | {value} |")
    print(flush=True)
