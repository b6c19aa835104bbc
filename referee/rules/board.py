"""Boards (editions) as data: squares, deeds, colour groups, prices and rents.

A board is loaded from a CSV file (the shape of ``data/classic-de.csv``) or from JSON of the
same shape, validated once, and then immutable. The engine never hard-codes a price or a group:
every amount comes from the board, so an organiser's own edition works the same way.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

__all__ = [
    "BOARD_KEYS",
    "COLUMNS",
    "DEED_KINDS",
    "KINDS",
    "Board",
    "BoardError",
    "Square",
    "board_from_csv",
    "board_from_json",
    "get_board",
    "load_board",
]

DATA_DIR = Path(__file__).resolve().parent / "data"

COLUMNS = (
    "position",
    "key",
    "name",
    "kind",
    "group",
    "price",
    "mortgage",
    "house_cost",
    "rent_0",
    "rent_1",
    "rent_2",
    "rent_3",
    "rent_4",
    "rent_hotel",
)
MONEY_COLUMNS = COLUMNS[5:]
RENT_COLUMNS = ("rent_0", "rent_1", "rent_2", "rent_3", "rent_4")
KINDS = frozenset(
    {
        "street",
        "station",
        "utility",
        "tax",
        "chance",
        "community",
        "go",
        "jail",
        "free_parking",
        "go_to_jail",
    }
)
DEED_KINDS = frozenset({"street", "station", "utility"})

# What each kind needs besides position/key/name/kind.
_REQUIRED: dict[str, tuple[str, ...]] = {
    "street": ("group", "price", "mortgage", "house_cost", *RENT_COLUMNS, "rent_hotel"),
    "station": ("group", "price", "mortgage", "rent_0", "rent_1", "rent_2", "rent_3"),
    "utility": ("group", "price", "mortgage", "rent_0", "rent_1"),
    "tax": ("price",),
}
# Stations are priced by how many of them the owner has, utilities likewise: a group with more
# members than rent columns could not be priced.
_MAX_IN_GROUP = {"station": 4, "utility": 2}
_KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class BoardError(ValueError):
    """A board file that cannot be used; ``line`` is 1-based (CSV line or JSON item)."""

    def __init__(self, reason: str, *, line: int | None = None, unit: str = "line") -> None:
        self.reason = reason
        self.line = line
        self.unit = unit
        super().__init__(f"{unit} {line}: {reason}" if line is not None else reason)


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the board. Deeds (street, station, utility) carry prices and rents.

    ``rents`` holds rent_0 … rent_4 as printed (stations: by stations owned, utilities: dice
    multipliers by utilities owned); absent values are 0.
    """

    position: int
    key: str
    name: str
    kind: str
    group: str = ""
    price: int = 0
    mortgage: int = 0
    house_cost: int = 0
    rents: tuple[int, ...] = ()
    rent_hotel: int = 0

    @property
    def is_deed(self) -> bool:
        return self.kind in DEED_KINDS

    @property
    def payoff(self) -> int:
        """Mortgage + 10 % interest, rounded up in whole numbers (175 → 193, 200 → 220)."""
        return (self.mortgage * 11 + 9) // 10

    @property
    def interest(self) -> int:
        """10 % of the mortgage, rounded up: due when a mortgaged deed changes hands."""
        return (self.mortgage + 9) // 10


