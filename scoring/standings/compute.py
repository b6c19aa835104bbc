"""Standings from game results: pure Python, no Django, the same whatever order results came in.

A tournament ranks its players by its format's primary measure, then by its tie-break chain.
Only confirmed results count; provisional ones (running games, unconfirmed counts) are carried
along for display, marked, and never change a total.

Two steps, so that stored lines can be placed again on read: ``compute_standings`` tallies the
figures and settles each group head-to-head must decide (``tie_order``, ``tie_break``: decided
by the group alone); ``place_lines`` orders lines by their figures and lots and those notes,
and gives the places, the deciding key and the qualification. A place shifts
with every result above it, the figures do not: stored, only the lines a result touches change.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
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
    complete: bool = True  # its round is closed (what held results publish)


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
    #: Among lines equal on the chain's keys before head-to-head (and on a final's place): its
    #: turn, 0 unless head-to-head reorders the group, and the key that put it below the line
    #: before it (``_settle_ties``).
    tie_order: int = 0
    tie_break: str = ""

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
    out: Container[int] = frozenset(),
    seated_final: Collection[int] = frozenset(),
) -> list[PlayerLine]:
    """Rank every player; equal on every criterion → equal rank (shared place). ``out``: the
    players who dropped out (ranked, never qualified: :func:`choose_finalists`);
    ``seated_final``: the players of a seated final (they are the qualified ones)."""
    lines, meetings, final_places = _tally(players, results, settings, deductions or {})
    for player, place in final_places.items():
        lines[player].final_place = place
    _settle_ties(list(lines.values()), settings, _comparison(settings, meetings))
    return place_lines(lines.values(), settings=settings, out=out, seated_final=seated_final)


def place_lines(
    lines: Iterable[PlayerLine], *, settings: Settings, out: Container[int] = frozenset(),
    seated_final: Collection[int] = frozenset(),
) -> list[PlayerLine]:
    """Order lines by their figures and settled ties, and give each its rank, the key that
    decided it and whether it qualifies: the same for lines just computed and lines read back
    from storage. Qualified are, once the final is seated, its players (``seated_final``: who
    is in the final, whatever changed since; ``verify`` checks the seating against the rule),
    before that those of :func:`choose_finalists` (``out``: the players who dropped out). A
    final's places come first (who played it), then every other line with a confirmed result;
    who has none yet is not ranked ("not played yet", never placed by lot) and listed last, by
    id."""
    prefix, rest = _split_chain(settings)
    lines = list(lines)
    ahead = {line.player: _values(line, prefix, settings) for line in lines}

    def key(line: PlayerLine) -> tuple:
        return (*ahead[line.player], line.tie_order, *_values(line, rest, settings), line.player)

    finalists = sorted((line for line in lines if line.final_place is not None),
                       key=lambda line: (line.final_place, *key(line)))
    ranked = sorted((line for line in lines if line.final_place is None and line.games), key=key)
    unranked = sorted((line for line in lines if line.final_place is None and not line.games),
                      key=lambda line: line.player)

    def decided(above: PlayerLine, below: PlayerLine) -> str:
        """The key that puts ``below`` under ``above`` (its neighbour); "" when equal."""
        for name, a, b in zip(prefix, ahead[above.player], ahead[below.player], strict=True):
            if a != b:
                return name
        return below.tie_break  # one group: settled when computed

    ordered = finalists + ranked
    for line in lines:
        line.rank, line.decided_by, line.qualified = 0, "", False
    chosen = (set() if finalists else set(seated_final) if seated_final
              else set(choose_finalists(ordered, settings=settings, out=out)))
    last = max((position for position, line in enumerate(ordered, start=1)
                if line.player in chosen), default=0)
    boundaries = _lot_boundaries(settings, qualifying=not finalists,
                                 last=last if settings.format != "table_winners" else 0)
    _rank(ordered, decided, decisive=_decisive_lots(ordered, decided, boundaries))
    for line in ordered:
        line.qualified = line.player in chosen
    return ordered + unranked


def choose_finalists(
    ordered: Sequence[PlayerLine], *, settings: Settings, out: Container[int] = frozenset(),
) -> list[int]:
    """Who reaches the final, in the order they qualify: the one rule of the standings' mark,
    the round desk's list and the seating of the final (``scoring.standings.services.
    finalists``). ``ordered``: the ranked lines in the standings' order; ``out``: players who
    dropped out, never chosen (the next in line moves up). By the format: the first
    ``settings.finalists`` of the ranking; for table winners, the winners of the latest round's
    tables, then the best runners-up by net worth (:func:`table_winners_qualifiers`)."""
    eligible = [line for line in ordered if line.player not in out and line.games]
    if settings.format != "table_winners":
        return [line.player for line in eligible[: settings.finalists]]
    played = {(int(number), line.player): figures for line in eligible
              for number, figures in line.rounds.items() if figures.get("final", True)}
    if not played:
        return []
    latest = max(number for number, _player in played)
    rows = [GameResultRow(round=latest, table=figures["table"], player=player,
                          place=figures["place"], net_worth=figures["net_worth"])
            for (number, player), figures in played.items() if number == latest]
    return table_winners_qualifiers(results=rows, seats=settings.finalists)


def _chain(settings: Settings) -> list[str]:
    primary = PRIMARY.get(settings.format, "points")
    return [primary] + [key for key in settings.tie_breaks if key != primary]


def _split_chain(settings: Settings) -> tuple[list[str], list[str]]:
    """The chain's keys before head-to-head and after it: each a value of the line alone (a
    figure, or its lot). Head-to-head compares two lines: it is settled where it matters,
    within the group of lines equal on the first keys (``_settle_ties``)."""
    chain = _chain(settings)
    if "head_to_head" not in chain:
        return chain, []
    cut = chain.index("head_to_head")
    return chain[:cut], [key for key in chain[cut + 1:] if key != "head_to_head"]


def _values(line: PlayerLine, keys: Sequence[str], settings: Settings) -> tuple:
    """The line's values of ``keys``, each sorting better first."""
    return tuple(_lot_key(settings.lot_seed, line.player) if key == "lot" else -line.measure(key)
                 for key in keys)


