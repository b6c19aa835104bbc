"""``seat_rounds``: validate, map players to 0..n-1, construct, search, map back, recount."""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from tournament.seating import (
    bounds,
    designs,
    doubled,
    search,
)
from tournament.seating.errors import (
    INVALID_CLUBS,
    INVALID_HISTORY,
    INVALID_PLAYERS,
    INVALID_ROUNDS,
    INVALID_SECONDS,
    INVALID_WEIGHTS,
    UNKNOWN_PLAYER,
    SeatingError,
)
from tournament.seating.metrics import count_repeats, count_same_club
from tournament.seating.tables import table_sizes

Player = Hashable

#: Candidate evaluations per second of ``seconds``. The search stops after
#: ``seconds * WORK_PER_SECOND`` evaluations, which makes a seeded run reproducible on any
#: machine; the wall clock (``seconds``) is only a safety net for machines slower than about
#: half the speed this was calibrated on.
WORK_PER_SECOND = 3_500_000

DEFAULT_REPEAT_WEIGHT = 1
DEFAULT_CLUB_WEIGHT = 10


@dataclass(frozen=True, slots=True)
class SeatingResult:
    """The seating of the new rounds and its quality.

    ``rounds[r][t]`` is table ``t`` of round ``r``, players in the order they were given (for
    ``players=N``: ascending); tables are ordered by their first player. ``lower_bound`` is a
    proven lower bound of ``cost``; ``optimal`` says the search reached it.
    """

    rounds: list[list[list[Player]]]
    repeated_pairs: int
    same_club_pairs: int
    table_sizes: list[int]
    lower_bound: int
    optimal: bool
    seed: int
    repeat_weight: int = DEFAULT_REPEAT_WEIGHT
    club_weight: int = DEFAULT_CLUB_WEIGHT
    iterations: int = field(default=0, compare=False)

    @property
    def cost(self) -> int:
        """The minimised objective: weighted repeats plus weighted club-mate pairs."""
        return self.repeat_weight * self.repeated_pairs + self.club_weight * self.same_club_pairs

    def as_dict(self) -> dict[str, object]:
        """The document the ``seating`` command prints."""
        return {
            "rounds": self.rounds,
            "repeated_pairs": self.repeated_pairs,
            "same_club_pairs": self.same_club_pairs,
        }


