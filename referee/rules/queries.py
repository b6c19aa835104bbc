"""Answers a banker needs, computed from the state: rent, costs, net worth, standings, and
what a player may do now. All take a ``GameState`` (or a ``Game``) and change nothing."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import asdict, dataclass, fields
from typing import Any

from referee.rules.board import Square
from referee.rules.contract import BANK
from referee.rules.engine import Game, check_event
from referee.rules.errors import RuleViolation
from referee.rules.rulesets import MortgagedGroupRent
from referee.rules.state import GameState

__all__ = [
    "NetWorth",
    "Standing",
    "build_cost",
    "building_sale_value",
    "checks_read",
    "interest_due",
    "legal_actions",
    "mortgage_value",
    "net_worth",
    "payoff_cost",
    "rent_due",
    "standings",
    "unowned_deeds",
]


def _state(state: GameState | Game) -> GameState:
    return state.state if isinstance(state, Game) else state


def _deed(s: GameState, deed: str | Square) -> Square:
    return s.board.deed(deed if isinstance(deed, str) else deed.key)


# --------------------------------------------------------------------------- rent and prices


def rent_due(state: GameState | Game, deed: str, *, dice: int | None = None) -> int:
    """The rent a player landing on ``deed`` owes its owner now (0 if none is due).

    Utilities need ``dice`` (the roll's total, 2–12). Stations count every station the owner
    has, mortgaged ones included; a mortgaged deed itself earns nothing.
    """
    s = _state(state)
    d = _deed(s, deed)
    owner = s.owner.get(d.key)
    if owner is None or d.key in s.mortgaged:
        return 0
    rules = s.rules
    if owner in s.in_jail and not rules.owner_in_jail_collects_rent:
        return 0
    group = s.board.group_members[d.key]
    if d.kind == "street":
        lvl = s.level[d.key]
        if lvl > rules.max_houses:
            return d.rent_hotel
        if lvl:
            return d.rents[lvl]
        if all(s.owner.get(k) == owner for k in group):
            none_mortgaged = not any(k in s.mortgaged for k in group)
            if (
                none_mortgaged
                or rules.mortgaged_group_rent == MortgagedGroupRent.DOUBLE_UNMORTGAGED
            ):
                return 2 * d.rents[0]
        return d.rents[0]
    owned = sum(1 for k in group if s.owner.get(k) == owner)
    if d.kind == "station":
        return d.rents[owned - 1]
    if dice is None or type(dice) is not int or not 2 <= dice <= 12:
        raise ValueError(f"rent for {d.name} depends on the dice: pass dice=2..12")
    return d.rents[owned - 1] * dice


def build_cost(state: GameState | Game, deed: str) -> int:
    """What the next building on ``deed`` costs (a hotel costs one more house's price)."""
    return _deed(_state(state), deed).house_cost


def building_sale_value(state: GameState | Game, deed: str) -> int:
    """What selling one building level of ``deed`` back to the bank returns (half price)."""
    return _deed(_state(state), deed).house_cost // 2


def mortgage_value(state: GameState | Game, deed: str) -> int:
    """What the bank pays for mortgaging ``deed``."""
    return _deed(_state(state), deed).mortgage


def payoff_cost(state: GameState | Game, deed: str) -> int:
    """Mortgage + 10 % interest rounded up, in whole numbers: ``(m * 11 + 9) // 10``."""
    return _deed(_state(state), deed).payoff


def interest_due(state: GameState | Game, deed: str) -> int:
    """The 10 % (rounded up) a player pays to keep a mortgaged deed they received."""
    return _deed(_state(state), deed).interest


def unowned_deeds(state: GameState | Game) -> list[str]:
    """Deeds still with the bank, in board order (what the auction stop must auction)."""
    s = _state(state)
    owner = s.owner
    return [d.key for d in s.board.deeds if d.key not in owner]


# --------------------------------------------------------------------------- net worth


@dataclass(frozen=True, slots=True)
class NetWorth:
    """Net worth by the rulebooks: cash, deeds at price, mortgaged deeds at half price,
    houses at cost, hotels at (max houses + 1) × house cost."""

    cash: int = 0
    deeds: int = 0
    mortgaged: int = 0
    houses: int = 0
    hotels: int = 0

    @property
    def total(self) -> int:
        return self.cash + self.deeds + self.mortgaged + self.houses + self.hotels

    def as_dict(self) -> dict[str, int]:
        """The parts by name, in field order (``asdict`` without its deep copy of each int:
        the console asks this twice per player on every post)."""
        return {name: getattr(self, name) for name in _NET_WORTH_FIELDS}


_NET_WORTH_FIELDS = tuple(field.name for field in fields(NetWorth))


def net_worth(state: GameState | Game, player: str) -> NetWorth:
    """The player's net worth with its breakdown; a bankrupt player is worth 0."""
    s = _state(state)
    if player not in s.seats:
        raise KeyError(f"unknown player {player!r}")
    if player in s.bankrupt_set:
        return NetWorth()
    max_houses = s.rules.max_houses
    hotel_units = max_houses + 1
    deeds = mortgaged = houses = hotels = 0
    level = s.level
    for d in s.deeds_of(player):
        if d.key in s.mortgaged:
            mortgaged += d.price // 2
        else:
            deeds += d.price
        lvl = level.get(d.key, 0)
        if lvl > max_houses:
            hotels += hotel_units * d.house_cost
        elif lvl:
            houses += lvl * d.house_cost
    return NetWorth(s.cash[player], deeds, mortgaged, houses, hotels)


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    place: int
    bankrupt: bool
    net_worth: int
    breakdown: NetWorth

    def as_dict(self) -> dict[str, Any]:
        """The fields in order, the breakdown as a dict of its own."""
        return asdict(self)


def standings(state: GameState | Game) -> list[Standing]:
    """Players best first: remaining ones by net worth (equal worth shares a place: 1, 1, 3),
    then bankrupt ones, the later bankruptcy above the earlier."""
    s = _state(state)
    worths = [(p, net_worth(s, p)) for p in s.players if p not in s.bankrupt_set]
    worths.sort(key=lambda item: -item[1].total)  # stable: seat order among equals
    out: list[Standing] = []
    previous: int | None = None
    place = 0
    for position, (player, worth) in enumerate(worths, start=1):
        total = worth.total
        if total != previous:
            place, previous = position, total
        out.append(Standing(player, place, False, total, worth))
    for player in reversed(s.bankrupt):
        out.append(Standing(player, len(out) + 1, True, 0, NetWorth()))
    return out


# --------------------------------------------------------------------------- legal actions


#: Refusals of a deed's action that do not depend on the deed: once one deed is refused with
#: one of them, every other deed of the same action (and player) is refused too, so the rest
#: are not checked. Per action: the checks before the handler (the game over, not started),
#: the player's fields, and the handler's own conditions on the status, the ruleset, the
#: player's deals and (an auction is always at the minimum bid) the bid and its cash.
_ANY_DEED = frozenset({"game_over", "not_started", "time_goes_backwards"})
_PLAYER_FIELD = frozenset({"missing_field", "wrong_type", "unknown_player", "player_bankrupt"})
_SAME_FOR_EVERY_DEED: dict[str, frozenset[str]] = {
    "deal": _ANY_DEED | _PLAYER_FIELD | {"deal_after_setup", "deals_not_allowed", "deal_limit"},
    "buy": _ANY_DEED | _PLAYER_FIELD | {"auction_stop_pending"},
    "auction": _ANY_DEED | _PLAYER_FIELD | {"bad_amount", "amount_too_large",
                                            "auction_below_min_bid", "insufficient_cash"},
}
#: What the checks of an action on a deed with the bank read of the deed (its handler:
#: ``handlers_deeds``): deeds alike in it get the same answer, so one of them is checked.
#: A deal reads the price (paid deals: only a ledger's exact cash refuses one), a purchase
#: also whether the deed must be auctioned, an auction at the minimum bid nothing of the deed.
_UNOWNED_DEED_READS: dict[str, Callable[[GameState, Square], Hashable]] = {
    "deal": lambda s, deed: deed.price if s.ledger else None,
    "buy": lambda s, deed: (deed.key in s.must_auction, deed.price if s.ledger else None),
    "auction": lambda s, deed: None,
}


def legal_actions(state: GameState | Game, player: str) -> dict[str, list[str]]:
    """What ``player`` may do now, per action: the deeds it applies to, or ``[]`` for actions
    without a deed (``jail``, ``release``, ``pay``, ``cash``, ``bankrupt``). Actions that are not
    allowed are absent. Each entry passed the same checks ``apply`` makes, with the simplest
    parameters (auction at the minimum bid, trade to the next player for no cash, pay 1 to the
    bank, bankrupt to the bank).

    A refusal that holds for every deed (``_SAME_FOR_EVERY_DEED``: e.g. dealing once play
    runs, anything once the game is over) ends that action's checks, and of the deeds with
    the bank one per kind the checks tell apart is checked (``_UNOWNED_DEED_READS``): the
    console asks this for every player on every post (issue 29).
    """
    s = _state(state)
    if player not in s.seats:
        raise KeyError(f"unknown player {player!r}")

    def allowed(event: dict[str, Any]) -> bool:
        try:
            check_event(s, event)
        except RuleViolation:
            return False
        return True

    def allowed_deeds(
        action: str, keys: list[str], event_for: Callable[[str], dict[str, Any]]
    ) -> list[str]:
        """The deeds of ``keys`` the action may take now; an event (``event_for``) made only
        for the deeds that are checked (a deed alike in what the checks read is not)."""
        same_for_all = _SAME_FOR_EVERY_DEED.get(action, _ANY_DEED)
        reads = _UNOWNED_DEED_READS.get(action)

        def passes(event: dict[str, Any]) -> bool | None:
            """True, False, or None: refused for every deed."""
            try:
                check_event(s, event)
            except RuleViolation as refusal:
                return None if refusal.code in same_for_all else False
            return True

        answers: dict[Hashable, bool | None] = {}
        deeds = []
        for key in keys:
            if reads is None:
                ok = passes(event_for(key))
            else:
                alike = reads(s, board.deed(key))
                if alike not in answers:
                    answers[alike] = passes(event_for(key))
                ok = answers[alike]
            if ok is None:
                return []
            if ok:
                deeds.append(key)
        return deeds

    out: dict[str, list[str]] = {}
    board = s.board
    owner = s.owner
    unowned = [d.key for d in board.deeds if d.key not in owner]
    mine = [d.key for d in board.deeds if owner.get(d.key) == player]
    partner = next((p for p in s.active_players if p != player), None)
    min_bid = s.rules.auction_min_bid
    candidates: list[tuple[str, list[str], Callable[[str], dict[str, Any]]]] = [
        ("deal", unowned, lambda k: {"type": "deal", "player": player, "deed": k}),
        ("buy", unowned, lambda k: {"type": "buy", "player": player, "deed": k}),
        ("auction", unowned,
         lambda k: {"type": "auction", "deed": k, "winner": player, "price": min_bid}),
        ("build", mine, lambda k: {"type": "build", "deed": k}),
        ("sell_building", mine, lambda k: {"type": "sell_building", "deed": k}),
        ("mortgage", mine, lambda k: {"type": "mortgage", "deed": k}),
        ("unmortgage", mine, lambda k: {"type": "unmortgage", "deed": k}),
    ]
    if partner is not None:
        candidates.append(
            ("trade", mine,
             lambda k: {"type": "trade", "from": player, "to": partner, "deeds": [k]})
        )
    for action, keys, event_for in candidates:
        deeds = allowed_deeds(action, keys, event_for)
        if deeds:
            out[action] = deeds
    for action, event in (
        ("jail", {"type": "jail", "player": player}),
        ("release", {"type": "release", "player": player}),
        ("pay", {"type": "pay", "from": player, "to": BANK, "amount": 1}),
        ("cash", {"type": "cash", "player": player, "amount": 0}),
        ("bankrupt", {"type": "bankrupt", "player": player, "creditor": BANK}),
    ):
        if allowed(event):
            out[action] = []
    return out


#: What of the state the checks of ``legal_actions`` do not read: the set and the seats are
#: made from ``bankrupt`` and ``players``; ``last_at`` only for an event with an ``at`` (the
#: candidates have none).
_NOT_READ = frozenset({"bankrupt_set", "seats", "last_at"})


def checks_read(state: GameState | Game) -> tuple[Hashable, ...]:
    """Everything ``legal_actions`` reads of the state (for any player), as a hashable value:
    equal values give equal answers, so a caller may keep the answers by it (the console, on
    every post: a payment between players changes nothing here without the ledger). The board
    and the ruleset by identity (the caller keeps them alive with the answers); the cash only
    in ledger mode (``_afford``, ``bankrupt``: cash refuses nothing otherwise)."""
    s = _state(state)
    return (
        id(s.board), id(s.rules), s.players, s.ledger,
        tuple(s.cash.items()) if s.ledger else None,
        tuple(s.owner.items()), frozenset(s.mortgaged), tuple(s.level.items()),
        s.houses_in_bank, s.hotels_in_bank, frozenset(s.in_jail), tuple(s.bankrupt),
        tuple(s.deals.items()), frozenset(s.must_auction), s.started, s.status, s.end_reason,
        s.auction_stop, s.paused, s.clock_start, s.clock_known, s.paused_total,
        s.pause_started, s.final_turns,
    )
