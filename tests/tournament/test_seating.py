"""Seating generator (pure module): valid seatings, honest counts, targets reached, errors."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.seating import (
    SeatingError,
    count_repeats,
    count_same_club,
    evaluate_move,
    evaluate_swap,
    pair_meetings,
    seat_rounds,
    table_club_pairs,
    table_repeats,
    table_sizes,
)

# --- an independent recount (brute force over all pairs) ----------------------------------


def brute_meetings(rounds) -> Counter:
    meetings: Counter = Counter()
    for tables in rounds:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    meetings[tuple(sorted((a, b), key=repr))] += 1
    return meetings


def brute_repeats(rounds, history=()) -> int:
    before = brute_meetings(history)
    after = brute_meetings(list(history) + list(rounds))
    return sum(c - 1 for c in after.values() if c > 1) - sum(
        c - 1 for c in before.values() if c > 1
    )


def brute_same_club(rounds, clubs) -> int:
    return sum(
        1
        for tables in rounds
        for table in tables
        for i, a in enumerate(table)
        for b in table[i + 1 :]
        if clubs.get(a) is not None and clubs.get(a) == clubs.get(b)
    )


def assert_valid(result, players, rounds, sizes, clubs=None, history=()):
    """Every round seats every player exactly once at tables of the planned sizes."""
    assert len(result.rounds) == rounds
    order = {p: i for i, p in enumerate(players)}
    for tables in result.rounds:
        seated = [p for table in tables for p in table]
        assert sorted(seated, key=order.__getitem__) == list(players)
        assert sorted((len(t) for t in tables), reverse=True) == sizes
        for table in tables:
            assert table == sorted(table, key=order.__getitem__)
        firsts = [order[t[0]] for t in tables]
        assert firsts == sorted(firsts)
    assert result.repeated_pairs == brute_repeats(result.rounds, history)
    assert result.same_club_pairs == brute_same_club(result.rounds, clubs or {})
    assert result.cost >= result.lower_bound
    assert result.optimal == (result.cost == result.lower_bound)


def clubs_of(players, sizes, rng) -> dict:
    pool = list(players)
    rng.shuffle(pool)
    clubs, start = {}, 0
    for number, size in enumerate(sizes):
        for player in pool[start : start + size]:
            clubs[player] = f"club {number}"
        start += size
    return clubs


# --- table sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "size", "min_size", "expected"),
    [
        (36, 6, None, [6] * 6),
        (50, 6, None, [6] * 5 + [5] * 4),
        (1200, 6, None, [6] * 200),
        (29, 6, None, [6] * 4 + [5]),
        (25, 6, None, [5] * 5),
        (13, 6, 4, [5, 4, 4]),
        (7, 6, 1, [4, 3]),
        (4, 6, 4, [4]),
        (12, 4, 4, [4, 4, 4]),
    ],
)
def test_table_sizes(n, size, min_size, expected):
    assert table_sizes(n=n, table_size=size, min_size=min_size) == expected


@pytest.mark.parametrize(
    ("n", "size", "min_size", "code"),
    [
        (13, 6, None, "impossible_split"),
        (4, 6, None, "impossible_split"),
        (13, 4, 4, "impossible_split"),
        (10, 6, 7, "invalid_min_size"),
        (10, 6, 0, "invalid_min_size"),
        (10, 1, None, "invalid_table_size"),
        (0, 6, None, "invalid_players"),
    ],
)
def test_table_sizes_refused(n, size, min_size, code):
    with pytest.raises(SeatingError) as info:
        table_sizes(n=n, table_size=size, min_size=min_size)
    assert info.value.code == code
    assert "\n" not in str(info.value)


# --- the spec's benchmark instances --------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds", "target"),
    [(36, 3, 0), (30, 2, 5), (42, 5, 0), (48, 6, 0), (50, 7, 0)],
)
def test_spec_instances_reach_their_target(n, rounds, target):
    result = seat_rounds(players=n, rounds=rounds, table_size=6, seed=1, seconds=5)
    players = list(range(1, n + 1))
    assert_valid(result, players, rounds, table_sizes(n=n, table_size=6))
    assert result.repeated_pairs == target
    assert result.optimal  # the target is the proven lower bound: the search stopped there


def test_thirty_players_two_rounds_lower_bound_is_the_pigeonhole_optimum():
    result = seat_rounds(players=30, rounds=2, seed=3, seconds=0)
    assert result.lower_bound == 5 and result.repeated_pairs == 5


def test_output_matches_the_spec_example_shape():
    result = seat_rounds(players=36, rounds=2, seed=0, seconds=1)
    document = result.as_dict()
    assert set(document) == {"rounds", "repeated_pairs", "same_club_pairs"}
    assert document["rounds"][0][0] == [1, 7, 13, 19, 25, 31]


def test_an_instance_no_full_design_covers():
    # 10 tables is not a prime power: two design rounds, the rest greedy plus tabu search.
    result = seat_rounds(players=60, rounds=5, seed=2, seconds=3)
    assert_valid(result, list(range(1, 61)), 5, [6] * 10)
    assert result.repeated_pairs == 0


# --- clubs, history, ids -------------------------------------------------------------------


def test_clubs_are_kept_apart_when_possible():
    rng = random.Random(5)
    players = list(range(1, 49))
    clubs = clubs_of(players, [8, 8, 6, 6, 5, 5, 4, 4], rng)  # no club larger than 8 tables
    result = seat_rounds(players=48, rounds=4, clubs=clubs, seed=1, seconds=5)
    assert_valid(result, players, 4, [6] * 8, clubs=clubs)
    assert result.same_club_pairs == 0 and result.repeated_pairs == 0


def test_a_club_larger_than_the_number_of_tables_is_spread_as_far_as_possible():
    players = list(range(1, 25))
    clubs = dict.fromkeys(range(1, 7), "big")  # 6 members, 4 tables: 2 pairs per round
    result = seat_rounds(players=24, rounds=3, clubs=clubs, seed=1, seconds=3)
    assert_valid(result, players, 3, [6] * 4, clubs=clubs)
    assert result.same_club_pairs == 3 * 2
    assert result.repeated_pairs == 2 * 8  # 4 tables of 6 from 4 earlier tables: 2 pairs each
    assert result.optimal


def test_club_weight_trades_against_repeats():
    clubs = dict.fromkeys(range(1, 5), "c")  # 4 club-mates, 2 tables of 6
    heavy = seat_rounds(players=12, rounds=2, clubs=clubs, seed=1, seconds=1)
    assert heavy.same_club_pairs == 2 * 2  # 2 + 2 split each round: the minimum
    ignored = seat_rounds(players=12, rounds=2, clubs=clubs, seed=1, seconds=1, club_weight=0)
    # two tables of 6 after two tables of 6: 3 + 3 of each earlier table meet again, forced
    assert ignored.repeated_pairs == heavy.repeated_pairs == 12
    assert ignored.optimal and heavy.optimal


def test_history_counts_as_meetings():
    first = seat_rounds(players=36, rounds=1, seed=4, seconds=1)
    rest = seat_rounds(players=36, rounds=2, history=first.rounds, seed=4, seconds=3)
    assert_valid(rest, list(range(1, 37)), 2, [6] * 6, history=first.rounds)
    assert rest.repeated_pairs == 0
    assert brute_repeats(first.rounds + rest.rounds) == 0


def test_history_with_forced_repeats_is_counted_once_per_extra_meeting():
    history = [[[1, 2, 3, 4], [5, 6, 7, 8]]] * 2  # the history's own repeat is not counted
    result = seat_rounds(players=8, rounds=1, table_size=4, history=history, seed=1, seconds=1)
    assert_valid(result, list(range(1, 9)), 1, [4, 4], history=history)
    assert result.repeated_pairs == 4  # two groups of 4 into two tables of 4: 2 + 2 pairs


def test_history_may_miss_players_and_contain_empty_tables():
    history = [[[1, 2, 3, 4, 5, 6], [], [7, 8, 9, 10, 11]]]
    result = seat_rounds(players=12, rounds=1, history=history, seed=1, seconds=1)
    assert_valid(result, list(range(1, 13)), 1, [6, 6], history=history)


def test_arbitrary_hashable_ids_keep_their_given_order():
    players = [f"p{i:02d}" for i in range(25, 0, -1)]  # descending on purpose
    clubs = {"p25": "A", "p24": "A", "p23": "A", "p01": None}
    history = [[players[i : i + 5] for i in range(0, 25, 5)]]
    result = seat_rounds(
        players=players, rounds=2, table_size=5, clubs=clubs, history=history, seed=9, seconds=2
    )
    assert_valid(result, players, 2, [5] * 5, clubs=clubs, history=history)
    assert result.repeated_pairs == 0 and result.same_club_pairs == 0


def test_min_size_allows_short_tables():
    result = seat_rounds(players=13, rounds=2, min_size=4, seed=1, seconds=1)
    assert_valid(result, list(range(1, 14)), 2, [5, 4, 4])
    assert result.table_sizes == [5, 4, 4]


def test_same_seed_same_seating():
    rng = random.Random(11)
    players = list(range(1, 45))
    clubs = clubs_of(players, [7, 6, 6, 5, 5, 4], rng)
    history = [[players[i : i + 6] for i in range(0, 42, 6)] + [players[42:]]]
    kwargs = {"players": 44, "rounds": 3, "clubs": clubs, "history": history, "seconds": 5}
    first, second = seat_rounds(seed=7, **kwargs), seat_rounds(seed=7, **kwargs)
    assert first.rounds == second.rounds and first.seed == second.seed == 7


def test_without_seed_the_seed_used_is_reported():
    result = seat_rounds(players=36, rounds=4, seconds=0.2)
    again = seat_rounds(players=36, rounds=4, seconds=0.2, seed=result.seed)
    assert isinstance(result.seed, int)
    assert again.repeated_pairs >= again.lower_bound


def test_zero_rounds_and_single_table():
    assert seat_rounds(players=12, rounds=0, seed=1).rounds == []
    single = seat_rounds(players=5, rounds=3, seed=1, seconds=1)
    assert single.rounds == [[[1, 2, 3, 4, 5]]] * 3
    assert single.repeated_pairs == 2 * 10 and single.optimal


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"players": 13, "rounds": 1}, "impossible_split"),
        ({"players": 0, "rounds": 1}, "invalid_players"),
        ({"players": [1, 2, 2, 3, 4, 5], "rounds": 1}, "invalid_players"),
        ({"players": "abcdef", "rounds": 1}, "invalid_players"),
        ({"players": 12, "rounds": -1}, "invalid_rounds"),
        ({"players": 12, "rounds": 1, "seed": 1, "seconds": -1}, "invalid_seconds"),
        ({"players": 12, "rounds": 1, "club_weight": -1}, "invalid_weights"),
        ({"players": 12, "rounds": 1, "history": [[[1, 2, 99]]]}, "unknown_player"),
        ({"players": 12, "rounds": 1, "history": [[[1, 2], [2, 3]]]}, "invalid_history"),
        ({"players": 12, "rounds": 1, "history": [[7]]}, "invalid_history"),
        ({"players": 12, "rounds": 1, "clubs": {99: "x"}}, "unknown_player"),
    ],
)
def test_refusals_have_stable_codes(kwargs, code):
    with pytest.raises(SeatingError) as info:
        seat_rounds(**{"seed": 1, "seconds": 0.1, **kwargs})
    assert info.value.code == code
    assert str(info.value) == info.value.message


# --- counting helpers and what-if evaluation ----------------------------------------------


def test_count_helpers():
    rounds = [[[1, 2, 3], [4, 5, 6]], [[1, 2, 4], [3, 5, 6]], [[1, 2, 5], [3, 4, 6]]]
    # (1,2) meets 3 times -> 2; (5,6), (3,6), (4,6) twice -> 1 each
    assert count_repeats(rounds=rounds) == 5 == brute_repeats(rounds)
    assert count_repeats(rounds=rounds[1:], history=rounds[:1]) == 5
    assert count_repeats(rounds=[], history=rounds) == 0
    clubs = {1: "a", 2: "a", 6: "b", 5: "b", 3: None}
    assert count_same_club(rounds=rounds, clubs=clubs) == 3 + 2
    assert count_same_club(rounds=rounds, clubs=None) == 0
    assert table_club_pairs(table=[1, 2, 3], clubs=clubs) == 1


def test_table_repeats_and_swap_and_move_effects_match_a_recount():
    rng = random.Random(3)
    for _ in range(30):
        players = list(range(1, 19))
        history = [seat_rounds(players=18, rounds=2, seed=rng.randrange(99), seconds=0).rounds[1]]
        clubs = clubs_of(players, [4, 3, 3], rng)
        tables = [players[i : i + 6] for i in range(0, 18, 6)]
        rng.shuffle(players)
        tables = [sorted(players[i : i + 6]) for i in range(0, 18, 6)]
        meetings = pair_meetings(rounds=history)

        def totals(ts, meetings=meetings, clubs=clubs):
            return (
                sum(table_repeats(table=t, meetings=meetings) for t in ts),
                sum(table_club_pairs(table=t, clubs=clubs) for t in ts),
            )

        assert totals(tables)[0] == count_repeats(rounds=[tables], history=history)
        a, b = rng.sample(range(1, 19), 2)
        swapped = [[b if p == a else a if p == b else p for p in t] for t in tables]
        delta = evaluate_swap(tables=tables, a=a, b=b, meetings=meetings, clubs=clubs)
        before, after = totals(tables), totals(swapped)
        assert (delta.repeats, delta.same_club) == (after[0] - before[0], after[1] - before[1])

        player, target = rng.randrange(1, 19), rng.randrange(3)
        moved = [[p for p in t if p != player] for t in tables]
        moved[target].append(player)
        delta = evaluate_move(
            tables=tables, player=player, to_table=target, meetings=meetings, clubs=clubs
        )
        after = totals(moved)
        assert (delta.repeats, delta.same_club) == (after[0] - before[0], after[1] - before[1])


def test_pair_meetings_is_unordered():
    meetings = pair_meetings(rounds=[[[1, 2]], [[2, 1]]])
    assert meetings[frozenset((1, 2))] == 2
    assert list(combinations([1, 2], 2)) == [(1, 2)]


# --- property: any instance gives a valid seating with honest counts -----------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=1, max_value=40),
    rounds=st.integers(min_value=0, max_value=4),
    size=st.integers(min_value=2, max_value=7),
    history_rounds=st.integers(min_value=0, max_value=2),
    club_count=st.integers(min_value=0, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_any_instance_gives_a_valid_seating_with_honest_counts(
    n, rounds, size, history_rounds, club_count, seed
):
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    clubs = {p: rng.randrange(club_count) for p in players if club_count and rng.random() < 0.7}
    history = []
    for _ in range(history_rounds):
        shuffled = players[:]
        rng.shuffle(shuffled)
        cut = rng.randint(1, max(1, n // 2))
        history.append([shuffled[:cut], shuffled[cut:]])
    result = seat_rounds(
        players=n,
        rounds=rounds,
        table_size=size,
        min_size=1,
        clubs=clubs,
        history=history,
        seed=seed,
        seconds=0.05,
    )
    assert_valid(result, players, rounds, table_sizes(n=n, table_size=size, min_size=1),
                 clubs=clubs, history=history)  # fmt: skip
    assert result.repeated_pairs == count_repeats(rounds=result.rounds, history=history)
    assert result.same_club_pairs == count_same_club(rounds=result.rounds, clubs=clubs)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(min_value=6, max_value=30),
    rounds=st.integers(min_value=1, max_value=5),
    size=st.integers(min_value=3, max_value=6),
    with_clubs=st.booleans(),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_the_search_tracks_its_cost_exactly(n, rounds, size, with_clubs, seed):
    """The incremental deltas agree with a recount (the best seating is chosen by them)."""
    from tournament.seating import generate as api
    from tournament.seating import search

    rng = random.Random(seed)
    sizes = table_sizes(n=n, table_size=size, min_size=1)
    clubs = {i: rng.randrange(3) for i in range(n)} if with_clubs else {}
    index = {i: i for i in range(n)}
    history = ((tuple(range(0, n, 2)), tuple(range(1, n, 2))),)
    prob = search.Problem(
        n=n,
        sizes=tuple(sizes),
        rounds=rounds,
        history=history,
        club_masks=api._club_masks(clubs, index),
        repeat_weight=1,
        club_weight=3,
    )
    outcome = search.tabu_search(
        prob=prob,
        starts=lambda attempt: api._greedy_start(prob, rng),
        lower_bound=-1,  # never reached: run the whole budget
        rng=rng,
        work_budget=20_000,
        deadline=float("inf"),
    )
    assert outcome.cost == search.recount_cost(prob, outcome.rounds)


def test_a_budget_bound_search_is_reproducible():
    """Without a reachable bound the search runs its work budget, not the clock: same seed,
    same seating (36 players at 6 tables cannot have 4 repeat-free rounds)."""
    from tournament.seating import generate as api
    from tournament.seating import search

    sizes = (6,) * 6
    prob = search.Problem(
        n=36, sizes=sizes, rounds=4, history=(), club_masks=(0,) * 36,
        repeat_weight=1, club_weight=10,
    )  # fmt: skip

    def run():
        rng = random.Random(5)
        return search.tabu_search(
            prob=prob,
            starts=lambda attempt: api._start(prob, attempt, rng),
            lower_bound=0,
            rng=rng,
            work_budget=300_000,
            deadline=float("inf"),
        )

    first, second = run(), run()
    assert first.cost > 0 and first.iterations > 50
    assert first.rounds == second.rounds and first.iterations == second.iterations


def _all_rounds(n: int, sizes: list[int]) -> list[list[list[int]]]:
    """Every way to seat players 0..n-1 at tables of ``sizes`` (tables unordered)."""
    found: set[tuple[tuple[int, ...], ...]] = set()

    def split(items, sizes_left, tables):
        if not sizes_left:
            found.add(tuple(sorted(tables)))
            return
        first, size = items[0], sizes_left[0]
        for rest in combinations(items[1:], size - 1):
            table = (first, *rest)
            split([x for x in items if x not in table], sizes_left[1:], [*tables, table])

    for order in set(permutations(sizes)):
        split(list(range(n)), list(order), [])
    return [[list(table) for table in tables] for tables in sorted(found)]


@pytest.mark.parametrize(
    ("n", "size", "rounds", "min_size"),
    [(5, 3, 3, None), (6, 3, 3, None), (6, 4, 2, 1), (7, 4, 3, None), (8, 4, 3, None)],
)
def test_tiny_instances_against_exhaustive_search(n, size, rounds, min_size):
    """The lower bound never exceeds the true optimum, and the search finds the optimum."""
    sizes = table_sizes(n=n, table_size=size, min_size=min_size)
    every = _all_rounds(n, sizes)
    optimum = min(
        brute_repeats([every[0], *rest]) for rest in product(every, repeat=rounds - 1)
    )  # the first round can be fixed: relabelling players changes nothing
    result = seat_rounds(
        players=list(range(n)), rounds=rounds, table_size=size, min_size=min_size,
        seed=1, seconds=0.5,
    )  # fmt: skip
    assert result.lower_bound <= optimum == result.repeated_pairs
