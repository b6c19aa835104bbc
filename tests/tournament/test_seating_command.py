"""``manage.py seating`` as organisers run it: JSON on stdout and exit 0, or one line and exit 2."""

from __future__ import annotations

import io
import json
from itertools import combinations
from pathlib import Path

import pytest
from commands import refused, seating
from django.core.management import call_command


def recount(rounds, history=()) -> int:
    meetings: dict[tuple[int, int], int] = {}
    for tables in [*history, *rounds]:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                meetings[pair] = meetings.get(pair, 0) + 1
    before: dict[tuple[int, int], int] = {}
    for tables in history:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                before[pair] = before.get(pair, 0) + 1
    return sum(c - 1 for c in meetings.values()) - sum(c - 1 for c in before.values())


def test_prints_one_json_document_and_exits_0():
    done = seating("--players", 36, "--table-size", 6, "--rounds", 3, "--seed", 1, "--seconds", 5)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert set(document) == {"rounds", "repeated_pairs", "same_club_pairs"}
    assert len(document["rounds"]) == 3
    for tables in document["rounds"]:
        assert sorted(p for table in tables for p in table) == list(range(1, 37))
        assert [len(table) for table in tables] == [6] * 6
    assert document["repeated_pairs"] == 0 == recount(document["rounds"])
    assert document["same_club_pairs"] == 0


def test_clubs_history_and_min_size(tmp_path):
    clubs = tmp_path / "clubs.csv"
    clubs.write_text("player,club\n1,Berlin\n2,Berlin\n3,Berlin\n\n4, Köln\n5,Köln\n", "utf-8")
    history = tmp_path / "history.json"
    history.write_text(json.dumps([[[1, 4, 7, 10, 13], [2, 5, 8, 11], [3, 6, 9, 12]]]))
    done = seating(
        "--players", 13, "--rounds", 2, "--seed", 3, "--seconds", 2, "--min-size", 4,
        "--clubs", clubs, "--history", history,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    for tables in document["rounds"]:
        assert sorted(len(table) for table in tables) == [4, 4, 5]
    history_rounds = json.loads(history.read_text())
    assert document["repeated_pairs"] == recount(document["rounds"], history_rounds)
    club = {1: "B", 2: "B", 3: "B", 4: "K", 5: "K"}
    same = sum(
        1
        for tables in document["rounds"]
        for table in tables
        for a, b in combinations(table, 2)
        if club.get(a) and club.get(a) == club.get(b)
    )
    assert document["same_club_pairs"] == same == 0


def test_an_earlier_output_can_be_the_history(tmp_path):
    first = seating("--players", 42, "--rounds", 2, "--seed", 1, "--seconds", 2)
    history = tmp_path / "round12.json"
    history.write_text(first.stdout)
    done = seating("--players", 42, "--rounds", 3, "--seed", 1, "--history", history)
    document = json.loads(done.stdout)
    assert document["repeated_pairs"] == 0
    assert recount(json.loads(first.stdout)["rounds"] + document["rounds"]) == 0


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--players", 13, "--rounds", 2], "impossible_split"),
        (["--rounds", 2], "--players"),
        (["--players", "many", "--rounds", 2], "invalid int value"),
        (["--players", 12, "--rounds", 1, "--clubs", "/nonexistent/clubs.csv"], "invalid_file"),
    ],
)
def test_refusals_are_one_line_and_exit_2(args, expected):
    line = refused(*args)
    assert line.startswith("seating: ") and expected in line


# In-process for the many file variants (same code path, no interpreter start-up each time).


def refused_in_process(*args: str | Path) -> str:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("seating", *map(str, args), stdout=out, stderr=err)
    assert info.value.code == 2
    assert out.getvalue() == ""
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, err.getvalue()
    return lines[0]


@pytest.mark.parametrize(
    ("option", "text", "expected"),
    [
        ("--clubs", "1,A\n2\n", "invalid_clubs: {path} line 2"),
        ("--clubs", "1,A\n2,\n", "invalid_clubs: {path} line 2"),
        ("--clubs", "1,A\n13,B\n", "unknown_player: {path} line 2"),
        ("--clubs", "one,A\n", "invalid_clubs: {path} line 1"),
        ("--clubs", "1,A\n1,B\n", "invalid_clubs: {path} line 2"),
        ("--clubs", "1,A,extra\n", "invalid_clubs: {path} line 1"),
        ("--history", "[[[1, 2, 3], [4, 5, 99]]]", "unknown_player: "),
        ("--history", "[[[1, 2, 3], [3, 4]]]", "invalid_history: "),
        ("--history", "[[[1, 2, 3]]", "invalid_file: "),
        ("--history", '[[["1", 2, 3]]]', "invalid_history: "),
        ("--history", '{"tables": []}', "invalid_history: "),
        ("--history", "[[1, 2, 3]]", "invalid_history: "),
    ],
)
def test_a_bad_clubs_or_history_file_is_refused_in_one_line(tmp_path, option, text, expected):
    path = tmp_path / "input.txt"
    path.write_text(text)
    line = refused_in_process("--players", 12, "--rounds", 1, "--seconds", 1, option, path)
    assert line.startswith("seating: " + expected.format(path=path))


def test_in_process_output_is_the_same_document():
    out = io.StringIO()
    call_command("seating", "--players", "30", "--rounds", "2", "--seed", "1", stdout=out)
    document = json.loads(out.getvalue())
    assert document["repeated_pairs"] == 5 == recount(document["rounds"])
