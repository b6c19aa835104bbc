"""Rules-engine speed: replaying records and rebuilding a table's state.

Run from the repository root: ``python benchmarks/bench_engine.py`` (no Django needed).
Goals: replay >= 50,000 events/s; rebuild a 300-event game in < 10 ms (what a ``void`` costs
the console).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rules import legal_actions, replay  # noqa: E402
from referee.rules.simulate import random_game  # noqa: E402

RUNS = 7


def best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def karlsruhe_game(events: int, seed: int, **options):
    """A legal six-player Karlsruhe game that does not end; every event carries a time, as the
    console writes them."""
    return random_game(
        ruleset="karlsruhe", players=("anna", "ben", "carla", "dieter", "eva", "frank"),
        events=events, seed=seed, allow_ending=False, allow_void=False, clock=True, **options,
    )


def main() -> None:
    big = karlsruhe_game(5000, 2026, seconds_per_event=1).to_record()
    assert len(big["events"]) == 5000
    seconds = best_of(RUNS, lambda: replay(big))
    rate = len(big["events"]) / seconds
    print(
        f"replay   5,000-event record: {seconds * 1000:7.1f} ms  = {rate:>9,.0f} events/s"
        f"  (goal >= 50,000)  {'ok' if rate >= 50_000 else 'TOO SLOW'}"
    )

    ledger = random_game(
        ruleset="classic", events=5000, seed=7, ledger=True, allow_ending=False, allow_void=False
    ).to_record()
    seconds = best_of(RUNS, lambda: replay(ledger))
    print(
        f"replay   5,000-event ledger record (classic, no times): "
        f"{len(ledger['events']) / seconds:>9,.0f} events/s"
    )

    small = karlsruhe_game(300, 45)
    record = small.to_record()
    seconds = best_of(50, lambda: replay(record))
    print(
        f"rebuild  300-event game state: {seconds * 1000:7.2f} ms  (goal < 10 ms)  "
        f"{'ok' if seconds < 0.010 else 'TOO SLOW'}"
    )

    target = next(i for i, e in enumerate(small.events) if e["type"] == "cash")
    void = {"type": "void", "event": target, "reason": "miscounted"}
    seconds = best_of(50, lambda: small.check(void))
    print(f"check    a void in that game (full rebuild): {seconds * 1000:7.2f} ms")

    event = {"type": "pay", "from": "anna", "to": "ben", "amount": 10}
    loops = 20_000
    started = time.perf_counter()
    for _ in range(loops):
        small.check(event)
    print(
        f"check    one event (console dry run): {(time.perf_counter() - started) / loops * 1e6:7.2f} µs"
    )

    seconds = best_of(50, lambda: legal_actions(small, "anna"))
    print(f"legal_actions for one player: {seconds * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