class Board:
    """An immutable board: squares by position, deeds in board order, groups, key lookups.

    ``money_scale`` says in which currency the amounts are printed relative to the standard
    board (1; the DM edition is 20) so that a ruleset's start cash and fines can follow it.
    """

    __slots__ = (
        "key",
        "name",
        "money_scale",
        "squares",
        "deeds",
        "groups",
        "_by_key",
        "_deeds",
        "group_members",
        "lowest_house_cost",
    )
    # Set once in __init__ (through object.__setattr__: the board is immutable).
    key: str
    name: str
    money_scale: int
    squares: tuple[Square, ...]
    deeds: tuple[Square, ...]
    groups: Mapping[str, tuple[str, ...]]
    _by_key: Mapping[str, Square]
    _deeds: Mapping[str, Square]
    group_members: Mapping[str, tuple[str, ...]]
    lowest_house_cost: int

    def __init__(
        self, squares: Iterable[Square], *, key: str, name: str = "", money_scale: int = 1
    ) -> None:
        sq = tuple(sorted(squares, key=lambda s: s.position))
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "name", name or key)
        object.__setattr__(self, "money_scale", money_scale)
        object.__setattr__(self, "squares", sq)
        deeds = tuple(s for s in sq if s.is_deed)
        object.__setattr__(self, "deeds", deeds)
        object.__setattr__(self, "_by_key", MappingProxyType({s.key: s for s in sq}))
        object.__setattr__(self, "_deeds", MappingProxyType({d.key: d for d in deeds}))
        groups: dict[str, list[str]] = {}
        for d in deeds:
            groups.setdefault(d.group, []).append(d.key)
        frozen = {g: tuple(keys) for g, keys in groups.items()}
        object.__setattr__(self, "groups", MappingProxyType(frozen))
        # deed key -> every deed of its group (itself included): the hot lookup for building.
        members = {k: frozen[d.group] for k, d in self._deeds.items()}
        object.__setattr__(self, "group_members", MappingProxyType(members))
        costs = [d.house_cost for d in deeds if d.kind == "street"]
        object.__setattr__(self, "lowest_house_cost", min(costs) if costs else 0)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Board is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its squares, so a pickled game (e.g. in a cache) carries its board.
        return (_unpickle_board, (self.squares, self.key, self.name, self.money_scale))

    def __repr__(self) -> str:
        return f"<Board {self.key}: {len(self.squares)} squares, {len(self.deeds)} deeds>"

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def square(self, key: str) -> Square:
        """The square with this key (KeyError if unknown)."""
        return self._by_key[key]

    def deed(self, key: str) -> Square:
        """The deed with this key (KeyError if unknown or not a deed)."""
        return self._deeds[key]

    def get_deed(self, key: str) -> Square | None:
        return self._deeds.get(key)

    @property
    def deed_keys(self) -> tuple[str, ...]:
        return tuple(self._deeds)

    def streets(self) -> tuple[Square, ...]:
        return tuple(d for d in self.deeds if d.kind == "street")

    def scaled(self, factor: int, *, key: str, name: str = "") -> Board:
        """The same board with every amount × factor (how the DM edition relates to €/M)."""
        squares = [
            Square(
                position=s.position,
                key=s.key,
                name=s.name,
                kind=s.kind,
                group=s.group,
                price=s.price * factor,
                mortgage=s.mortgage * factor,
                house_cost=s.house_cost * factor,
                rents=tuple(r * factor for r in s.rents),
                rent_hotel=s.rent_hotel * factor,
            )
            for s in self.squares
        ]
        return Board(squares, key=key, name=name, money_scale=self.money_scale * factor)


def _unpickle_board(squares: tuple[Square, ...], key: str, name: str, money_scale: int) -> Board:
    return Board(squares, key=key, name=name, money_scale=money_scale)


# --------------------------------------------------------------------------- parsing


def _whole(value: Any, column: str, where: tuple[int, str]) -> int | None:
    """A whole, non-negative amount, or None when the cell is empty."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise BoardError(f"{column} is not a whole number", line=where[0], unit=where[1])
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if not text.isdigit() and not (text.startswith("-") and text[1:].isdigit()):
            raise BoardError(f"{column} is not a whole number", line=where[0], unit=where[1])
        number = int(text)
    else:
        raise BoardError(f"{column} is not a whole number", line=where[0], unit=where[1])
    if number < 0:
        raise BoardError(f"{column} must not be negative", line=where[0], unit=where[1])
    return number


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value.strip() if isinstance(value, str) else str(value)


def _square(row: Mapping[str, Any], line: int, unit: str) -> Square:
    where = (line, unit)
    position = _whole(row.get("position"), "position", where)
    if position is None:
        raise BoardError("position is missing", line=line, unit=unit)
    key = _text(row.get("key"))
    if not key:
        raise BoardError("key is missing", line=line, unit=unit)
    if not _KEY_RE.match(key):
        raise BoardError(
            f"key {key!r} must be lower-case ASCII letters, digits, '-' or '_'",
            line=line,
            unit=unit,
        )
    name = _text(row.get("name"))
    if not name:
        raise BoardError("name is missing", line=line, unit=unit)
    kind = _text(row.get("kind"))
    if kind not in KINDS:
        raise BoardError(
            f"kind {kind!r} is unknown (one of {', '.join(sorted(KINDS))})", line=line, unit=unit
        )
    values = {c: _whole(row.get(c), c, where) for c in MONEY_COLUMNS}
    group = _text(row.get("group"))
    for column in _REQUIRED.get(kind, ()):
        if column == "group":
            if not group:
                raise BoardError(f"a {kind} needs a group", line=line, unit=unit)
        elif values[column] is None:
            raise BoardError(f"a {kind} needs {column}", line=line, unit=unit)
    if kind in DEED_KINDS and not values["price"]:
        raise BoardError(f"a {kind} needs a price above 0", line=line, unit=unit)
    return Square(
        position=position,
        key=key,
        name=name,
        kind=kind,
        group=group if kind in DEED_KINDS else "",
        price=values["price"] or 0,
        mortgage=values["mortgage"] or 0,
        house_cost=values["house_cost"] or 0,
        rents=tuple(values[c] or 0 for c in RENT_COLUMNS),
        rent_hotel=values["rent_hotel"] or 0,
    )


def _build(
    rows: Iterable[tuple[int, Mapping[str, Any]]],
    *,
    key: str,
    name: str,
    money_scale: int,
    unit: str,
) -> Board:
    squares: list[Square] = []
    seen_keys: dict[str, int] = {}
    seen_positions: dict[int, int] = {}
    group_kind: dict[str, str] = {}
    group_size: dict[str, int] = {}
    last_line = 0
    for line, row in rows:
        last_line = line
        if not isinstance(row, Mapping):
            raise BoardError("is not an object with the board's columns", line=line, unit=unit)
        s = _square(row, line, unit)
        if s.key in seen_keys:
            raise BoardError(
                f"key {s.key!r} is used twice (first on {unit} {seen_keys[s.key]})",
                line=line,
                unit=unit,
            )
        if s.position in seen_positions:
            raise BoardError(
                f"position {s.position} is used twice (first on {unit} {seen_positions[s.position]})",
                line=line,
                unit=unit,
            )
        if s.is_deed:
            other = group_kind.setdefault(s.group, s.kind)
            if other != s.kind:
                raise BoardError(
                    f"group {s.group!r} mixes {other} and {s.kind}", line=line, unit=unit
                )
            group_size[s.group] = group_size.get(s.group, 0) + 1
            limit = _MAX_IN_GROUP.get(s.kind)
            if limit is not None and group_size[s.group] > limit:
                raise BoardError(
                    f"group {s.group!r} has more than {limit} {s.kind}s; rents cannot price them",
                    line=line,
                    unit=unit,
                )
        seen_keys[s.key] = line
        seen_positions[s.position] = line
        squares.append(s)
    if not squares:
        raise BoardError("the board has no squares", line=max(last_line, 1), unit=unit)
    _check_positions(seen_positions, count=len(squares), unit=unit)
    if not any(s.is_deed for s in squares):
        raise BoardError("the board has no deeds", line=last_line, unit=unit)
    return Board(squares, key=key, name=name, money_scale=money_scale)


def _check_positions(seen_positions: dict[int, int], *, count: int, unit: str) -> None:
    """The squares' positions are 0 to count - 1, each once (``seen_positions``: position →
    line)."""
    for position in range(count):
        if position not in seen_positions:
            bad = max(seen_positions)
            raise BoardError(
                f"positions must be 0..{count - 1}: {position} is missing, {bad} is out of range",
                line=seen_positions[bad],
                unit=unit,
            )


def board_from_csv(text: str, *, key: str, name: str = "", money_scale: int = 1) -> Board:
    """Parse a board from CSV text with the columns of ``classic-de.csv`` (header on line 1)."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = next(reader)
    except StopIteration:
        raise BoardError("the file is empty", line=1) from None
    header = [h.strip() for h in header]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise BoardError(f"missing column {missing[0]!r}", line=1)

    def rows() -> Iterable[tuple[int, dict[str, str]]]:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise BoardError(f"has {len(cells)} cells, the header has {len(header)}", line=line)
            yield line, dict(zip(header, cells, strict=True))

    return _build(rows(), key=key, name=name, money_scale=money_scale, unit="line")


