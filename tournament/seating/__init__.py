"""Seating generator: N players at tables over R rounds, repeats and club-mates minimised.

A generalised Social Golfer Problem (contract: the seating spec). Pure Python, no Django: the
round-seating service and the ``seating`` management command both call :func:`seat_rounds`.

Objective: ``repeat_weight * repeated_pairs + club_weight * same_club_pairs`` (defaults 1 and
10), where a pair meeting k times counts k - 1 (history meetings count, history's own
repeats do not) and club-mate pairs are summed over the new rounds. Table sizes: the fewest
tables, filled evenly, or with ``larger`` tables of the size and one more (:func:`table_sizes`).

How:

1. construct: finite-geometry rounds (:mod:`.doubled`: two affine planes of order q lifted to
   2q^2 players at tables of q, e.g. 32 players at tables of 4 for 10 rounds; :mod:`.designs`:
   affine planes over GF(q) for a prime power number of tables, Latin squares otherwise), players laid out so that club-mates and
   earlier table-mates share a design column (never seated together), the rounds that fit
   the history best picked first; greedy rounds for the rest; also a fully greedy start;
2. improve: tabu search over swaps within a round with O(1) big-int delta evaluation
   (:mod:`.search`), perturbation of the best seating on stalls, fresh starts after that;
3. stop at a proven lower bound (:mod:`.bounds`: pigeonhole per round, counting per player,
   club spread), else after a deterministic work budget worth ``seconds`` (wall clock as a
   safety net).

The helpers in :mod:`.metrics` count repeats and club-mates independently of the search and
evaluate an organizer's swap or move before it is saved.
"""

from tournament.seating.errors import SeatingError
from tournament.seating.generate import (
    DEFAULT_CLUB_WEIGHT,
    DEFAULT_REPEAT_WEIGHT,
    SeatingResult,
    seat_rounds,
)
from tournament.seating.metrics import (
    SeatingDelta,
    count_repeats,
    count_same_club,
    evaluate_move,
    evaluate_swap,
    pair_meetings,
    table_club_pairs,
    table_repeats,
)
from tournament.seating.tables import table_sizes

__all__ = [
    "DEFAULT_CLUB_WEIGHT",
    "DEFAULT_REPEAT_WEIGHT",
    "SeatingDelta",
    "SeatingError",
    "SeatingResult",
    "count_repeats",
    "count_same_club",
    "evaluate_move",
    "evaluate_swap",
    "pair_meetings",
    "seat_rounds",
    "table_club_pairs",
    "table_repeats",
    "table_sizes",
]
