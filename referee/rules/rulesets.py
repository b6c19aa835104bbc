"""Rulesets as data: one frozen dataclass per rulebook, no rule-specific code paths.

Every parameter of ``shared/rules/RULESETS.md`` is a field. Adding a ruleset means adding an
entry to ``RULESETS``; a tournament adjusts one with ``ruleset.replace(time_limit_minutes=60)``.
Amounts are printed in the currency of ``money_scale`` (1 = the standard board, 20 = DM) and
follow the board a game is played on via ``for_board``.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from typing import Any

from referee.rules.board import Board

__all__ = [
    "RULESETS",
    "BuildingShortage",
    "EndCondition",
    "MortgagedGroupRent",
    "Ruleset",
    "TimeLimitMode",
    "WinnerRule",
    "get_ruleset",
]


class MortgagedGroupRent(enum.StrEnum):
    """Rent on an unimproved street of a complete group in which a street is mortgaged."""

    SINGLE = "single"  # Karlsruhe: only single rent on the others
    DOUBLE_UNMORTGAGED = "double_unmortgaged"  # classic German: double on the unmortgaged ones
    DOUBLE_ONLY_IF_NONE_MORTGAGED = "double_only_if_none_mortgaged"  # castle edition wording


class BuildingShortage(enum.StrEnum):
    """How the bank hands out buildings when several players want more than it has."""

    AUCTION_LAST_HOUSE = "auction_last_house"  # Karlsruhe: the last house, start bid 10
    AUCTION_EACH = "auction_each"  # classic: one by one, min = lowest printed house price


class EndCondition(enum.StrEnum):
    SECOND_BANKRUPTCY = "second_bankruptcy"
    FIRST_BANKRUPTCY = "first_bankruptcy"
    LAST_PLAYER_STANDING = "last_player_standing"
    TIME_LIMIT_ONLY = "time_limit_only"


class WinnerRule(enum.StrEnum):
    HIGHEST_NET_WORTH = "highest_net_worth"
    LAST_PLAYER_STANDING = "last_player_standing"


class TimeLimitMode(enum.StrEnum):
    """What ``time_up`` does: end at once, or start a final round the banker closes (``end``)."""

    AT_ONCE = "at_once"
    FINISH_ROUND = "finish_round"


_MONEY_FIELDS = (
    "start_cash", "salary", "jail_fine", "auction_min_bid", "building_auction_min_bid",
    "max_amount",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """The parameters of one rulebook (see the table in RULESETS.md)."""

    key: str
    name: str
    sources: tuple[str, ...] = ()
    # table
    players_min: int = 2
    players_max: int = 8
    table_size: int | None = None  # nominal seats per table (Karlsruhe: 6 plus a banker)
    # money (in the currency of money_scale)
    money_scale: int = 1
    start_cash: int = 1500
    salary: int = 200
    jail_fine: int = 50
    # The largest amount one event may carry (a payment, a count, a price, a trade's cash):
    # a typo of many zeros is refused, and sums stay far inside 64-bit columns.
    max_amount: int = 10_000_000
    # set-up
    deal_count: int = 0  # deeds dealt to each player at the start
    deals_paid: bool = True  # printed price paid to the bank at once
    # building
    max_houses: int = 4  # houses per street = houses handed in for a hotel
    house_supply: int = 32
    hotel_supply: int = 12
    building_shortage: BuildingShortage = BuildingShortage.AUCTION_EACH
    building_auction_min_bid: int | None = None  # None: the board's lowest printed house price
    # jail
    owner_in_jail_collects_rent: bool = True
    owner_in_jail_may_build: bool = True
    must_leave_jail_next_turn: bool = False  # informational: the engine does not track turns
    # rent
    mortgaged_group_rent: MortgagedGroupRent = MortgagedGroupRent.DOUBLE_UNMORTGAGED
    rent_lapses_after_next_roll: bool = True  # informational: rent must be demanded in time
    free_parking_pot: bool = False  # informational: no rulebook here pays out a pot
    lending_allowed: bool = False  # a trade without deeds would be a loan
    # auctions
    auction_min_bid: int = 0  # classic: any amount
    auction_stop_minute: int | None = None  # Karlsruhe: 45
    # time and end
    time_limit_minutes: int | None = None
    time_limit_agreed: bool = False  # the table agrees on a limit (set it with replace())
    time_guide_minutes: tuple[int, int] | None = None  # a rulebook's length guide, not a limit
    time_limit_mode: TimeLimitMode = TimeLimitMode.AT_ONCE
    end_condition: EndCondition = EndCondition.LAST_PLAYER_STANDING
    winner: WinnerRule = WinnerRule.LAST_PLAYER_STANDING
    default_board: str = "classic-de"

    def __post_init__(self) -> None:
        if not 2 <= self.players_min <= self.players_max:
            raise ValueError("need 2 <= players_min <= players_max")
        if self.max_houses < 1:
            raise ValueError("max_houses must be at least 1")
        if self.deal_count < 0 or self.start_cash < 0 or self.money_scale < 1:
            raise ValueError("deal_count, start_cash must be >= 0 and money_scale >= 1")
        if self.time_limit_minutes is not None and self.time_limit_minutes <= 0:
            raise ValueError("time_limit_minutes must be positive")
        if self.auction_stop_minute is not None and self.auction_stop_minute <= 0:
            raise ValueError("auction_stop_minute must be positive")

    @property
    def has_time_limit(self) -> bool:
        """Whether ``time_up`` may be recorded at all."""
        return self.time_limit_minutes is not None or self.time_limit_agreed

    @property
    def hotel_value_in_houses(self) -> int:
        """A hotel counts as its own price plus the houses handed in: max_houses + 1 houses."""
        return self.max_houses + 1

    def replace(self, **overrides: Any) -> Ruleset:
        """A copy with some parameters changed (tournament overrides); validated again."""
        return dataclasses.replace(self, **overrides)

    def for_board(self, board: Board) -> Ruleset:
        """This ruleset with its amounts converted to the board's currency (× 20 on DM)."""
        if board.money_scale == self.money_scale:
            return self
        changes: dict[str, Any] = {"money_scale": board.money_scale}
        for name in _MONEY_FIELDS:
            value = getattr(self, name)
            if value is not None:
                changes[name] = value * board.money_scale // self.money_scale
        return dataclasses.replace(self, **changes)

    def overrides_from(self, base: Ruleset) -> dict[str, Any]:
        """The fields that differ from ``base``, JSON-ready (for a record's ``overrides``)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            mine, theirs = getattr(self, f.name), getattr(base, f.name)
            if mine != theirs:
                out[f.name] = list(mine) if isinstance(mine, tuple) else mine
        return out

    def with_overrides(self, overrides: dict[str, Any]) -> Ruleset:
        """Apply JSON overrides (as written by ``overrides_from``), checking names and types."""
        changes: dict[str, Any] = {}
        hints = typing.get_type_hints(Ruleset)
        for name, value in overrides.items():
            if name not in hints or name == "key":
                raise ValueError(f"unknown ruleset parameter {name!r}")
            changes[name] = _coerce(name, hints[name], value)
        return self.replace(**changes)


def _coerce(name: str, hint: Any, value: Any) -> Any:
    """Turn a JSON value into the field's type, or raise ValueError naming the field."""
    options = (
        typing.get_args(hint)
        if typing.get_origin(hint) in (typing.Union, types.UnionType)
        else (hint,)
    )
    for option in options:
        if option is type(None):
            if value is None:
                return None
            continue
        if isinstance(option, type) and issubclass(option, enum.Enum):
            try:
                return option(value)
            except ValueError:
                continue
        if option is bool and isinstance(value, bool):
            return value
        if option is int and isinstance(value, int) and not isinstance(value, bool):
            return value
        if option is str and isinstance(value, str):
            return value
        if (
            typing.get_origin(option) is tuple
            and isinstance(value, list | tuple)
            and all(isinstance(v, int | str) and not isinstance(v, bool) for v in value)
        ):
            return tuple(value)
    raise ValueError(f"ruleset parameter {name!r} cannot be {value!r}")