def board_from_json(
    data: Any, *, key: str | None = None, name: str = "", money_scale: int | None = None
) -> Board:
    """Build a board from JSON data: a list of squares, or ``{"squares": [...]}``.

    The object form may carry ``key``, ``name`` and ``money_scale``; arguments win over them.
    """
    if isinstance(data, Mapping):
        items = data.get("squares")
        key = key or data.get("key")
        name = name or data.get("name", "")
        if money_scale is None:
            money_scale = data.get("money_scale", 1)
    else:
        items = data
    if money_scale is None:
        money_scale = 1
    if not isinstance(items, list):
        raise BoardError(
            "expected a list of squares or an object with 'squares'", line=1, unit="item"
        )
    if not key or not isinstance(key, str):
        raise BoardError("the board needs a key", line=1, unit="item")
    if not isinstance(money_scale, int) or isinstance(money_scale, bool) or money_scale < 1:
        raise BoardError("money_scale must be a whole number ≥ 1", line=1, unit="item")
    return _build(
        enumerate(items, start=1), key=key, name=name, money_scale=money_scale, unit="item"
    )


def load_board(
    path: str | Path, *, key: str | None = None, name: str = "", money_scale: int | None = None
) -> Board:
    """Load an organiser's board from a ``.csv`` or ``.json`` file (key defaults to the stem)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BoardError(f"not valid JSON: {exc.msg}", line=exc.lineno) from None
        if key is None and not (isinstance(data, Mapping) and data.get("key")):
            key = path.stem
        return board_from_json(data, key=key, name=name, money_scale=money_scale)
    return board_from_csv(text, key=key or path.stem, name=name, money_scale=money_scale or 1)


# --------------------------------------------------------------------------- built-in boards

# key -> (file in data/, money scale, display name)
_BUILTIN = {
    "classic-de": ("classic-de.csv", 1, "Monopoly, deutsche Standardausgabe (M / €)"),
    "classic-de-dm": ("classic-de-dm.csv", 20, "Monopoly, deutsche Ausgabe in DM (× 20)"),
}
BOARD_KEYS = tuple(_BUILTIN)


@cache
def get_board(key: str) -> Board:
    """A built-in board by key (KeyError if unknown). Loaded once, shared (it is immutable)."""
    if key not in _BUILTIN:
        raise KeyError(f"unknown board {key!r}; known: {', '.join(BOARD_KEYS)}")
    filename, scale, name = _BUILTIN[key]
    text = (DATA_DIR / filename).read_text(encoding="utf-8")
    return board_from_csv(text, key=key, name=name, money_scale=scale)