def seat_rounds(
    *,
    players: Sequence[Player] | int,
    rounds: int,
    table_size: int = 6,
    clubs: Mapping[Player, Hashable | None] | None = None,
    history: Sequence[Sequence[Sequence[Player]]] = (),
    seed: int | None = None,
    seconds: float = 10.0,
    min_size: int | None = None,
    larger: bool = False,
    repeat_weight: int = DEFAULT_REPEAT_WEIGHT,
    club_weight: int = DEFAULT_CLUB_WEIGHT,
) -> SeatingResult:
    """Seat ``players`` for ``rounds`` further rounds, repeats and club-mates minimised.

    Minimises ``repeat_weight * repeated_pairs + club_weight * same_club_pairs`` (defaults 1
    and 10: one pair of club-mates at a table is as bad as ten repeated meetings). Table sizes
    come from :func:`table_sizes` (``larger``: ``table_size`` or one more). ``history`` (earlier rounds; players may be missing from
    it, e.g. late arrivals) counts as meetings. ``players=N`` means ids ``1..N``; ``clubs``
    maps players to a club (``None`` or absent: no club).

    Deterministic for a given ``seed`` (``None``: a fresh one, reported in the result). The
    search stops at a proven lower bound, else after a work budget worth about ``seconds``
    seconds, and never runs longer than ``seconds`` (plus the construction).

    Raises ``SeatingError`` for an impossible table split or invalid input.
    """
    started = time.perf_counter()
    ids = _players(players)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise SeatingError(INVALID_ROUNDS, f"rounds must be an integer >= 0, not {rounds!r}")
    sizes = table_sizes(n=len(ids), table_size=table_size, min_size=min_size, larger=larger)
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or seconds < 0
    ):
        raise SeatingError(INVALID_SECONDS, f"seconds must be a number >= 0, not {seconds!r}")
    for name, weight in (("repeat_weight", repeat_weight), ("club_weight", club_weight)):
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
            raise SeatingError(INVALID_WEIGHTS, f"{name} must be an integer >= 0, not {weight!r}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)

    index = {player: i for i, player in enumerate(ids)}
    club_masks = _club_masks(clubs, index)
    past = _history(history, index)
    prob = search.Problem(
        n=len(ids),
        sizes=tuple(sizes),
        rounds=rounds,
        history=past,
        club_masks=club_masks,
        repeat_weight=repeat_weight,
        club_weight=club_weight,
    )
    club_sizes = _club_sizes(clubs, index)
    lower = repeat_weight * bounds.repeat_bound(
        n=len(ids), sizes=sizes, rounds=rounds, history=past
    ) + club_weight * bounds.club_bound(sizes=sizes, rounds=rounds, club_sizes=club_sizes)

    rng = random.Random(seed)
    outcome = search.tabu_search(
        prob=prob,
        starts=lambda attempt: _start(prob, attempt, rng),
        lower_bound=lower,
        rng=rng,
        work_budget=int(seconds * WORK_PER_SECOND),
        deadline=started + seconds,
    )

    seated = [
        sorted((sorted(table) for table in tables), key=lambda table: table[0])
        for tables in outcome.rounds
    ]
    seated_ids = [[[ids[i] for i in table] for table in tables] for tables in seated]
    repeats = count_repeats(rounds=seated_ids, history=history)
    same_club = count_same_club(rounds=seated_ids, clubs=clubs)
    cost = repeat_weight * repeats + club_weight * same_club
    return SeatingResult(
        rounds=seated_ids,
        repeated_pairs=repeats,
        same_club_pairs=same_club,
        table_sizes=sizes,
        lower_bound=lower,
        optimal=cost <= lower,
        seed=seed,
        repeat_weight=repeat_weight,
        club_weight=club_weight,
        iterations=outcome.iterations,
    )


def _players(players: Sequence[Player] | int) -> list[Player]:
    if isinstance(players, bool):
        raise SeatingError(INVALID_PLAYERS, "players must be a count or a sequence of ids")
    if isinstance(players, int):
        if players < 1:
            raise SeatingError(
                INVALID_PLAYERS, f"the number of players must be >= 1, not {players}"
            )
        return list(range(1, players + 1))
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise SeatingError(INVALID_PLAYERS, "players must be a count or a sequence of ids")
    ids = list(players)
    if not ids:
        raise SeatingError(INVALID_PLAYERS, "there are no players to seat")
    try:
        distinct = len(set(ids))
    except TypeError as exc:
        raise SeatingError(INVALID_PLAYERS, f"player ids must be hashable: {exc}") from exc
    if distinct != len(ids):
        raise SeatingError(INVALID_PLAYERS, "a player is listed more than once")
    return ids


def _club_masks(clubs: Mapping[Player, Hashable] | None, index: dict) -> tuple[int, ...]:
    masks = [0] * len(index)
    if not clubs:
        return tuple(masks)
    if not isinstance(clubs, Mapping):
        raise SeatingError(INVALID_CLUBS, "clubs must map players to clubs")
    members: dict[Hashable, int] = {}
    for player, club in clubs.items():
        if player not in index:
            raise SeatingError(UNKNOWN_PLAYER, f"club list names unknown player {player!r}")
        if club is None:
            continue
        try:
            members[club] = members.get(club, 0) | 1 << index[player]
        except TypeError as exc:
            raise SeatingError(INVALID_CLUBS, f"clubs must be hashable: {exc}") from exc
    for mask in members.values():
        rest = mask
        while rest:
            low = rest & -rest
            masks[low.bit_length() - 1] = mask & ~low
            rest ^= low
    return tuple(masks)


def _club_sizes(clubs: Mapping[Player, Hashable] | None, index: dict) -> list[int]:
    sizes: dict[Hashable, int] = {}
    for player, club in (clubs or {}).items():
        if club is not None and player in index:
            sizes[club] = sizes.get(club, 0) + 1
    return list(sizes.values())


def _history(history: Sequence, index: dict) -> tuple[tuple[tuple[int, ...], ...], ...]:
    if isinstance(history, str | bytes) or not isinstance(history, Sequence):
        raise SeatingError(INVALID_HISTORY, "history must be a list of rounds")
    out = []
    for number, tables in enumerate(history, start=1):
        if isinstance(tables, str | bytes) or not isinstance(tables, Sequence):
            raise SeatingError(INVALID_HISTORY, f"history round {number} is not a list of tables")
        seen: set[int] = set()
        converted = []
        for table in tables:
            if isinstance(table, str | bytes) or not isinstance(table, Sequence):
                raise SeatingError(
                    INVALID_HISTORY, f"history round {number} has a table that is not a list"
                )
            row = []
            for player in table:
                try:
                    i = index.get(player)
                except TypeError:
                    i = None
                if i is None:
                    raise SeatingError(
                        UNKNOWN_PLAYER, f"history round {number} names unknown player {player!r}"
                    )
                if i in seen:
                    raise SeatingError(
                        INVALID_HISTORY, f"history round {number} seats player {player!r} twice"
                    )
                seen.add(i)
                row.append(i)
            converted.append(tuple(row))
        out.append(tuple(converted))
    return tuple(out)


def _column_order(
    prob: search.Problem, rng: random.Random | None, *, follow_history: bool
) -> list[int]:
    """Players in design-point order, chosen so that conflicts fall inside columns.

    The designs never seat two players of one column together (a column is a run of
    ``tables`` consecutive points). Clubs are packed into columns first (best fit, largest
    first, split only when larger than any free space); the other players follow in their
    given order, or with ``follow_history`` breadth-first over earlier table-mates, so that
    those tend to share a column too.
    """
    n, k = prob.n, len(prob.sizes)
    free = [k] * (n // k) + ([n % k] if n % k else [])
    columns: list[list[int]] = [[] for _ in free]
    placed = [False] * n

    groups: dict[int, list[int]] = {}
    for p, mask in enumerate(prob.club_masks):
        if mask:
            groups.setdefault(mask | 1 << p, []).append(p)
    clubs = list(groups.values())
    if rng is not None:
        rng.shuffle(clubs)
    clubs.sort(key=len, reverse=True)
    for members in clubs:
        rest = members[:]
        while rest:
            fitting = [c for c, room in enumerate(free) if room >= len(rest)]
            if fitting:
                column = min(fitting, key=lambda c: free[c])
            else:
                column = max(range(len(free)), key=lambda c: free[c])
            take, rest = rest[: free[column]], rest[free[column] :]
            columns[column].extend(take)
            free[column] -= len(take)
            for p in take:
                placed[p] = True

    partners: list[list[int]] = [[] for _ in range(n)]
    for tables in prob.history if follow_history else ():
        for table in tables:
            for p in table:
                partners[p].extend(x for x in table if x != p)
    starts = list(range(n))
    if rng is not None:
        rng.shuffle(starts)
    rest_order: list[int] = []
    for start in starts:
        if placed[start]:
            continue
        placed[start] = True
        queue = deque([start])
        while queue:
            p = queue.popleft()
            rest_order.append(p)
            for x in partners[p]:
                if not placed[x]:
                    placed[x] = True
                    queue.append(x)
    position = 0
    for column, room in enumerate(free):
        columns[column].extend(rest_order[position : position + room])
        position += room
    return [p for column in columns for p in column]


#: Design rounds to choose from beyond the ones needed (the best fit to history and clubs).
SPARE_CLASSES = 12


def _design_start(prob: search.Problem, order: list[int], rng: random.Random) -> search.Rounds:
    """Design rounds (the cheapest against history and clubs first), then greedy rounds.

    Candidates: the doubled affine planes where they apply (:mod:`.doubled`: 32 players at
    tables of 4 get 10 repeat-free rounds), then the affine/Latin-square rounds. Each family's
    rounds share no pair among themselves (except the cut-columns round, and
    wrapped columns when tables are larger than their number), so
    picking them one at a time by cost is as good as choosing a set. With the players in
    their given order this also continues the design that earlier rounds (the history) were
    cut from, e.g. when the rounds are seated one at a time: 42 players get 7 repeat-free
    rounds either way.
    """
    k = len(prob.sizes)
    limit = prob.rounds + SPARE_CLASSES
    classes = doubled.doubled_rounds(n=prob.n, sizes=prob.sizes, limit=limit)
    classes += designs.design_rounds(n=prob.n, k=k, limit=limit, sizes=prob.sizes)
    candidates: list[list[list[int]]] = []
    for table_of in classes:
        tables: list[list[int]] = [[] for _ in range(k)]
        for point, table in enumerate(table_of):
            tables[table].append(order[point])
        candidates.append(tables)
    state = search.State(prob)
    while candidates and len(state.tables) < prob.rounds:
        costs = [state.round_cost(tables) for tables in candidates]
        state.add_round(candidates.pop(costs.index(min(costs))))
    while len(state.tables) < prob.rounds:
        state.add_round(search.greedy_round(state, rng))
    return state.snapshot()


def _greedy_start(prob: search.Problem, rng: random.Random) -> search.Rounds:
    state = search.State(prob)
    for _ in range(prob.rounds):
        state.add_round(search.greedy_round(state, rng))
    return state.snapshot()


def _start(prob: search.Problem, attempt: int, rng: random.Random) -> search.Rounds:
    """Attempt 0: the cheapest of the designs and a greedy seating; then alternate, shuffled."""
    if attempt == 0:
        orders = [
            list(range(prob.n)),
            _column_order(prob, None, follow_history=False),
            _column_order(prob, None, follow_history=True),
        ]
        starts = [_design_start(prob, order, rng) for i, order in enumerate(orders)
                  if order not in orders[:i]]  # fmt: skip
        starts.append(_greedy_start(prob, rng))
        return min(starts, key=lambda rounds: search.build_state(prob, rounds).cost)
    if attempt % 2:
        return _greedy_start(prob, rng)
    return _design_start(prob, _column_order(prob, rng, follow_history=attempt % 4 == 0), rng)
