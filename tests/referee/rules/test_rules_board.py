"""Boards as data: the shipped boards, organisers' CSV/JSON boards, and malformed files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from require import missing

from referee.rules import (
    Board,
    BoardError,
    board_from_csv,
    board_from_json,
    get_board,
    load_board,
)
from referee.rules.board import COLUMNS, DATA_DIR

REPO = Path(__file__).resolve().parents[3]
#: ``shared/`` lies beside the repository (/work/main and /work/shared; a fresh clone in CI with
#: shared/ beside it), or beside the folder that holds the developers' worktrees (/work/wt/x).
SHARED = next(
    (folder / "shared" for folder in REPO.parents if (folder / "shared" / "data").is_dir()),
    REPO.parent / "shared",
)
SHARED_CSV = SHARED / "data" / "boards" / "classic-de.csv"


def classic_rows() -> list[dict[str, str]]:
    text = (DATA_DIR / "classic-de.csv").read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def to_csv(rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def test_classic_board_shape() -> None:
    board = get_board("classic-de")
    assert len(board.squares) == 40
    assert [s.position for s in board.squares] == list(range(40))
    assert len(board.deeds) == 28
    assert board.deeds[0].key == "badstrasse" and board.deeds[-1].key == "schlossallee"
    assert board.groups["dunkelblau"] == ("parkstrasse", "schlossallee")
    assert board.groups["bahnhof"] == ("suedbahnhof", "westbahnhof", "nordbahnhof", "hauptbahnhof")
    assert len(board.groups) == 10
    park = board.deed("parkstrasse")
    assert (park.name, park.price, park.mortgage, park.house_cost) == ("Parkstraße", 350, 175, 200)
    assert park.rents == (35, 175, 500, 1100, 1300) and park.rent_hotel == 1500
    assert board.square("einkommensteuer").price == 200
    assert board.money_scale == 1
    assert board.lowest_house_cost == 50


def test_board_is_immutable_and_shared() -> None:
    board = get_board("classic-de")
    assert get_board("classic-de") is board
    with pytest.raises(AttributeError):
        board.key = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        board.groups["braun"] = ()  # type: ignore[index]


def test_packaged_csv_is_the_shared_board() -> None:
    if not SHARED_CSV.is_file():
        missing(f"the shared board data ({SHARED_CSV}) beside the repository")
    assert (DATA_DIR / "classic-de.csv").read_bytes() == SHARED_CSV.read_bytes()


def test_dm_board_is_classic_times_twenty() -> None:
    classic, dm = get_board("classic-de"), get_board("classic-de-dm")
    assert dm.money_scale == 20
    assert get_board("classic-de-dm") is dm and dm is not classic and dm.key == "classic-de-dm"
    scaled = classic.scaled(20, key="x")
    for a, b in zip(dm.squares, scaled.squares, strict=True):
        assert (a.key, a.name, a.price, a.mortgage, a.house_cost, a.rents, a.rent_hotel) == (
            b.key,
            b.name,
            b.price,
            b.mortgage,
            b.house_cost,
            b.rents,
            b.rent_hotel,
        )
    # Utilities: 80x / 200x the dice on the DM board.
    assert dm.deed("wasserwerk").rents[:2] == (80, 200)
    assert dm.deed("schlossallee").price == 8000
    assert dm.square("einkommensteuer").price == 4000


def test_unknown_board_key() -> None:
    with pytest.raises(KeyError, match="classic-de"):
        get_board("monopoly-mars")


def test_custom_csv_board_renamed(tmp_path: Path) -> None:
    rows = classic_rows()
    rows[39]["name"] = "Burg Altenbury"
    rows[39]["key"] = "altenbury"
    path = tmp_path / "castle.csv"
    path.write_text(to_csv(rows), encoding="utf-8")
    board = load_board(path)
    assert board.key == "castle"
    assert board.deed("altenbury").name == "Burg Altenbury"
    assert board.groups["dunkelblau"] == ("parkstrasse", "altenbury")


def test_json_board_list_and_object_forms(tmp_path: Path) -> None:
    rows = classic_rows()
    as_list = board_from_json(rows, key="json-board")
    assert len(as_list.deeds) == 28
    typed = [{k: (int(v) if v.isdigit() else (v or None)) for k, v in r.items()} for r in rows]
    path = tmp_path / "b.json"
    path.write_text(
        json.dumps({"key": "mine", "money_scale": 1, "squares": typed}), encoding="utf-8"
    )
    board = load_board(path)
    assert board.key == "mine"
    assert board.deed("parkstrasse").payoff == 193


def test_smaller_board_allowed() -> None:
    rows = [r for r in classic_rows() if int(r["position"]) < 10]
    board = board_from_csv(to_csv(rows), key="mini")
    assert len(board.squares) == 10
    assert board.groups["hellblau"] == ("chausseestrasse", "elisenstrasse", "poststrasse")


def _broken(change: dict[str, str], index: int = 5) -> str:
    rows = classic_rows()
    rows[index] = {**rows[index], **change}
    return to_csv(rows)


@pytest.mark.parametrize(
    ("change", "index", "line", "reason"),
    [
        ({"price": "6O"}, 1, 3, "price is not a whole number"),
        ({"price": "60.5"}, 1, 3, "price is not a whole number"),
        ({"rent_hotel": ""}, 1, 3, "a street needs rent_hotel"),
        ({"house_cost": ""}, 6, 8, "a street needs house_cost"),
        ({"group": ""}, 6, 8, "a street needs a group"),
        ({"rent_3": ""}, 5, 7, "a station needs rent_3"),
        ({"rent_1": ""}, 12, 14, "a utility needs rent_1"),
        ({"price": ""}, 4, 6, "a tax needs price"),
        ({"kind": "castle"}, 2, 4, "kind 'castle' is unknown"),
        ({"key": "turmstrasse"}, 1, 5, "key 'turmstrasse' is used twice (first on line 3)"),
        ({"key": "Bad Straße"}, 1, 3, "must be lower-case"),
        ({"name": ""}, 1, 3, "name is missing"),
        ({"price": "-60"}, 1, 3, "price must not be negative"),
        ({"position": "x"}, 1, 3, "position is not a whole number"),
        ({"group": "bahnhof"}, 1, 7, "group 'bahnhof' mixes street and station"),
    ],
)
def test_malformed_csv_names_line_and_reason(
    change: dict[str, str], index: int, line: int, reason: str
) -> None:
    with pytest.raises(BoardError) as err:
        board_from_csv(_broken(change, index), key="bad")
    assert err.value.line == line
    assert reason in err.value.reason
    assert str(err.value).startswith(f"line {line}: ")


def test_duplicate_and_missing_positions() -> None:
    with pytest.raises(BoardError, match=r"position 1 is used twice"):
        board_from_csv(_broken({"position": "1"}, 2), key="bad")
    with pytest.raises(BoardError, match=r"positions must be 0..39: 2 is missing, 40"):
        board_from_csv(_broken({"position": "40"}, 2), key="bad")


def test_fifth_station_cannot_be_priced() -> None:
    rows = classic_rows()
    rows[1] = {**rows[5], "key": "extra-bahnhof", "position": "1"}
    with pytest.raises(BoardError, match="more than 4 stations") as err:
        board_from_csv(to_csv(rows), key="bad")
    assert err.value.line == 37  # the fifth station met in file order (hauptbahnhof)


def test_missing_column_and_empty_file() -> None:
    text = to_csv(classic_rows()).replace(",rent_hotel", "", 1)
    with pytest.raises(BoardError, match="line 1: missing column 'rent_hotel'"):
        board_from_csv(text, key="bad")
    with pytest.raises(BoardError, match="line 1: the file is empty"):
        board_from_csv("", key="bad")
    with pytest.raises(BoardError, match="line 3: has 3 cells"):
        board_from_csv(",".join(COLUMNS) + "\n0,los,Los,go,,,,,,,,,,\n1,a,b\n", key="bad")


def test_malformed_json_names_item() -> None:
    rows = classic_rows()
    rows[2] = {**rows[2], "kind": "castle"}
    with pytest.raises(BoardError) as err:
        board_from_json(rows, key="bad")
    assert err.value.line == 3 and str(err.value).startswith("item 3: ")
    rows = classic_rows()
    typed = [dict(r) for r in rows]
    typed[1]["price"] = 60.5  # type: ignore[assignment]
    with pytest.raises(BoardError, match="item 2: price is not a whole number"):
        board_from_json(typed, key="bad")
    with pytest.raises(BoardError, match="item 2: is not an object"):
        board_from_json([rows[0], "street"], key="bad")
    with pytest.raises(BoardError, match="expected a list"):
        board_from_json({"squares": "no"}, key="bad")


def test_invalid_json_file(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text("[{]", encoding="utf-8")
    with pytest.raises(BoardError, match="not valid JSON"):
        load_board(path)


def test_board_repr_and_lookup() -> None:
    board: Board = get_board("classic-de")
    assert "40 squares" in repr(board)
    assert "los" in board and "nowhere" not in board
    with pytest.raises(KeyError):
        board.deed("los")  # a square, not a deed
    assert board.get_deed("los") is None
    assert [s.key for s in board.streets()][:2] == ["badstrasse", "turmstrasse"]
