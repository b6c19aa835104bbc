"""Local search over seatings of players ``0..n-1`` (the generator's engine, ints only).

State: per round a list of tables; per pair a meeting count (history included) mirrored in two
bitsets per player, ``met1[p]`` (met at least once) and ``met2[p]`` (at least twice), so that
"how many of table T has p already met" is one ``&`` and one ``bit_count``.

Objective (relative to the history, which cannot change)::

    repeat_weight * repeats + club_weight * same_club_pairs

Move: swap two players of different tables in one round. With ``T_A`` the table of ``p`` and
``T_B`` the table of ``q`` in round r, ``w(x, y) = wr * [x, y met] + wc * [club-mates]`` counted
over the *other* rounds, and ``cur(x)`` the cost ``x`` already causes at its own table, the
swap changes the cost by ``w(p, T_B) + w(q, T_A) - 2 w(p, q) - cur(p) - cur(q)`` — O(1) big-int
operations per candidate. Tabu search (Dotú & Van Hentenryck's neighbourhood: a conflicting
player against everybody of another table in its round), with perturbation from the best
seating when it stalls and fresh restarts after repeated stalls.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Rounds = list[list[list[int]]]

# Tuning (measured on the spec instances and on 59/7, 31/5, 27/7, 60/8, 8-4-9, 8-4-10):
#: Iterations without a new best before a perturbation: base + per seat of a table.
STALL_BASE = 30
STALL_PER_SEAT = 4
#: Perturbations of the best seating without a new best before a fresh start.
MAX_FAILURES = 8
#: Tabu tenure: random in [TENURE_MIN, TENURE_MIN + 7 + n // TENURE_DIV] iterations.
TENURE_MIN = 3
TENURE_DIV = 10
#: Conflicting (round, player) pairs whose swaps are evaluated per iteration, at most
#: SAMPLE_MAX and about 4000 candidate swaps in all (large N: a few, chosen at random).
SAMPLE_MAX = 64
#: Tabu entries kept before expired ones are dropped.
TABU_PRUNE = 100_000


@dataclass(frozen=True, slots=True)
class Problem:
    n: int
    sizes: tuple[int, ...]
    rounds: int
    history: tuple[tuple[tuple[int, ...], ...], ...]
    club_masks: tuple[int, ...]  # bitset of p's club-mates (without p), 0 if none
    repeat_weight: int
    club_weight: int

    @property
    def has_clubs(self) -> bool:
        return self.club_weight > 0 and any(self.club_masks)


class State:
    """A complete seating of the new rounds plus the incremental meeting counts."""

    __slots__ = ("cost", "met1", "met2", "meet", "pos", "prob", "tables", "tmask")

    def __init__(self, prob: Problem) -> None:
        self.prob = prob
        n = prob.n
        self.meet: list[dict[int, int]] = [{} for _ in range(n)]
        self.met1 = [0] * n
        self.met2 = [0] * n
        for tables in prob.history:
            for table in tables:
                self._meet_table(table)
        self.tables: Rounds = []
        self.pos: list[list[int]] = []
        self.tmask: list[list[int]] = []
        self.cost = 0

    def _inc(self, a: int, b: int) -> None:
        count = self.meet[a].get(b, 0)
        self.meet[a][b] = self.meet[b][a] = count + 1
        if count == 0:
            self.met1[a] |= 1 << b
            self.met1[b] |= 1 << a
        elif count == 1:
            self.met2[a] |= 1 << b
            self.met2[b] |= 1 << a

    def _dec(self, a: int, b: int) -> None:
        count = self.meet[a][b]
        if count == 1:
            del self.meet[a][b], self.meet[b][a]
            self.met1[a] &= ~(1 << b)
            self.met1[b] &= ~(1 << a)
        else:
            self.meet[a][b] = self.meet[b][a] = count - 1
            if count == 2:
                self.met2[a] &= ~(1 << b)
                self.met2[b] &= ~(1 << a)

    def _meet_table(self, table: Sequence[int]) -> None:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                self._inc(a, b)

    def round_cost(self, tables: Sequence[Sequence[int]]) -> int:
        """What adding ``tables`` as one more round would cost (nothing is changed)."""
        prob = self.prob
        wr, wc, clubs, met1 = prob.repeat_weight, prob.club_weight, prob.club_masks, self.met1
        twice = 0  # every pair is seen from both ends
        for table in tables:
            mask = 0
            for player in table:
                mask |= 1 << player
            for player in table:
                twice += (
                    wr * (met1[player] & mask).bit_count() + wc * (clubs[player] & mask).bit_count()
                )
        return twice // 2

    def add_round(self, tables: list[list[int]]) -> None:
        """Append a round and charge its cost against everything seated so far."""
        self.cost += self.round_cost(tables)
        pos = [0] * self.prob.n
        masks = []
        for index, table in enumerate(tables):
            mask = 0
            for player in table:
                pos[player] = index
                mask |= 1 << player
            masks.append(mask)
        self.tables.append(tables)
        self.pos.append(pos)
        self.tmask.append(masks)
        for table in tables:
            self._meet_table(table)

    def swap(self, r: int, p: int, q: int) -> None:
        pos = self.pos[r]
        a, b = pos[p], pos[q]
        table_a, table_b = self.tables[r][a], self.tables[r][b]
        for x in table_a:
            if x != p:
                self._dec(p, x)
                self._inc(q, x)
        for y in table_b:
            if y != q:
                self._dec(q, y)
                self._inc(p, y)
        table_a[table_a.index(p)] = q
        table_b[table_b.index(q)] = p
        pos[p], pos[q] = b, a
        flip = (1 << p) | (1 << q)
        self.tmask[r][a] ^= flip
        self.tmask[r][b] ^= flip

    def snapshot(self) -> Rounds:
        return [[table[:] for table in tables] for tables in self.tables]


def recount_cost(prob: Problem, rounds: Rounds) -> int:
    """The objective from scratch (for checks): weighted repeats over history plus club pairs."""
    state = State(prob)
    before = sum(max(0, c - 1) for m in state.meet for c in m.values())
    for tables in rounds:
        for table in tables:
            state._meet_table(table)
    after = sum(max(0, c - 1) for m in state.meet for c in m.values())
    repeats = (after - before) // 2
    club = sum(
        (prob.club_masks[p] >> x) & 1
        for tables in rounds
        for table in tables
        for i, p in enumerate(table)
        for x in table[i + 1 :]
    )
    return prob.repeat_weight * repeats + prob.club_weight * club


def build_state(prob: Problem, rounds: Rounds) -> State:
    state = State(prob)
    for tables in rounds:
        state.add_round([table[:] for table in tables])
    return state


def greedy_round(state: State, rng: random.Random) -> list[list[int]]:
    """One round: most-constrained players first, each to the cheapest table with room."""
    prob = state.prob
    wr, wc, clubs, met1 = prob.repeat_weight, prob.club_weight, prob.club_masks, state.met1
    order = list(range(prob.n))
    rng.shuffle(order)
    order.sort(key=lambda p: -(wr * met1[p].bit_count() + wc * clubs[p].bit_count()))
    room = list(prob.sizes)
    tables: list[list[int]] = [[] for _ in room]
    masks = [0] * len(room)
    open_tables = list(range(len(room)))
    for p in order:
        m1, club = met1[p], clubs[p]
        best_cost, best = -1, []
        for t in open_tables:
            mask = masks[t]
            cost = wr * (m1 & mask).bit_count() + wc * (club & mask).bit_count()
            if best_cost < 0 or cost < best_cost:
                best_cost, best = cost, [t]
            elif cost == best_cost:
                best.append(t)
        t = best[0] if len(best) == 1 else rng.choice(best)
        tables[t].append(p)
        masks[t] |= 1 << p
        room[t] -= 1
        if room[t] == 0:
            open_tables.remove(t)
    return tables


@dataclass(slots=True)
class Outcome:
    rounds: Rounds
    cost: int
    reached_bound: bool
    iterations: int
    restarts: int
    work: int = 0


def tabu_search(
    *,
    prob: Problem,
    starts: Callable[[int], Rounds],
    lower_bound: int,
    rng: random.Random,
    work_budget: int,
    deadline: float,
) -> Outcome:
    """Improve ``starts(0)``; on repeated stalls restart from ``starts(1)``, ``starts(2)``…

    Stops at ``lower_bound`` (proven optimal), after ``work_budget`` candidate evaluations
    (deterministic) or at ``deadline`` (``time.perf_counter``; a safety net).
    """
    n, wr, wc = prob.n, prob.repeat_weight, prob.club_weight
    clubs, has_clubs = prob.club_masks, prob.has_clubs
    state = build_state(prob, starts(0))
    best_cost, best = state.cost, state.snapshot()
    if best_cost <= lower_bound or len(prob.sizes) < 2 or prob.rounds == 0:
        return Outcome(best, best_cost, best_cost <= lower_bound, 0, 0)

    sample_size = max(1, min(SAMPLE_MAX, 4000 // n))
    stall_limit = STALL_BASE + STALL_PER_SEAT * n // len(prob.sizes)
    tabu: dict[tuple[int, int, int], int] = {}
    work = iteration = restarts = failures = 0
    last_improvement = 0
    while best_cost > lower_bound and work < work_budget and time.perf_counter() < deadline:
        iteration += 1
        met1, met2 = state.met1, state.met2
        conflicts: list[tuple[int, int]] = []
        currents: list[list[int]] = []
        for r in range(prob.rounds):
            current = [0] * n
            for table, mask in zip(state.tables[r], state.tmask[r], strict=True):
                for p in table:
                    value = wr * (met2[p] & mask).bit_count()
                    if has_clubs:
                        value += wc * (clubs[p] & mask).bit_count()
                    if value:
                        current[p] = value
                        conflicts.append((r, p))
            currents.append(current)
        work += n * prob.rounds // 2  # a conflict check costs about half an evaluation
        if not conflicts:  # cost is 0: nothing can be better
            break
        if len(conflicts) > sample_size:
            conflicts = rng.sample(conflicts, sample_size)

        aspiration = best_cost - state.cost
        move_delta, moves = None, []
        for r, p in conflicts:
            current, pos, tables, tmask = currents[r], state.pos[r], state.tables[r], state.tmask[r]
            a = pos[p]
            mask_a = tmask[a]
            m1p, clp = met1[p], clubs[p]
            base_p = -current[p]
            for b, table in enumerate(tables):
                if b == a:
                    continue
                mask_b = tmask[b]
                base = base_p + wr * (m1p & mask_b).bit_count()
                if has_clubs:
                    base += wc * (clp & mask_b).bit_count()
                for q in table:
                    delta = base + wr * (met1[q] & mask_a).bit_count() - current[q]
                    if (m1p >> q) & 1:
                        delta -= 2 * wr
                    if has_clubs:
                        delta += wc * (clubs[q] & mask_a).bit_count()
                        if (clp >> q) & 1:
                            delta -= 2 * wc
                    if move_delta is not None and delta > move_delta:
                        continue
                    if delta >= aspiration and (
                        tabu.get((r, p, b), 0) > iteration or tabu.get((r, q, a), 0) > iteration
                    ):
                        continue
                    if move_delta is None or delta < move_delta:
                        move_delta, moves = delta, [(r, p, q)]
                    else:
                        moves.append((r, p, q))
                work += len(table)

        if move_delta is None:  # everything tabu: shake
            _perturb(state, rng, 2)
            continue
        r, p, q = moves[0] if len(moves) == 1 else rng.choice(moves)
        a, b = state.pos[r][p], state.pos[r][q]
        state.swap(r, p, q)
        state.cost += move_delta
        tenure = rng.randint(TENURE_MIN, TENURE_MIN + 7 + n // TENURE_DIV)
        tabu[(r, p, a)] = iteration + tenure
        tabu[(r, q, b)] = iteration + tenure
        if len(tabu) > TABU_PRUNE:
            tabu = {key: until for key, until in tabu.items() if until > iteration}

        if state.cost < best_cost:
            best_cost, best = state.cost, state.snapshot()
            last_improvement, failures = iteration, 0
        elif iteration - last_improvement > stall_limit:
            failures += 1
            if failures > MAX_FAILURES:
                restarts += 1
                failures = 0
                state = build_state(prob, starts(restarts))
            else:
                state = build_state(prob, best)
                _perturb(state, rng, 1 + failures + n // 40)
            last_improvement = iteration
            tabu.clear()
            work += prob.rounds * n * max(prob.sizes)  # rebuilding the state
            if state.cost < best_cost:
                best_cost, best = state.cost, state.snapshot()
    return Outcome(best, best_cost, best_cost <= lower_bound, iteration, restarts, work)


def _perturb(state: State, rng: random.Random, swaps: int) -> None:
    """Random swaps, charged exactly (the perturbation is rare, so recomputing is fine)."""
    prob = state.prob
    for _ in range(swaps):
        r = rng.randrange(prob.rounds)
        p, q = rng.sample(range(prob.n), 2)
        if state.pos[r][p] != state.pos[r][q]:
            state.swap(r, p, q)
    state.cost = recount_cost(prob, state.tables)
