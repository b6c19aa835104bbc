"""Doubled affine planes: ``2 q^2`` players at ``2 q`` tables of ``q``, ``2 (q + 1)`` rounds, no repeat.

The largest repeat-free schedule for 32 players at tables of 4 has 10 rounds (every player
meets 30 of the other 31; the famous Social Golfer instance 8-4-10). Tables of 4 with 5 where
the numbers do not divide is the official tournament layout, so the generator should reach it.

Construction (a resolvable 4-GDD of type ``2^(q^2)`` from two affine planes):

- ``q^2`` *super-points* ``X``, each standing for two players ``2X`` and ``2X + 1`` (who never
  meet). Two resolvable designs on the super-points: the affine plane ``AG(2, q)`` (``q + 1``
  parallel classes of ``q`` lines) and a copy of it under a permutation ``π`` chosen so that no
  line of the copy shares three points with a line of the original.
- Every line ``L`` of a parallel class seats two tables: ``(X, b_L(X))`` for ``X`` in ``L`` and
  the complement ``(X, 1 - b_L(X))``. A pair of super-points lies on one line of each design;
  the line of the first design seats two of its four player pairs (those whose layer parity is
  ``b_L(X) + b_L(Y)``), so the line of the copy must have the other parity. These are linear
  equations over GF(2) in the bits ``b``, solved by elimination; a ``π`` whose system has no
  solution is replaced by a neighbour.

Deterministic (a fixed seed per ``q``: the design is a fixed object) and bounded by a work
budget; for ``q = 3, 4`` it takes well under a second.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from tournament.seating.designs import gf_mul, gf_sub, prime_power

#: Work (point-line incidences looked at) before giving up: q = 4 needs about 4 million
#: (about a second and a half); larger q may need more and are then left to the search.
WORK = 6_000_000
#: Steps on the plateau of triple-free permutations before a fresh start.
PLATEAU = 200


def applies(*, n: int, sizes: Sequence[int]) -> int | None:
    """``q`` when ``n = 2 q^2`` players sit at ``2 q`` tables of ``q`` (``q`` a prime power)."""
    if not sizes or len(set(sizes)) != 1:
        return None
    q = sizes[0]
    if q < 3 or n != 2 * q * q or len(sizes) != 2 * q or prime_power(q) is None:
        return None
    return q


def doubled_rounds(*, n: int, sizes: Sequence[int], limit: int) -> list[list[int]]:
    """Up to ``limit`` repeat-free rounds as ``table_of_point`` lists; ``[]`` outside the family."""
    q = applies(n=n, sizes=sizes)
    if q is None or limit < 1:
        return []
    return [list(round_) for round_ in _rounds(q)[:limit]]


def _affine_classes(q: int) -> list[list[list[int]]]:
    """The ``q + 1`` parallel classes of ``AG(2, q)``; point ``(x, y)`` is ``x * q + y``."""

    def add(a: int, b: int) -> int:
        return gf_sub(a, gf_sub(0, b, q), q)

    classes = [
        [[x * q + add(gf_mul(m, x, q), b) for x in range(q)] for b in range(q)] for m in range(q)
    ]
    classes.append([[c * q + y for y in range(q)] for c in range(q)])
    return classes


@lru_cache(maxsize=8)
def _rounds(q: int) -> tuple[tuple[int, ...], ...]:
    first = _affine_classes(q)
    lines = [line for parallel in first for line in parallel]
    points = q * q
    through: list[list[int]] = [[] for _ in range(points)]
    for index, line in enumerate(lines):
        for x in line:
            through[x].append(index)

    work = 0

    def overlap(perm: list[int]) -> int:
        """Points beyond two that an image line shares with an original line, summed."""
        nonlocal work
        work += len(lines) * q * (q + 1)
        excess = 0
        for line in lines:
            seen: dict[int, int] = {}
            for x in line:
                for index in through[perm[x]]:
                    seen[index] = seen.get(index, 0) + 1
            excess += sum(count - 2 for count in seen.values() if count > 2)
        return excess

    rng = random.Random(q)
    while work < WORK:
        perm = list(range(points))
        rng.shuffle(perm)
        cost = overlap(perm)
        stuck = 0
        while cost and work < WORK and stuck < 50 * points:
            i, j = rng.sample(range(points), 2)
            perm[i], perm[j] = perm[j], perm[i]
            new = overlap(perm)
            if new <= cost:
                stuck = 0 if new < cost else stuck + 1
                cost = new
            else:
                perm[i], perm[j] = perm[j], perm[i]
                stuck += 1
        for _ in range(PLATEAU if cost == 0 else 0):
            bits = _lift(first, perm)
            if bits is not None:
                return _seat(first, perm, bits)
            for _ in range(points * points):  # a neighbour on the plateau, if there is one
                i, j = rng.sample(range(points), 2)
                perm[i], perm[j] = perm[j], perm[i]
                if overlap(perm) == 0:
                    break
                perm[i], perm[j] = perm[j], perm[i]
            else:
                break
            if work >= WORK:
                break
    return ()


def _second(first: list[list[list[int]]], perm: list[int]) -> list[list[list[int]]]:
    return [[[perm[x] for x in line] for line in parallel] for parallel in first]


def _lift(first: list[list[list[int]]], perm: list[int]) -> list[list[int]] | None:
    """A bit per (line, point) such that each pair's two lines have different parity."""
    lines = [line for parallel in first + _second(first, perm) for line in parallel]
    var: dict[tuple[int, int], int] = {}
    on: dict[tuple[int, int], list[int]] = {}
    for index, line in enumerate(lines):
        for x in line:
            var[(index, x)] = len(var)
        for i, x in enumerate(line):
            for y in line[i + 1 :]:
                on.setdefault((min(x, y), max(x, y)), []).append(index)
    pivots: dict[int, tuple[int, int]] = {}
    for (x, y), indexes in on.items():
        mask, rhs = 0, 1
        for index in indexes:
            mask ^= (1 << var[(index, x)]) ^ (1 << var[(index, y)])
        while mask:
            top = mask.bit_length() - 1
            if top not in pivots:
                pivots[top] = (mask, rhs)
                break
            pivot_mask, pivot_rhs = pivots[top]
            mask ^= pivot_mask
            rhs ^= pivot_rhs
        else:
            if rhs:
                return None
    solution = 0
    for top in sorted(pivots):
        mask, rhs = pivots[top]
        if rhs ^ ((mask & solution).bit_count() & 1):
            solution |= 1 << top
    return [[(solution >> var[(index, x)]) & 1 for x in line] for index, line in enumerate(lines)]


def _seat(
    first: list[list[list[int]]], perm: list[int], bits: list[list[int]]
) -> tuple[tuple[int, ...], ...]:
    q = len(first[0])
    rounds = []
    index = 0
    for parallel in first + _second(first, perm):
        table_of = [0] * (2 * q * q)
        for t, line in enumerate(parallel):
            for x, bit in zip(line, bits[index], strict=True):
                table_of[2 * x + bit] = 2 * t
                table_of[2 * x + 1 - bit] = 2 * t + 1
            index += 1
        rounds.append(tuple(table_of))
    return tuple(rounds)
