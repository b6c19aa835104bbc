"""Zero-repeat starting rounds from finite geometry (resolvable transversal designs).

Lay the n points out column by column in a grid of ``k`` rows (k = number of tables):
``a = n // k`` full columns and one partial column of ``n % k`` points. A round is a *parallel
class*: with multiplier ``c``, point ``(i, j)`` sits at table ``i - c * j``. Every table then
takes exactly one point from each column (so the sizes come out as ``a`` or ``a + 1``, the even
split of :func:`table_sizes`), and two classes ``c != c'`` put the same two points together only
if ``(c - c') * (j - j') == 0``.

- ``k`` a prime power: arithmetic in GF(k), so *all* ``k`` classes are pairwise disjoint when
  there are at most ``k`` columns (an affine plane with some lines removed): 42 players at 7
  tables, 48 at 8, 50 at 9 get 7, 8 and 9 repeat-free rounds.
- otherwise: arithmetic mod ``k`` with a greedy set of multipliers whose differences are units
  for all column distances (for 6 tables of 6: rows and diagonals, i.e. a Latin square).
- one more round from the columns themselves, cut into tables (exact when the column length
  ``k`` is a multiple of the table size, e.g. the columns of a square grid).

Points in the same column never meet in these rounds; the caller exploits that by putting
club-mates and earlier table-mates into one column.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``p ** e == q`` for a prime ``p``, else ``None``."""
    if q < 2:
        return None
    p = next((d for d in range(2, int(q**0.5) + 1) if q % d == 0), q)
    e = 0
    while q % p == 0:
        q //= p
        e += 1
    return (p, e) if q == 1 else None


def _poly_mod(poly: list[int], mod: list[int], p: int) -> list[int]:
    """Remainder of ``poly`` by the monic ``mod`` (coefficients lowest degree first)."""
    poly = poly[:]
    degree = len(mod) - 1
    for top in range(len(poly) - 1, degree - 1, -1):
        factor = poly[top] % p
        if factor:
            for i, coefficient in enumerate(mod):
                poly[top - degree + i] = (poly[top - degree + i] - factor * coefficient) % p
    return [c % p for c in poly[:degree]] + [0] * max(0, degree - len(poly))


def _irreducible(p: int, e: int) -> list[int]:
    """The first monic irreducible polynomial of degree ``e`` over GF(p)."""
    for low in product(range(p), repeat=e):
        candidate = [*low, 1]
        if low[0] == 0:
            continue
        if all(
            any(_poly_mod(candidate, [*div, 1], p))
            for degree in range(1, e // 2 + 1)
            for div in product(range(p), repeat=degree)
        ):
            return candidate
    raise AssertionError("an irreducible polynomial of every degree exists")


@lru_cache(maxsize=32)
def _field(q: int) -> tuple[int, int, tuple[int, ...]] | None:
    found = prime_power(q)
    if found is None:
        return None
    p, e = found
    return p, e, tuple(_irreducible(p, e)) if e > 1 else (0, 1)


def _known_field(q: int) -> tuple[int, int, tuple[int, ...]]:
    """GF(q) for a q the caller has checked is a prime power (there is no other field)."""
    field = _field(q)
    if field is None:
        raise ValueError(f"there is no field with {q} elements: {q} is not a prime power")
    return field


def _digits(x: int, p: int, e: int) -> list[int]:
    out = []
    for _ in range(e):
        x, digit = divmod(x, p)
        out.append(digit)
    return out


def _number(digits: list[int], p: int) -> int:
    value = 0
    for digit in reversed(digits):
        value = value * p + digit
    return value


def gf_sub(a: int, b: int, q: int) -> int:
    """``a - b`` in GF(q) (elements numbered 0..q-1 by their base-p digits)."""
    p, e, _ = _known_field(q)
    if e == 1:
        return (a - b) % p
    return _number(
        [(x - y) % p for x, y in zip(_digits(a, p, e), _digits(b, p, e), strict=True)], p
    )


def gf_mul(a: int, b: int, q: int) -> int:
    """``a * b`` in GF(q)."""
    p, e, mod = _known_field(q)
    if e == 1:
        return a * b % p
    x, y = _digits(a, p, e), _digits(b, p, e)
    product_ = [0] * (2 * e - 1)
    for i, xi in enumerate(x):
        for j, yj in enumerate(y):
            product_[i + j] += xi * yj
    return _number(_poly_mod(product_, list(mod), p), p)


def _cyclic_multipliers(k: int, columns: int) -> list[int]:
    chosen: list[int] = []
    distances = [d for d in range(1, columns) if d % k]
    for c in range(k):
        if all((c - other) * d % k for other in chosen for d in distances):
            chosen.append(c)
    return chosen


def design_rounds(
    *, n: int, k: int, limit: int, sizes: Sequence[int] | None = None
) -> list[list[int]]:
    """Up to ``limit`` rounds for points ``0..n-1`` at ``k`` tables, as ``table_of_point`` lists.

    Point ``x`` is row ``x % k`` of column ``x // k``. With more columns than the field has
    elements (tables larger than the number of tables) columns wrap around, which still gives
    the pigeonhole optimum for two rounds (30 players at 5 tables of 6: 5 repeats).

    Given the table ``sizes``, one more round cuts the points in column order into tables:
    mostly players of one column, who have not met yet (all of them when ``k`` is a multiple of
    the table size, e.g. the 9th round for 32 players at 8 tables of 4, or the columns of a
    square grid).
    """
    if k < 1 or limit < 1:
        return []
    columns = -(-n // k)
    rounds: list[list[int]] = []
    if _field(k) is not None:
        field_columns = [j % k for j in range(columns)]
        for c in range(k):
            if len(rounds) == limit:
                return rounds
            shift = [gf_mul(c, fj, k) for fj in field_columns]
            rounds.append([gf_sub(x % k, shift[x // k], k) for x in range(n)])
    else:
        for c in _cyclic_multipliers(k, columns):
            if len(rounds) == limit:
                return rounds
            rounds.append([(x % k - c * (x // k)) % k for x in range(n)])
    if len(rounds) < limit and sizes is not None:
        table_of: list[int] = []
        for table, size in enumerate(sizes):
            table_of.extend([table] * size)
        rounds.append(table_of[:n])
    return rounds
