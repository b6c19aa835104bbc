"""Proven lower bounds, so that the search can stop as soon as it reaches one.

Repeats: count every extra meeting in the round where it happens (rounds in order, history
first). A round's share is at least the number of its pairs that met in *one* chosen earlier
round, and that is bounded by pigeonhole: a table of ``t`` players drawn from ``m`` groups of the
earlier round (its tables, plus absent players as singletons) holds at least ``spread(t, m)``
pairs of one group, and a group of ``g`` spread over ``k`` tables leaves at least
``spread(g, k)``. 30 players at 5 tables of 6 for 2 rounds: every new table holds 2 players of
one earlier table, so at least 5 repeats.

A second, counting bound: a player meets at least ``R * (smallest table - 1)`` others but only
has ``n - 1 - (earlier partners)`` new people to meet.

Club-mates: each club of ``c`` spread over ``k`` tables, per round.
"""

from __future__ import annotations

from collections.abc import Sequence


def spread(total: int, bins: int) -> int:
    """Fewest pairs sharing a bin when ``total`` items go into ``bins`` bins."""
    if bins <= 0:
        return 0
    each, extra = divmod(total, bins)
    return extra * (each + 1) * each // 2 + (bins - extra) * each * (each - 1) // 2


def round_overlap_bound(*, sizes: Sequence[int], groups: Sequence[int]) -> int:
    """Pairs of a round with table ``sizes`` that are forced to share a group of ``groups``."""
    by_tables = sum(spread(size, len(groups)) for size in sizes)
    by_groups = sum(spread(group, len(sizes)) for group in groups)
    return max(by_tables, by_groups)


def repeat_bound(
    *, n: int, sizes: Sequence[int], rounds: int, history: Sequence[Sequence[Sequence[int]]]
) -> int:
    """Lower bound on the repeats of ``rounds`` new rounds (players ``0..n-1``)."""
    if rounds <= 0:
        return 0
    pigeonhole = 0
    if history:
        best = 0
        for tables in history:
            seated = sum(len(table) for table in tables)
            groups = [len(table) for table in tables if table] + [1] * (n - seated)
            best = max(best, round_overlap_bound(sizes=sizes, groups=groups))
        pigeonhole += best
    pigeonhole += (rounds - 1) * round_overlap_bound(sizes=sizes, groups=sizes)

    partners: list[set[int]] = [set() for _ in range(n)]
    for tables in history:
        for table in tables:
            for player in table:
                partners[player].update(table)
    fresh = [n - 1 - max(0, len(met) - 1) for met in partners]
    low, high = rounds * (min(sizes) - 1), rounds * (max(sizes) - 1)
    seats = rounds * sum(size * (size - 1) for size in sizes)
    forced = sum(max(0, low - f) for f in fresh)
    room = sum(min(high - low, max(0, f - low)) for f in fresh)
    counting = -(-(forced + max(0, seats - n * low - room)) // 2)
    return max(pigeonhole, counting)


def club_bound(*, sizes: Sequence[int], rounds: int, club_sizes: Sequence[int]) -> int:
    """Lower bound on club-mate pairs over ``rounds`` rounds."""
    return rounds * sum(spread(size, len(sizes)) for size in club_sizes)
