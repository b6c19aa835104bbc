"""How many tables, and of which sizes, a round of N players needs."""

from __future__ import annotations

from tournament.seating.errors import (
    IMPOSSIBLE_SPLIT,
    INVALID_MIN_SIZE,
    INVALID_PLAYERS,
    INVALID_TABLE_SIZE,
    SeatingError,
)


def table_sizes(
    *, n: int, table_size: int = 6, min_size: int | None = None, larger: bool = False
) -> list[int]:
    """Sizes of the tables for ``n`` players, largest first.

    ``larger``: tables of ``table_size`` or ``table_size + 1`` instead (the official tournament
    rules: tables of 4, and 5 where the numbers do not divide): ``n // table_size`` tables, the
    remainder seated one extra at as many of them (22 at 4 -> 5, 5, 4, 4, 4). Refused when the
    remainder exceeds the number of tables (7 at 4) or with a ``min_size``.

    As few tables as possible (``ceil(n / table_size)``), filled as evenly as possible, so with
    the default ``min_size = table_size - 1`` every table has ``table_size`` or ``table_size - 1``
    seats and the number of short tables is the smallest possible. A smaller ``min_size`` admits
    N that cannot be split that way (e.g. 13 at tables of 6 -> 5, 4, 4 with ``min_size=4``); the
    even fill never makes a table shorter than it has to be.

    Raises ``SeatingError`` (``impossible_split``) when the smallest table would be shorter than
    ``min_size``.
    """
    if isinstance(table_size, bool) or not isinstance(table_size, int) or table_size < 2:
        raise SeatingError(
            INVALID_TABLE_SIZE, f"table size must be an integer >= 2, not {table_size!r}"
        )
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SeatingError(INVALID_PLAYERS, f"the number of players must be >= 1, not {n!r}")
    if larger:
        if min_size is not None:
            raise SeatingError(
                INVALID_MIN_SIZE, "a minimum size cannot be combined with larger tables"
            )
        tables, extra = divmod(n, table_size)
        if tables == 0 or extra > tables:
            raise SeatingError(
                IMPOSSIBLE_SPLIT,
                f"{n} players cannot be seated at tables of {table_size} or {table_size + 1}",
            )
        return [table_size + 1] * extra + [table_size] * (tables - extra)
    if min_size is None:
        min_size = table_size - 1
    elif (
        isinstance(min_size, bool)
        or not isinstance(min_size, int)
        or not 1 <= min_size <= table_size
    ):
        raise SeatingError(
            INVALID_MIN_SIZE,
            f"min size must be an integer from 1 to {table_size}, not {min_size!r}",
        )
    tables = -(-n // table_size)
    small, extra = divmod(n, tables)
    if small < min_size:
        sizes = f"{table_size}" if min_size == table_size else f"{min_size} or {table_size}"
        raise SeatingError(
            IMPOSSIBLE_SPLIT,
            f"{n} players cannot be seated at {tables} table{'s' if tables > 1 else ''} of "
            f"{sizes} (one would have only {small}); allow smaller tables with a minimum size",
            {"players": n, "tables": tables, "size": table_size, "minimum": min_size,
             "smallest": small},
        )
    return [small + 1] * extra + [small] * (tables - extra)
