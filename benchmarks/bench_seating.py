"""Seating generator benchmark: repeats reached vs target and time, per instance (no Django).

    python benchmarks/bench_seating.py [--seconds 10] [--seed 1] [--extra]

Targets are the proven optima (0 repeats where a zero-repeat schedule exists, the pigeonhole
bound 5 for 30 players in 2 rounds; 0 club-mate pairs). ``cost`` is the minimised objective
(repeats + 10 x club-mate pairs), ``bound`` its proven lower bound; the generator stops as soon
as it reaches the bound ("optimal"), so "time" is the time to the optimum when it is found.
``--extra`` adds harder instances without a known target. A missed target is printed (exit 0).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _seating import missed_targets, seat_timed  # noqa: E402

from tournament.seating import count_repeats, count_same_club  # noqa: E402


def random_round(players: list[int], size: int, rng: random.Random) -> list[list[int]]:
    """A seating as another tool might have made it: a random split into tables."""
    shuffled = players[:]
    rng.shuffle(shuffled)
    return [shuffled[i : i + size] for i in range(0, len(shuffled), size)]


def random_clubs(players: list[int], low: int, high: int, rng: random.Random) -> dict[int, str]:
    """Everybody in a club of ``low``..``high`` members (the last club may be smaller)."""
    shuffled = players[:]
    rng.shuffle(shuffled)
    clubs: dict[int, str] = {}
    start = number = 0
    while start < len(shuffled):
        size = rng.randint(low, high)
        for player in shuffled[start : start + size]:
            clubs[player] = f"club {number}"
        start += size
        number += 1
    return clubs


def instances(extra: bool) -> list[dict]:
    rng = random.Random(2024)
    big = list(range(1, 1201))
    cases = [
        {"players": 36, "rounds": 3, "target": 0},
        {"players": 42, "rounds": 5, "target": 0},
        {"players": 48, "rounds": 6, "target": 0},
        {"players": 50, "rounds": 7, "target": 0},
        {"players": 30, "rounds": 2, "target": 5},
        {
            "players": 1200,
            "rounds": 1,
            "target": 0,
            "history": [random_round(big, 6, rng), random_round(big, 6, rng)],
            "clubs": random_clubs(big, 4, 10, rng),
            "note": "history 2 random rounds, clubs of 4-10",
        },
    ]
    if extra:
        cases += [
            {"players": 42, "rounds": 5, "clubs": random_clubs(list(range(1, 43)), 4, 10, rng),
             "note": "clubs of 4-10"},
            {"players": 59, "rounds": 7, "note": "10 tables: no full design"},
            {"players": 32, "rounds": 10, "table_size": 4, "note": "social golfer 8-4-10"},
            {"players": 120, "rounds": 15, "note": "20 tables, near saturation"},
            {"players": 1200, "rounds": 5, "clubs": random_clubs(big, 4, 10, rng),
             "note": "5 rounds, clubs of 4-10"},
        ]  # fmt: skip
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per instance")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--extra", action="store_true", help="also run harder instances")
    args = parser.parse_args()

    header = (
        f"{'players':>7} {'rounds':>6} {'size':>4} {'repeats':>7} {'target':>6} "
        f"{'club':>4} {'cost':>5} {'bound':>5} {'time s':>7}  note"
    )
    print(header)
    print("-" * len(header))
    missed = 0
    for case in instances(args.extra):
        history, clubs = case.get("history", ()), case.get("clubs")
        size = case.get("table_size", 6)
        result, elapsed = seat_timed(
            players=case["players"],
            rounds=case["rounds"],
            table_size=size,
            clubs=clubs,
            history=history,
            seed=args.seed,
            seconds=args.seconds,
        )
        # Independent recount, so the figures do not rely on the generator's own bookkeeping.
        repeats = count_repeats(rounds=result.rounds, history=history)
        same_club = count_same_club(rounds=result.rounds, clubs=clubs)
        assert (repeats, same_club) == (result.repeated_pairs, result.same_club_pairs)
        target = case.get("target")
        if target is not None and (repeats > target or same_club > 0):
            missed += 1
        note = ("optimal " if result.optimal else "") + case.get("note", "")
        if target is not None and repeats > target:
            note = f"MISSED TARGET; {note}"
        print(
            f"{case['players']:>7} {case['rounds']:>6} {size:>4} {repeats:>7} "
            f"{'-' if target is None else target:>6} {same_club:>4} {result.cost:>5} "
            f"{result.lower_bound:>5} {elapsed:>7.2f}  {note}",
            flush=True,
        )
    return missed_targets(missed)


if __name__ == "__main__":
    sys.exit(main())