def _settle_ties(
    lines: list[PlayerLine], settings: Settings,
    compare: Callable[[PlayerLine, PlayerLine], tuple[int, str]],
) -> None:
    """Order each group of ranked lines equal on the keys before head-to-head (and on a
    final's place) by the whole chain, and note what a read needs to order them so again:
    ``tie_order``, 0 unless head-to-head puts a line before one that the later keys (and
    then the id) would put first, and ``tie_break``, the key that puts a line below the one
    before it. Only the group's lines and their meetings decide these, so a result elsewhere
    leaves them as they were, and a line joining a group moves no other line's turn."""
    prefix, rest = _split_chain(settings)
    groups: dict[tuple, list[PlayerLine]] = defaultdict(list)
    for line in lines:
        line.tie_order, line.tie_break = 0, ""
        if line.games or line.final_place is not None:
            groups[(line.final_place, *_values(line, prefix, settings))].append(line)
    for group in groups.values():
        if len(group) < 2:  # a group of one is settled
            continue
        group.sort(key=cmp_to_key(lambda a, b: compare(a, b)[0]))
        turn, before = 0, None
        for index, line in enumerate(group):
            after = (*_values(line, rest, settings), line.player)
            if before is not None and after < before:
                turn += 1  # head-to-head put it here, against the later keys
            line.tie_order, before = turn, after
            line.tie_break = compare(group[index - 1], line)[1] if index else ""


def _tally(
    players: Iterable[int], results: Iterable[GameResultRow], settings: Settings,
    deductions: Mapping[int, int],
) -> tuple[dict[int, PlayerLine], dict[tuple[int, int], list[int]], dict[int, int]]:
    """Each player's line (rounds, points, sums, wins, deductions), who met whom at a table
    ((a, b) → [+1 where a placed better, −1 where worse]) and the places at a deciding final."""
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
    for player, points in deductions.items():
        line = lines.setdefault(player, PlayerLine(player))
        line.points -= points
        line.deducted = points
    for rows in by_game.values():
        for a in rows:
            for b in rows:
                if a.player < b.player and a.place != b.place:
                    meetings[(a.player, b.player)].append(1 if a.place < b.place else -1)
    return lines, meetings, final_places


def _comparison(
    settings: Settings, meetings: Mapping[tuple[int, int], list[int]]
) -> Callable[[PlayerLine, PlayerLine], tuple[int, str]]:
    """The order of two lines by the format's measure, then the tie-breaks in turn."""
    chain = _chain(settings)

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

    return compare


def _rank(
    ordered: list[PlayerLine], decided: Callable[[PlayerLine, PlayerLine], str], *,
    decisive: set[int],
) -> None:
    """Ranks in order: a final's places first, then shared where nothing tells two lines apart
    (a lot only where it decides something: ``decisive`` positions). ``decided``: the key
    that puts a line under its neighbour above, "" when they are equal."""
    previous: PlayerLine | None = None
    for position, line in enumerate(ordered, start=1):
        if previous is None:
            line.rank = 1
        elif previous.final_place is not None and line.final_place is not None:
            line.rank = position
            line.decided_by = (
                "final" if previous.final_place != line.final_place else decided(previous, line)
            )
        elif previous.final_place is not None:
            line.rank, line.decided_by = position, "final"
        else:
            key = decided(previous, line)
            if key == "lot" and position not in decisive:
                key = ""  # a tie that decides nothing is shared, not drawn
            line.rank = position if key else previous.rank
            line.decided_by = key
        previous = line


PODIUM = 3


def _lot_boundaries(settings: Settings, *, qualifying: bool, last: int = 0) -> set[int]:
    """Positions p where the order of p and p + 1 matters: the podium, the qualification line
    (``last``: the position of the last qualifier, lower than the number of finalists when
    players who dropped out are passed over)."""
    lines = set(range(1, PODIUM + 1))
    if qualifying and settings.finalists:
        lines.add(last or settings.finalists)
    return lines


def _decisive_lots(ordered: list[PlayerLine], decided, boundaries: set[int]) -> set[int]:
    """Positions whose lot with the line above counts: its tied group (equal but for the lot)
    spans a boundary. One pass over the neighbours."""
    decisive: set[int] = set()
    start = 1
    for position in range(2, len(ordered) + 2):
        tied = position <= len(ordered) and (
            ordered[position - 1].final_place is None
            and decided(ordered[position - 2], ordered[position - 1]) == "lot"
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