_CLASSIC = Ruleset(
    key="classic",
    name="Klassisch (Standardspiel)",
    sources=("000", "002", "004"),
    players_min=2,
    players_max=8,
    deal_count=0,
    max_houses=4,
    building_shortage=BuildingShortage.AUCTION_EACH,
    building_auction_min_bid=None,
    mortgaged_group_rent=MortgagedGroupRent.DOUBLE_UNMORTGAGED,
    auction_min_bid=0,
    end_condition=EndCondition.LAST_PLAYER_STANDING,
    winner=WinnerRule.LAST_PLAYER_STANDING,
)

RULESETS: types.MappingProxyType[str, Ruleset] = types.MappingProxyType(
    {
        r.key: r
        for r in (
            Ruleset(
                key="karlsruhe",
                name="1. Monopoly Stadtmeisterschaft Karlsruhe",
                sources=("003",),
                players_min=2,  # 6 per table; the seating makes short tables of 5 when N does not divide
                players_max=6,
                table_size=6,
                deal_count=2,
                deals_paid=True,
                max_houses=3,
                building_shortage=BuildingShortage.AUCTION_LAST_HOUSE,
                building_auction_min_bid=10,
                owner_in_jail_collects_rent=False,
                owner_in_jail_may_build=False,
                mortgaged_group_rent=MortgagedGroupRent.SINGLE,
                auction_min_bid=1,
                auction_stop_minute=45,
                time_limit_minutes=90,
                end_condition=EndCondition.SECOND_BANKRUPTCY,
                winner=WinnerRule.HIGHEST_NET_WORTH,
            ),
            _CLASSIC,
            _CLASSIC.replace(
                key="short-game",
                name="Kurzspiel",
                sources=("000", "004"),
                deal_count=2,
                deals_paid=True,
                max_houses=3,
                end_condition=EndCondition.SECOND_BANKRUPTCY,
                winner=WinnerRule.HIGHEST_NET_WORTH,
            ),
            _CLASSIC.replace(
                key="time-limit",
                name="Spielvariante mit Zeitlimit",
                sources=("000", "004"),
                deal_count=2,
                deals_paid=True,
                time_limit_agreed=True,
                end_condition=EndCondition.TIME_LIMIT_ONLY,
                winner=WinnerRule.HIGHEST_NET_WORTH,
            ),
            _CLASSIC.replace(
                key="castle-short",
                name="Schloss-Edition, kurzes Spiel",
                sources=("001",),
                deal_count=3,
                deals_paid=False,
                max_houses=3,
                building_shortage=BuildingShortage.AUCTION_EACH,
                building_auction_min_bid=1,
                mortgaged_group_rent=MortgagedGroupRent.DOUBLE_ONLY_IF_NONE_MORTGAGED,
                must_leave_jail_next_turn=True,
                auction_min_bid=1,
                time_guide_minutes=(60, 90),
                end_condition=EndCondition.FIRST_BANKRUPTCY,
                winner=WinnerRule.HIGHEST_NET_WORTH,
            ),
            _CLASSIC.replace(
                key="classic-dm",
                name="Klassisch, DM-Ausgabe",
                sources=("000",),
                money_scale=20,
                start_cash=30_000,
                salary=4_000,
                jail_fine=1_000,
                max_amount=200_000_000,
                default_board="classic-de-dm",
            ),
        )
    }
)


def get_ruleset(key: str) -> Ruleset:
    """A registered ruleset by key (KeyError naming the known keys if unknown)."""
    try:
        return RULESETS[key]
    except KeyError:
        raise KeyError(f"unknown ruleset {key!r}; known: {', '.join(RULESETS)}") from None
