"""Standings from game results: pure Python, no Django, the same whatever order results came in.

A tournament ranks its players by its format's primary measure, then by its tie-break chain.
Only confirmed results count; provisional ones (running games, unconfirmed counts) are carried
along for display, marked, and never change a total.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cmp_to_key

PRIMARY = {
    "placement_points": "points",
    "net_worth_sum": "net_worth_sum",
    "table_winners": "table_wins",
}
TIE_BREAKS = ("points", "net_worth_sum", "best_net_worth", "head_to_head", "lot", "table_wins")


@dataclass(frozen=True, slots=True)
class GameResultRow:
    """One player's result in one game."""

    round: int
    table: int
    player: int
    place: int
    net_worth: int
    bankrupt: bool = False
    final: bool = True  # confirmed; False: provisional (shown, never counted)
    is_final_round: bool = False


@dataclass(slots=True)
class PlayerLine:
    player: int
    points: int = 0
    net_worth_sum: int = 0
    best_net_worth: int = 0
    table_wins: int = 0
    games: int = 0
    rounds: dict[int, dict] = field(default_factory=dict)
    rank: int = 0
    decided_by: str = ""
    qualified: bool = False
    final_place: int | None = None
    deducted: int = 0  # penalty points already subtracted from ``points``

    def measure(self, key: str) -> int:
        return getattr(self, key)


@dataclass(frozen=True, slots=True)
class Settings:
    format: str = "placement_points"
    placement_points: tuple[int, ...] = (6, 5, 4, 3, 2, 1)
    tie_breaks: tuple[str, ...] = ("points", "net_worth_sum", "best_net_worth", "head_to_head", "lot")
    final_decides: bool = True
    finalists: int = 6
    lot_seed: int = 0


def points_for(place: int, table: Sequence[int]) -> int:
    return table[place - 1] if 1 <= place <= len(table) else 0


def _lot_key(seed: int, player: int) -> str:
    """A recorded, seeded draw: anyone with the seed can repeat it."""
    return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()


