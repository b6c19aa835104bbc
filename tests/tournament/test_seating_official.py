"""Issue 18: tables of 4 with 5s (``larger``) and the 8-4-10 Social Golfer instance."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from commands import refused, seating

from tournament.seating import (
    SeatingError,
    count_repeats,
    seat_rounds,
    table_sizes,
)
from tournament.seating.doubled import applies, doubled_rounds


@pytest.mark.parametrize(
    ("n", "size", "expected"),
    [
        (22, 4, [5, 5, 4, 4, 4]),
        (37, 4, [5] + [4] * 8),
        (101, 4, [5] + [4] * 24),
        (32, 4, [4] * 8),
        (8, 4, [4, 4]),
        (10, 4, [5, 5]),
        (4, 4, [4]),
        (5, 4, [5]),
        (14, 6, [7, 7]),
    ],
)
def test_larger_tables_are_the_size_or_one_more(n, size, expected):
    sizes = table_sizes(n=n, table_size=size, larger=True)
    assert sizes == expected
    assert sum(sizes) == n
    # as few larger tables as possible: every extra seat is exactly one player over the size
    assert sizes.count(size + 1) == n % size


@pytest.mark.parametrize(("n", "size"), [(7, 4), (3, 4), (11, 4), (17, 6)])
def test_larger_tables_refuse_a_remainder_bigger_than_the_tables(n, size):
    with pytest.raises(SeatingError) as info:
        table_sizes(n=n, table_size=size, larger=True)
    assert info.value.code == "impossible_split"


def test_larger_does_not_mix_with_a_minimum_size():
    with pytest.raises(SeatingError) as info:
        table_sizes(n=22, table_size=4, min_size=3, larger=True)
    assert info.value.code == "invalid_min_size"


@pytest.mark.parametrize("q", [3, 4])
def test_doubled_affine_planes_have_no_repeated_pair(q):
    n = 2 * q * q
    rounds = doubled_rounds(n=n, sizes=[q] * (2 * q), limit=99)
    assert len(rounds) == 2 * (q + 1)
    seated = [[[p for p in range(n) if of[p] == t] for t in range(2 * q)] for of in rounds]
    meetings: Counter = Counter()
    for tables in seated:
        assert sorted(len(table) for table in tables) == [q] * (2 * q)
        for table in tables:
            meetings.update(combinations(sorted(table), 2))
    assert max(meetings.values()) == 1
    # every player meets all others but one: the largest possible number of rounds
    assert len(meetings) == n * (n - 2) // 2


def test_doubled_planes_apply_only_to_their_family():
    assert applies(n=32, sizes=[4] * 8) == 4
    assert applies(n=18, sizes=[3] * 6) == 3
    assert applies(n=36, sizes=[6] * 6) is None  # 6 is not a prime power
    assert applies(n=32, sizes=[5, 5, 4, 4, 4, 4, 4]) is None
    assert doubled_rounds(n=36, sizes=[6] * 6, limit=5) == []


def test_social_golfer_8_4_10_has_no_repeated_pair():
    result = seat_rounds(players=32, rounds=10, table_size=4, seed=3, seconds=10)
    assert result.repeated_pairs == 0 == count_repeats(rounds=result.rounds)
    assert result.optimal
    for tables in result.rounds:
        assert sorted(p for table in tables for p in table) == list(range(1, 33))


def test_larger_tables_keep_history_and_clubs():
    clubs = {p: f"club {p % 5}" for p in range(1, 23)}
    first = seat_rounds(players=22, rounds=1, table_size=4, larger=True, clubs=clubs, seed=1)
    assert [len(table) for table in first.rounds[0]].count(5) == 2
    assert first.same_club_pairs == 0
    more = seat_rounds(
        players=22, rounds=2, table_size=4, larger=True, history=first.rounds, seed=1, seconds=3
    )
    assert more.repeated_pairs == count_repeats(rounds=more.rounds, history=first.rounds) == 0
    assert all(sorted(map(len, tables)) == [4, 4, 4, 5, 5] for tables in more.rounds)


def test_command_seats_32_at_tables_of_4_for_10_rounds_without_a_repeat():
    done = seating("--players", 32, "--table-size", 4, "--rounds", 10)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["repeated_pairs"] == 0
    assert len(document["rounds"]) == 10
    assert count_repeats(rounds=document["rounds"]) == 0


def test_command_larger_seats_22_as_two_fives_and_three_fours():
    done = seating(
        "--players", 22, "--table-size", 4, "--rounds", 3, "--larger", "--seed", 1, "--seconds", 3
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    for tables in document["rounds"]:
        assert sorted(len(table) for table in tables) == [4, 4, 4, 5, 5]
    assert document["repeated_pairs"] == count_repeats(rounds=document["rounds"])


def test_command_larger_refuses_an_impossible_split_in_one_line():
    line = refused("--players", 7, "--table-size", 4, "--rounds", 1, "--larger")
    assert "impossible_split" in line
