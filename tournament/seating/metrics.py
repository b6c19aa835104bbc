"""Counting meetings, repeats and club-mates; cheap what-if helpers for the organizer page.

Everything here works on players as arbitrary hashable ids and is independent of the search
(the search keeps its own incremental counts; these are the reference the tests compare with).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

Player = Hashable
Table = Sequence[Player]
Round = Sequence[Table]
Meetings = Mapping[frozenset, int]


def pair_meetings(*, rounds: Iterable[Round]) -> Counter[frozenset]:
    """How often each unordered pair sat at one table, over ``rounds``."""
    meetings: Counter[frozenset] = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                meetings[frozenset((a, b))] += 1
    return meetings


def count_repeats(*, rounds: Iterable[Round], history: Iterable[Round] = ()) -> int:
    """Extra meetings that ``rounds`` add: a pair meeting k times counts k - 1.

    Meetings in ``history`` count as earlier meetings, but repeats inside the history itself are
    not counted again (they are already played and cannot change): the result is
    ``sum(max(0, total - 1) - max(0, in_history - 1))`` over all pairs.
    """
    before = pair_meetings(rounds=history)
    after = before.copy()
    after.update(pair_meetings(rounds=rounds))
    return sum(max(0, count - 1) - max(0, before[pair] - 1) for pair, count in after.items())


def count_same_club(*, rounds: Iterable[Round], clubs: Mapping[Player, Hashable] | None) -> int:
    """Pairs of club-mates seated together, summed over ``rounds``; ``None`` club = no club."""
    if not clubs:
        return 0
    return sum(table_club_pairs(table=table, clubs=clubs) for tables in rounds for table in tables)


def table_repeats(*, table: Table, meetings: Meetings) -> int:
    """Pairs at ``table`` that have met before (each pair is one extra meeting).

    ``meetings`` are the meetings outside this table's round (``pair_meetings`` of the history
    and of the other rounds). With only the *earlier* rounds as ``meetings`` the per-table
    counts of a round add up to that round's share of ``repeated_pairs``; with all other rounds
    they show every table that takes part in a repeat.
    """
    return sum(1 for a, b in combinations(table, 2) if meetings.get(frozenset((a, b)), 0) > 0)


def table_club_pairs(*, table: Table, clubs: Mapping[Player, Hashable] | None) -> int:
    """Pairs of club-mates at ``table``."""
    if not clubs:
        return 0
    per_club = Counter(clubs.get(player) for player in table)
    per_club.pop(None, None)
    return sum(count * (count - 1) // 2 for count in per_club.values())


@dataclass(frozen=True, slots=True)
class SeatingDelta:
    """Change of a round's repeats and club-mate pairs if an edit were made (negative = better)."""

    repeats: int
    same_club: int


def _locate(tables: Sequence[Table], player: Player) -> int:
    for index, table in enumerate(tables):
        if player in table:
            return index
    raise KeyError(f"player {player!r} is not seated in this round")


def _cost_with(
    player: Player, others: Iterable[Player], meetings: Meetings, clubs: Mapping | None
) -> tuple[int, int]:
    repeats = same_club = 0
    club_of = clubs or {}
    club = club_of.get(player)
    for other in others:
        if other == player:
            continue
        if meetings.get(frozenset((player, other)), 0) > 0:
            repeats += 1
        if club is not None and club_of.get(other) == club:
            same_club += 1
    return repeats, same_club


def evaluate_swap(
    *,
    tables: Sequence[Table],
    a: Player,
    b: Player,
    meetings: Meetings,
    clubs: Mapping[Player, Hashable] | None = None,
) -> SeatingDelta:
    """Effect on the round's repeats and club pairs of exchanging the seats of ``a`` and ``b``.

    O(table size): the organizer page can show it for every candidate before saving.
    ``meetings`` as for :func:`table_repeats`.
    """
    ta, tb = _locate(tables, a), _locate(tables, b)
    if ta == tb:
        return SeatingDelta(0, 0)
    rest_a = [p for p in tables[ta] if p != a]
    rest_b = [p for p in tables[tb] if p != b]
    old = [_cost_with(a, rest_a, meetings, clubs), _cost_with(b, rest_b, meetings, clubs)]
    new = [_cost_with(a, rest_b, meetings, clubs), _cost_with(b, rest_a, meetings, clubs)]
    return SeatingDelta(
        repeats=sum(r for r, _ in new) - sum(r for r, _ in old),
        same_club=sum(c for _, c in new) - sum(c for _, c in old),
    )


def evaluate_move(
    *,
    tables: Sequence[Table],
    player: Player,
    to_table: int,
    meetings: Meetings,
    clubs: Mapping[Player, Hashable] | None = None,
) -> SeatingDelta:
    """Effect of moving ``player`` to ``tables[to_table]`` (table sizes are not checked)."""
    source = _locate(tables, player)
    if source == to_table:
        return SeatingDelta(0, 0)
    old = _cost_with(player, tables[source], meetings, clubs)
    new = _cost_with(player, tables[to_table], meetings, clubs)
    return SeatingDelta(repeats=new[0] - old[0], same_club=new[1] - old[1])