def compute_standings(
    *,
    players: Iterable[int],
    results: Iterable[GameResultRow],
    settings: Settings,
    deductions: Mapping[int, int] | None = None,
) -> list[PlayerLine]:
    """Rank every player; equal on every criterion → equal rank (shared place)."""
    lines = {pid: PlayerLine(pid) for pid in players}
    meetings: dict[tuple[int, int], list[int]] = defaultdict(list)  # (a, b) → [+1 a better …]
    final_places: dict[int, int] = {}
    by_game: dict[tuple[int, int], list[GameResultRow]] = defaultdict(list)
    for row in sorted(results, key=lambda r: (r.round, r.table, r.place, r.player)):
        line = lines.setdefault(row.player, PlayerLine(row.player))
        line.rounds[row.round] = {
            "table": row.table,
            "place": row.place,
            "net_worth": row.net_worth,
            "points": points_for(row.place, settings.placement_points),
            "bankrupt": row.bankrupt,
            "final": row.final,
        }
        if not row.final:
            continue
        by_game[(row.round, row.table)].append(row)
        if row.is_final_round and settings.final_decides:
            final_places[row.player] = row.place
            continue
        line.games += 1
        line.points += points_for(row.place, settings.placement_points)
        line.net_worth_sum += row.net_worth
        line.best_net_worth = max(line.best_net_worth, row.net_worth)
        if row.place == 1:
            line.table_wins += 1
    for player, points in (deductions or {}).items():
        line = lines.setdefault(player, PlayerLine(player))
        line.points -= points
        line.deducted = points
    for rows in by_game.values():
        for a in rows:
            for b in rows:
                if a.player < b.player and a.place != b.place:
                    meetings[(a.player, b.player)].append(1 if a.place < b.place else -1)

    primary = PRIMARY.get(settings.format, "points")
    chain = [primary] + [key for key in settings.tie_breaks if key != primary]

    def head_to_head(a: PlayerLine, b: PlayerLine) -> int:
        low, high = sorted((a.player, b.player))
        score = sum(meetings.get((low, high), ()))
        return score if a.player == low else -score

    def compare(a: PlayerLine, b: PlayerLine) -> tuple[int, str]:
        """Negative: a ranks above b; with the key that decided."""
        for key in chain:
            if key == "head_to_head":
                diff = head_to_head(a, b)
                if diff:
                    return -diff, key
            elif key == "lot":
                ka, kb = _lot_key(settings.lot_seed, a.player), _lot_key(settings.lot_seed, b.player)
                if ka != kb:
                    return (-1 if ka < kb else 1), key
            else:
                diff = b.measure(key) - a.measure(key)
                if diff:
                    return diff, key
        return 0, ""

    ordered = sorted(lines.values(), key=cmp_to_key(lambda a, b: compare(a, b)[0]))
    if settings.final_decides and final_places:
        finalists = sorted(
            (line for line in ordered if line.player in final_places),
            key=lambda line: final_places[line.player],
        )
        for line in finalists:
            line.final_place = final_places[line.player]
        # Equal places at the final table are broken by the chain (the final must name one winner).
        finalists.sort(key=cmp_to_key(
            lambda a, b: (a.final_place - b.final_place) or compare(a, b)[0]
        ))
        rest = [line for line in ordered if line.player not in final_places]
        ordered = finalists + rest
    # Who has no confirmed result yet is not ranked ("not played yet"), not placed by lot.
    unranked = [line for line in ordered if line.games == 0 and line.final_place is None]
    ordered = [line for line in ordered if line.games or line.final_place is not None]
    boundaries = _lot_boundaries(settings, qualifying=not final_places)
    decisive = _decisive_lots(ordered, compare, boundaries)
    previous: PlayerLine | None = None
    for position, line in enumerate(ordered, start=1):
        if previous is None:
            line.rank = 1
        elif previous.final_place is not None and line.final_place is not None:
            line.rank = position
            line.decided_by = (
                "final" if previous.final_place != line.final_place else compare(previous, line)[1]
            )
        elif previous.final_place is not None:
            line.rank, line.decided_by = position, "final"
        else:
            diff, key = compare(previous, line)
            if key == "lot" and position not in decisive:
                diff, key = 0, ""  # a tie that decides nothing is shared, not drawn
            line.rank = position if diff else previous.rank
            line.decided_by = key
        previous = line
    if not final_places:
        for line in ordered[: settings.finalists]:
            line.qualified = True
    for line in sorted(unranked, key=lambda line: line.player):
        line.rank = 0
        line.decided_by = ""
    return ordered + sorted(unranked, key=lambda line: line.player)


PODIUM = 3


def _lot_boundaries(settings: Settings, *, qualifying: bool) -> set[int]:
    """Positions p where the order of p and p + 1 matters: the podium, the qualification line."""
    lines = set(range(1, PODIUM + 1))
    if qualifying and settings.finalists:
        lines.add(settings.finalists)
    return lines


def _decisive_lots(ordered: list[PlayerLine], compare, boundaries: set[int]) -> set[int]:
    """Positions whose lot with the line above counts: its tied group (equal but for the lot)
    spans a boundary. One pass over the neighbours."""
    decisive: set[int] = set()
    start = 1
    for position in range(2, len(ordered) + 2):
        tied = position <= len(ordered) and (
            ordered[position - 1].final_place is None
            and compare(ordered[position - 2], ordered[position - 1])[1] == "lot"
        )
        if tied:
            continue
        end = position - 1  # the group is start..end
        if end > start and any(start <= boundary < end for boundary in boundaries):
            decisive.update(range(start + 1, end + 1))
        start = position
    return decisive


def table_winners_qualifiers(
    *, results: Iterable[GameResultRow], seats: int
) -> list[int]:
    """Knock-out: every table's winner goes on; the best runners-up by net worth fill up."""
    rows = [row for row in results if row.final]
    winners = sorted((r for r in rows if r.place == 1), key=lambda r: (-r.net_worth, r.player))
    chosen = [r.player for r in winners][:seats]
    if len(chosen) < seats:
        rest = sorted(
            (r for r in rows if r.player not in set(chosen)),
            key=lambda r: (r.place, -r.net_worth, r.player),
        )
        chosen += [r.player for r in rest[: seats - len(chosen)]]
    return chosen

