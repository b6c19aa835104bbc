"""Official tournament layout (issue 18): tables of 4 with 5s, and the 8-4-10 Social Golfer case.

    python benchmarks/bench_seating_official.py [--seconds 10] [--seed 1]

Per instance: repeated pairs reached, the time taken, and a lower bound this bench computes
itself (independently of the generator's own bound): the larger of

- *pigeonhole*: two rounds of ``k`` tables; a table of ``t`` players drawn from the ``k``
  tables of an earlier round holds at least ``spread(t, k)`` pairs of one earlier table, so
  every round after the first adds at least that many repeats;
- *counting*: a player at tables of at least ``s`` meets ``R * (s - 1)`` others, but only
  ``n - 1`` exist; the excess, summed over players and halved, must be repeats.

8-4-10 (32 players, 10 rounds, tables of 4; solvable without a repeat) has the target 0; a miss
is printed (exit 0).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _seating import missed_targets, seat_timed  # noqa: E402

from tournament.seating import count_repeats, table_sizes  # noqa: E402


def spread(total: int, bins: int) -> int:
    each, extra = divmod(total, bins)
    return extra * (each + 1) * each // 2 + (bins - extra) * each * (each - 1) // 2


def lower_bound(n: int, sizes: list[int], rounds: int) -> int:
    pigeonhole = (rounds - 1) * sum(spread(size, len(sizes)) for size in sizes)
    needed = rounds * (min(sizes) - 1)
    counting = -(-max(0, n * (needed - (n - 1))) // 2)
    return max(pigeonhole, counting)


CASES = [
    {"players": 32, "rounds": 10, "larger": False, "target": 0, "note": "social golfer 8-4-10"},
    {"players": 22, "rounds": 3, "larger": True, "note": "4/5 tables"},
    {"players": 37, "rounds": 3, "larger": True, "note": "4/5 tables"},
    {"players": 101, "rounds": 3, "larger": True, "note": "4/5 tables"},
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per instance")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    header = f"{'players':>7} {'rounds':>6} {'tables':>14} {'repeats':>7} {'bound':>5} {'time s':>7}  note"
    print(header)
    print("-" * len(header))
    missed = 0
    for case in CASES:
        sizes = table_sizes(n=case["players"], table_size=4, larger=case["larger"])
        result, elapsed = seat_timed(
            players=case["players"],
            rounds=case["rounds"],
            table_size=4,
            larger=case["larger"],
            seed=args.seed,
            seconds=args.seconds,
        )
        repeats = count_repeats(rounds=result.rounds)  # independent recount
        assert repeats == result.repeated_pairs
        bound = lower_bound(case["players"], sizes, case["rounds"])
        layout = f"{sizes.count(5)}x5+{sizes.count(4)}x4"
        note = case["note"]
        if "target" in case and repeats > case["target"]:
            missed += 1
            note = f"MISSED TARGET {case['target']}; {note}"
        print(
            f"{case['players']:>7} {case['rounds']:>6} {layout:>14} {repeats:>7} {bound:>5} "
            f"{elapsed:>7.2f}  {note}",
            flush=True,
        )
    return missed_targets(missed)


if __name__ == "__main__":
    sys.exit(main())
