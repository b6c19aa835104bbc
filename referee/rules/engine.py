"""The referee: a table's state and the rules that move it, one event at a time.

``Game`` is what the console keeps per table: ``apply`` validates and applies an event
incrementally (cheap), ``check`` validates without changing anything, a ``void`` rebuilds the
state from the record without the voided event. Every handler validates completely before it
changes anything, so a refused event leaves the state untouched.

What this project adds to the record contract (all optional):

* event ``end``: closes the final round when the ruleset's ``time_limit_mode`` is
  ``finish_round`` (``time_up`` then only starts the final round; status ``final_round``);
* ``trade.unmortgage`` / ``bankrupt.unmortgage``: mortgaged deeds the receiver pays off at once;
* ``release.fine``: ``true`` when the player paid the jail fine (charged to the player);
* ``build.price``: the building was auctioned because the bank ran short (the price is paid
  instead of the house cost; Karlsruhe: only the bank's last house, minimum 10).

Decisions where the rulebooks leave room (RULESETS.md "Decisions" are followed as written):

* Before ``start`` only ``deal`` is accepted. Set-up ends with the first play event (anything
  but ``start``, ``deal``, ``pause``, ``resume``, ``cash``, ``void``); no deal after it. The
  engine does not insist that every player received all their deals.
* Mortgaged deeds received in a trade or a (non-final) bankruptcy: the receiver pays 10 %
  interest at once and keeps them mortgaged, unless listed under ``unmortgage`` (then mortgage
  + 10 % at once). A later pay-off costs mortgage + 10 % again.
* Bankruptcy to a player: every building goes back to the bank at half its price, that money
  and the bankrupt player's cash (never below 0) go to the creditor, the deeds pass. To the
  bank: deeds return free of mortgage and must then be auctioned (``buy`` is refused for them
  until an ``auction`` happened); buildings return to the bank's supply.
* The game ends at the ruleset's bankruptcy (first/second) and in every ruleset when only one
  player is left (``last_player_standing``); ``time_limit_only`` is not ended by bankruptcies.
* After the auction stop ``buy`` is refused for every deed for the rest of the game: a deed
  the bank still has (no bid, or returned by a bankruptcy) can only be auctioned.
* Clock: game time = wall time since ``start`` minus breaks, from ``at``. When ``start`` or a
  break has no ``at`` the game time is unknown and the 45/90-minute checks are skipped (the
  banker is trusted). ``at`` may never go backwards.
* ``void``: the voided event counts as never recorded. The state equals a replay of the record
  without every voided event (and without the voids); a void is refused if a remaining event
  would then be refused. A ``void`` or the ``start`` cannot be voided, nor an event twice.
  A void after the end may reopen the game (e.g. voiding the game-ending bankruptcy).
* A trade without deeds is refused (lending between players is forbidden), unless the ruleset
  sets ``lending_allowed``.
* Stations count every station the owner has, mortgaged ones included (the mortgaged one earns
  nothing). ``single`` and ``double_only_if_none_mortgaged`` give the same amounts: the
  rulebooks phrase the same rule from two sides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from .board import Board, Square, get_board
from .errors import Localized, RecordError, RuleViolation
from .rulesets import EndCondition, Ruleset, TimeLimitMode, get_ruleset

__all__ = [
    "BANK",
    "EVENT_TYPES",
    "PROJECT_EVENT_TYPES",
    "Game",
    "GameState",
    "check_event",
]

BANK = "bank"

# Status values of a game.
SETUP, RUNNING, FINAL_ROUND, FINISHED = "setup", "running", "final_round", "finished"

# The contract's event types, and the one this project adds (``end`` closes a final round).
EVENT_TYPES = (
    "start",
    "pause",
    "resume",
    "deal",
    "buy",
    "auction",
    "auction_stop",
    "build",
    "sell_building",
    "mortgage",
    "unmortgage",
    "trade",
    "jail",
    "release",
    "pay",
    "cash",
    "bankrupt",
    "time_up",
    "void",
)
PROJECT_EVENT_TYPES = ("end",)

# Events that are not play: any other event closes the set-up (no more deals afterwards).
_SETUP_EVENTS = frozenset({"start", "deal", "pause", "resume", "cash", "void"})

_MISSING = object()
_PLAYER = Localized("ein Spieler (Text)", "a player (text)")
_PLAYER_OR_BANK = Localized("ein Spieler oder „bank“", "a player or 'bank'")
_DEED = Localized("eine Besitzrechtkarte (Text)", "a deed key (text)")
_DEED_LIST = Localized("eine Liste von Besitzrechtkarten", "a list of deed keys")
_WHOLE = Localized("eine ganze Zahl", "a whole number")
_BOOL = Localized("true oder false", "true or false")
_TEXT = Localized("ein Text", "a text")
_TIME = Localized("ein Zeitpunkt (Text)", "a time (text)")


class GameState:
    """Everything the rules need to know about a table at one moment. Plain data, no history.

    ``level`` counts building levels per street: 1 … max_houses houses, max_houses + 1 = hotel.
    ``owner`` has an entry only for deeds that belong to a player.
    """

    __slots__ = (
        "board",
        "rules",
        "players",
        "seats",
        "ledger",
        "cash",
        "owner",
        "mortgaged",
        "level",
        "houses_in_bank",
        "hotels_in_bank",
        "in_jail",
        "bankrupt",
        "bankrupt_set",
        "deals",
        "must_auction",
        "started",
        "status",
        "end_reason",
        "auction_stop",
        "paused",
        "clock_start",
        "clock_known",
        "paused_total",
        "pause_started",
        "last_at",
    )

    def __init__(
        self, *, board: Board, rules: Ruleset, players: tuple[str, ...], ledger: bool
    ) -> None:
        self.board = board
        self.rules = rules
        self.players = players
        self.seats = frozenset(players)
        self.ledger = ledger
        self.cash = dict.fromkeys(players, rules.start_cash)
        self.owner: dict[str, str] = {}
        self.mortgaged: set[str] = set()
        self.level = {d.key: 0 for d in board.deeds if d.kind == "street"}
        self.houses_in_bank = rules.house_supply
        self.hotels_in_bank = rules.hotel_supply
        self.in_jail: set[str] = set()
        self.bankrupt: list[str] = []  # in the order they went bankrupt
        self.bankrupt_set: set[str] = set()
        self.deals = dict.fromkeys(players, 0)
        self.must_auction: set[str] = set()  # deeds a mid-game bankruptcy gave back to the bank
        self.started = False
        self.status = SETUP
        self.end_reason: str | None = None
        self.auction_stop = False
        self.paused = False
        self.clock_start: datetime | None = None
        self.clock_known = False  # game time is computable (start and all breaks carried ``at``)
        self.paused_total = timedelta()
        self.pause_started: datetime | None = None
        self.last_at: datetime | None = None

    # ---- derived facts the rules and the queries share

    @property
    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.bankrupt_set)

    def deeds_of(self, player: str) -> list[Square]:
        """The player's deeds in board order."""
        owner = self.owner
        return [d for d in self.board.deeds if owner.get(d.key) == player]

    def houses(self, street: str) -> int:
        lvl = self.level.get(street, 0)
        return lvl if lvl <= self.rules.max_houses else 0

    def has_hotel(self, street: str) -> bool:
        return self.level.get(street, 0) > self.rules.max_houses

    def game_time(self, at: datetime | None) -> timedelta | None:
        """Wall time since ``start`` minus table-wide breaks; None when it cannot be known."""
        if at is None or not self.clock_known or self.clock_start is None:
            return None
        now = self.pause_started if self.paused and self.pause_started is not None else at
        return now - self.clock_start - self.paused_total

    def snapshot(self) -> dict[str, Any]:
        """A plain, comparable picture of the state (two replays agree iff snapshots do)."""
        return {
            "status": self.status,
            "end_reason": self.end_reason,
            "cash": dict(self.cash),
            "owner": dict(sorted(self.owner.items())),
            "mortgaged": sorted(self.mortgaged),
            "level": {k: v for k, v in self.level.items() if v},
            "houses_in_bank": self.houses_in_bank,
            "hotels_in_bank": self.hotels_in_bank,
            "in_jail": sorted(self.in_jail),
            "bankrupt": list(self.bankrupt),
            "deals": dict(self.deals),
            "must_auction": sorted(self.must_auction),
            "started": self.started,
            "auction_stop": self.auction_stop,
            "paused": self.paused,
            "clock_known": self.clock_known,
            "paused_total": self.paused_total.total_seconds(),
        }


# --------------------------------------------------------------------------- field readers


def _refuse(code: str, idx: int | None, ev: Any, **params: Any) -> RuleViolation:
    return RuleViolation(code, index=idx, event=ev, **params)


def _field(ev: Mapping[str, Any], name: str, idx: int | None) -> Any:
    value = ev.get(name, _MISSING)
    if value is _MISSING:
        raise _refuse("missing_field", idx, ev, field=name)
    return value


def _player(
    s: GameState,
    ev: Mapping[str, Any],
    idx: int | None,
    name: str = "player",
    *,
    bank: bool = False,
) -> str:
    value = _field(ev, name, idx)
    if type(value) is not str:
        raise _refuse(
            "wrong_type", idx, ev, field=name, expected=_PLAYER_OR_BANK if bank else _PLAYER
        )
    if value not in s.seats:
        if bank and value == BANK:
            return value
        raise _refuse("unknown_player", idx, ev, player=value)
    if value in s.bankrupt_set:
        raise _refuse("player_bankrupt", idx, ev, player=value)
    return value


def _deed(
    s: GameState,
    ev: Mapping[str, Any],
    idx: int | None,
    value: Any = _MISSING,
    name: str = "deed",
) -> Square:
    if value is _MISSING:
        value = _field(ev, name, idx)
    if type(value) is not str:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_DEED)
    deed = s.board.get_deed(value)
    if deed is None:
        if value in s.board:
            raise _refuse("not_a_deed", idx, ev, deed=s.board.square(value).name)
        raise _refuse("unknown_deed", idx, ev, deed=value)
    return deed


def _deed_list(s: GameState, ev: Mapping[str, Any], idx: int | None, name: str) -> list[Square]:
    """A list of deed keys; ``deeds`` is required, other lists (``unmortgage``) optional."""
    values = _field(ev, name, idx) if name == "deeds" else ev.get(name)
    if values is None and name != "deeds":
        return []
    if type(values) is not list:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_DEED_LIST)
    deeds = [_deed(s, ev, idx, v, name) for v in values]
    if len({d.key for d in deeds}) != len(deeds):
        seen: set[str] = set()
        for d in deeds:
            if d.key in seen:
                raise _refuse("duplicate_deed", idx, ev, deed=d.name)
            seen.add(d.key)
    return deeds


def _amount(
    ev: Mapping[str, Any], name: str, idx: int | None, minimum: int, default: Any = _MISSING
) -> int:
    value = ev.get(name, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise _refuse("missing_field", idx, ev, field=name)
        return default
    if type(value) is not int:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_WHOLE)
    if value < minimum:
        raise _refuse("bad_amount", idx, ev, field=name, minimum=minimum, value=value)
    return value


def _flag(ev: Mapping[str, Any], name: str, idx: int | None) -> bool:
    value = ev.get(name, False)
    if type(value) is not bool:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_BOOL)
    return value


def _parse_at(value: Any, ev: Mapping[str, Any], idx: int | None) -> datetime:
    if type(value) is not str:
        raise _refuse("wrong_type", idx, ev, field="at", expected=_TIME)
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise _refuse("bad_time", idx, ev, at=value) from None
    if at.tzinfo is None:
        raise _refuse("bad_time", idx, ev, at=value)
    return at


def _afford(s: GameState, player: str, amount: int, idx: int | None, ev: Any) -> None:
    """In ledger mode cash is exact, so a payment beyond it is refused; otherwise it is a guess."""
    if s.ledger and amount > s.cash[player]:
        raise _refuse(
            "insufficient_cash", idx, ev, player=player, cash=s.cash[player], amount=amount
        )


def _owner_of(s: GameState, deed: Square, idx: int | None, ev: Any) -> str:
    owner = s.owner.get(deed.key)
    if owner is None:
        raise _refuse("deed_unowned", idx, ev, deed=deed.name)
    return owner


def _clock(minutes: int) -> str:
    return f"{minutes}:00"


def _clock_td(td: timedelta) -> str:
    seconds = int(td.total_seconds())
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def _level_words(level: int, max_houses: int, *, bare: bool) -> Localized:
    if level > max_houses:
        return Localized("ein Hotel", "a hotel")
    if bare and level:
        return Localized(str(level), str(level))
    if level == 0:
        return Localized("kein Haus", "no house")
    if level == 1:
        return Localized("1 Haus", "1 house")
    return Localized(f"{level} Häuser", f"{level} houses")


def _built_in_group(s: GameState, deed: Square) -> list[str]:
    level = s.level
    return [s.board.deed(k).name for k in s.board.group_members[deed.key] if level.get(k, 0)]


# --------------------------------------------------------------------------- handlers
# Each handler: (state, event, index, at, commit). Validate everything, then (if commit) change.


def _start(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if s.started:
        raise _refuse("already_started", idx, ev)
    if commit:
        s.started = True
        s.clock_start = at
        s.clock_known = at is not None


def _pause(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if s.paused:
        raise _refuse("already_paused", idx, ev)
    if commit:
        s.paused = True
        s.pause_started = at
        if at is None:
            s.clock_known = False


def _resume(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if not s.paused:
        raise _refuse("not_paused", idx, ev)
    if commit:
        if s.clock_known and at is not None and s.pause_started is not None:
            s.paused_total += at - s.pause_started
        else:
            s.clock_known = False
        s.paused = False
        s.pause_started = None


def _deal(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    player = _player(s, ev, idx)
    deed = _deed(s, ev, idx)
    rules = s.rules
    if s.status != SETUP:
        raise _refuse("deal_after_setup", idx, ev)
    if rules.deal_count == 0:
        raise _refuse("deals_not_allowed", idx, ev, ruleset=rules.key)
    owner = s.owner.get(deed.key)
    if owner is not None:
        raise _refuse("deed_already_owned", idx, ev, deed=deed.name, owner=owner)
    if s.deals[player] >= rules.deal_count:
        raise _refuse("deal_limit", idx, ev, player=player, limit=rules.deal_count)
    price = deed.price if rules.deals_paid else 0
    _afford(s, player, price, idx, ev)
    if commit:
        s.owner[deed.key] = player
        s.deals[player] += 1
        s.cash[player] -= price


def _buy(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    player = _player(s, ev, idx)
    deed = _deed(s, ev, idx)
    owner = s.owner.get(deed.key)
    if owner is not None:
        raise _refuse("deed_already_owned", idx, ev, deed=deed.name, owner=owner)
    if s.auction_stop:
        raise _refuse("auction_stop_pending", idx, ev, deed=deed.name)
    if deed.key in s.must_auction:
        raise _refuse("auction_required", idx, ev, deed=deed.name)
    _afford(s, player, deed.price, idx, ev)
    if commit:
        s.owner[deed.key] = player
        s.cash[player] -= deed.price


def _auction(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    deed = _deed(s, ev, idx)
    winner = None if _field(ev, "winner", idx) is None else _player(s, ev, idx, "winner")
    price = _amount(ev, "price", idx, 0, default=_MISSING if winner else 0)
    owner = s.owner.get(deed.key)
    if owner is not None:
        raise _refuse("deed_already_owned", idx, ev, deed=deed.name, owner=owner)
    if winner is None:
        if price:
            raise _refuse("auction_price_without_winner", idx, ev, deed=deed.name, price=price)
    else:
        if price < s.rules.auction_min_bid:
            raise _refuse(
                "auction_below_min_bid", idx, ev, minimum=s.rules.auction_min_bid, price=price
            )
        _afford(s, winner, price, idx, ev)
    if commit:
        s.must_auction.discard(deed.key)
        if winner is not None:
            s.owner[deed.key] = winner
            s.cash[winner] -= price


def _auction_stop(
    s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool
) -> None:
    minute = s.rules.auction_stop_minute
    if minute is None:
        raise _refuse("no_auction_stop", idx, ev, ruleset=s.rules.key)
    if s.auction_stop:
        raise _refuse("auction_stop_repeated", idx, ev)
    elapsed = s.game_time(at)
    if elapsed is not None and elapsed < timedelta(minutes=minute):
        raise _refuse(
            "auction_stop_too_early", idx, ev, minimum=_clock(minute), game_time=_clock_td(elapsed)
        )
    if commit:
        s.auction_stop = True


def _street(s: GameState, ev: Any, idx: int | None) -> tuple[Square, str]:
    deed = _deed(s, ev, idx)
    if deed.kind != "street":
        raise _refuse("not_a_street", idx, ev, deed=deed.name)
    return deed, _owner_of(s, deed, idx, ev)


def _build(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    deed, owner = _street(s, ev, idx)
    rules, board, level, key = s.rules, s.board, s.level, deed.key
    group = board.group_members[key]
    owners = s.owner
    for k in group:
        if owners.get(k) != owner:
            raise _refuse(
                "incomplete_group",
                idx,
                ev,
                player=owner,
                group=deed.group,
                missing=board.deed(k).name,
            )
    for k in group:
        if k in s.mortgaged:
            raise _refuse("mortgaged_in_group", idx, ev, mortgaged=board.deed(k).name)
    if not rules.owner_in_jail_may_build and owner in s.in_jail:
        raise _refuse("owner_in_jail", idx, ev, player=owner)
    current = level[key]
    top = rules.max_houses
    if current > top:
        raise _refuse("max_buildings", idx, ev, deed=deed.name)
    for k in group:
        if level[k] < current:
            raise _refuse(
                "uneven_building",
                idx,
                ev,
                other=board.deed(k).name,
                other_level=_level_words(level[k], top, bare=False),
                deed=deed.name,
                deed_level=_level_words(current, top, bare=True),
            )
    hotel = current == top
    if hotel:
        if s.hotels_in_bank < 1:
            raise _refuse("no_hotels_left", idx, ev, supply=rules.hotel_supply)
    elif s.houses_in_bank < 1:
        raise _refuse("no_houses_left", idx, ev, supply=rules.house_supply)
    cost = deed.house_cost
    if "price" in ev:  # the building was auctioned because the bank ran short
        price = _amount(ev, "price", idx, 0)
        if rules.building_shortage == "auction_last_house" and (hotel or s.houses_in_bank != 1):
            raise _refuse("building_auction_not_allowed", idx, ev, houses=s.houses_in_bank)
        minimum = rules.building_auction_min_bid
        if minimum is None:
            minimum = board.lowest_house_cost
        if price < minimum:
            raise _refuse("auction_below_min_bid", idx, ev, minimum=minimum, price=price)
        cost = price
    _afford(s, owner, cost, idx, ev)
    if commit:
        level[key] = current + 1
        s.cash[owner] -= cost
        if hotel:
            s.hotels_in_bank -= 1
            s.houses_in_bank += top
        else:
            s.houses_in_bank -= 1


def _sell_building(
    s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool
) -> None:
    deed, owner = _street(s, ev, idx)
    rules, board, level, key = s.rules, s.board, s.level, deed.key
    current = level[key]
    if current == 0:
        raise _refuse("no_building", idx, ev, deed=deed.name)
    top = rules.max_houses
    for k in board.group_members[key]:
        if level[k] > current:
            raise _refuse(
                "uneven_selling",
                idx,
                ev,
                other=board.deed(k).name,
                other_level=_level_words(level[k], top, bare=False),
                deed=deed.name,
                deed_level=_level_words(current, top, bare=True),
            )
    hotel = current > top
    if hotel and s.houses_in_bank < top:
        raise _refuse(
            "no_houses_for_hotel", idx, ev, deed=deed.name, needed=top, houses=s.houses_in_bank
        )
    if commit:
        level[key] = current - 1
        s.cash[owner] += deed.house_cost // 2
        if hotel:
            s.hotels_in_bank += 1
            s.houses_in_bank -= top
        else:
            s.houses_in_bank += 1


def _mortgage(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    deed = _deed(s, ev, idx)
    owner = _owner_of(s, deed, idx, ev)
    if deed.key in s.mortgaged:
        raise _refuse("already_mortgaged", idx, ev, deed=deed.name)
    built = _built_in_group(s, deed)
    if built:
        raise _refuse("buildings_in_group", idx, ev, deed=deed.name, built=", ".join(built))
    if commit:
        s.mortgaged.add(deed.key)
        s.cash[owner] += deed.mortgage


def _unmortgage(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    deed = _deed(s, ev, idx)
    owner = _owner_of(s, deed, idx, ev)
    if deed.key not in s.mortgaged:
        raise _refuse("not_mortgaged", idx, ev, deed=deed.name)
    cost = deed.payoff
    _afford(s, owner, cost, idx, ev)
    if commit:
        s.mortgaged.discard(deed.key)
        s.cash[owner] -= cost


def _take_over_costs(
    s: GameState,
    deeds: list[Square],
    pay_off: list[Square],
    idx: int | None,
    ev: Any,
    *,
    interest: bool = True,
) -> int:
    """What the receiver of mortgaged deeds owes the bank: pay-off for those paid off at once,
    10 % interest for those kept mortgaged (a later pay-off costs another 10 %)."""
    keys = {d.key for d in deeds}
    paid = set()
    cost = 0
    for d in pay_off:
        if d.key not in keys:
            raise _refuse("not_transferred", idx, ev, deed=d.name)
        if d.key not in s.mortgaged:
            raise _refuse("not_mortgaged", idx, ev, deed=d.name)
        paid.add(d.key)
        cost += d.payoff
    if interest:
        for d in deeds:
            if d.key in s.mortgaged and d.key not in paid:
                cost += d.interest
    return cost


def _trade(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    giver = _player(s, ev, idx, "from")
    taker = _player(s, ev, idx, "to")
    if giver == taker:
        raise _refuse("same_party", idx, ev, party=giver)
    deeds = _deed_list(s, ev, idx, "deeds")
    if not deeds and not s.rules.lending_allowed:
        raise _refuse("trade_without_deeds", idx, ev)
    cash = _amount(ev, "cash", idx, 0, default=0)
    for d in deeds:
        owner = s.owner.get(d.key)
        if owner != giver:
            if owner is None:
                raise _refuse("deed_unowned", idx, ev, deed=d.name)
            raise _refuse("not_owner", idx, ev, deed=d.name, owner=owner, player=giver)
        built = _built_in_group(s, d)
        if built:
            raise _refuse("buildings_in_group", idx, ev, deed=d.name, built=", ".join(built))
    pay_off = _deed_list(s, ev, idx, "unmortgage")
    bank_cost = _take_over_costs(s, deeds, pay_off, idx, ev)
    _afford(s, taker, cash + bank_cost, idx, ev)
    if commit:
        owners = s.owner
        for d in deeds:
            owners[d.key] = taker
        for d in pay_off:
            s.mortgaged.discard(d.key)
        s.cash[taker] -= cash + bank_cost
        s.cash[giver] += cash


def _jail(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    player = _player(s, ev, idx)
    if player in s.in_jail:
        raise _refuse("already_in_jail", idx, ev, player=player)
    if commit:
        s.in_jail.add(player)


def _release(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    player = _player(s, ev, idx)
    if player not in s.in_jail:
        raise _refuse("not_in_jail", idx, ev, player=player)
    fine = s.rules.jail_fine if _flag(ev, "fine", idx) else 0
    _afford(s, player, fine, idx, ev)
    if commit:
        s.in_jail.discard(player)
        s.cash[player] -= fine


def _pay(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    payer = _player(s, ev, idx, "from", bank=True)
    payee = _player(s, ev, idx, "to", bank=True)
    if payer == payee:
        raise _refuse("same_party", idx, ev, party=payer)
    amount = _amount(ev, "amount", idx, 1)
    reason = ev.get("reason")
    if reason is not None and type(reason) is not str:
        raise _refuse("wrong_type", idx, ev, field="reason", expected=_TEXT)
    if payer != BANK:
        _afford(s, payer, amount, idx, ev)
    if commit:
        if payer != BANK:
            s.cash[payer] -= amount
        if payee != BANK:
            s.cash[payee] += amount


def _cash(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    player = _player(s, ev, idx)
    amount = _amount(ev, "amount", idx, 0)
    if commit:
        s.cash[player] = amount


def _ending_bankruptcy(s: GameState) -> str | None:
    """The end reason if one more bankruptcy ends the game now, else None."""
    count = len(s.bankrupt) + 1
    condition = s.rules.end_condition
    if condition == EndCondition.FIRST_BANKRUPTCY:
        return "first_bankruptcy"
    if condition == EndCondition.SECOND_BANKRUPTCY and count >= 2:
        return "second_bankruptcy"
    if len(s.players) - count <= 1:
        return "last_player_standing"
    return None


def _bankrupt(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    player = _player(s, ev, idx)
    creditor = _player(s, ev, idx, "creditor", bank=True)
    if creditor == player:
        raise _refuse("same_party", idx, ev, party=player)
    deeds = s.deeds_of(player)
    pay_off = _deed_list(s, ev, idx, "unmortgage")
    ending = _ending_bankruptcy(s)
    if pay_off and creditor == BANK:
        raise _refuse("unmortgage_to_bank", idx, ev)
    if pay_off and ending:
        raise _refuse("unmortgage_moot", idx, ev)
    level = s.level
    # Buildings go back to the bank at half price; the money goes to the creditor.
    building_money = sum(level.get(d.key, 0) * (d.house_cost // 2) for d in deeds)
    money = max(s.cash[player], 0) + building_money
    bank_cost = 0
    if creditor != BANK:
        bank_cost = _take_over_costs(s, deeds, pay_off, idx, ev, interest=ending is None)
        if s.ledger and s.cash[creditor] + money < bank_cost:
            raise _refuse(
                "insufficient_cash",
                idx,
                ev,
                player=creditor,
                cash=s.cash[creditor] + money,
                amount=bank_cost,
            )
    if not commit:
        return
    top = s.rules.max_houses
    for d in deeds:
        lvl = level.get(d.key, 0)
        if lvl:
            if lvl > top:
                s.hotels_in_bank += 1
            else:
                s.houses_in_bank += lvl
            level[d.key] = 0
    s.cash[player] = 0
    if creditor == BANK:
        for d in deeds:
            del s.owner[d.key]
            s.mortgaged.discard(d.key)
            if ending is None:
                s.must_auction.add(d.key)
    else:
        for d in deeds:
            s.owner[d.key] = creditor
        for d in pay_off:
            s.mortgaged.discard(d.key)
        s.cash[creditor] += money - bank_cost
    s.in_jail.discard(player)
    s.bankrupt.append(player)
    s.bankrupt_set.add(player)
    if ending is not None:
        _finish(s, ending)


def _time_up(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    rules = s.rules
    if not rules.has_time_limit:
        raise _refuse("no_time_limit", idx, ev, ruleset=rules.key)
    if s.status == FINAL_ROUND:
        raise _refuse("already_final_round", idx, ev)
    limit = rules.time_limit_minutes
    elapsed = s.game_time(at)
    if limit is not None and elapsed is not None and elapsed < timedelta(minutes=limit):
        raise _refuse(
            "time_up_too_early", idx, ev, minimum=_clock(limit), game_time=_clock_td(elapsed)
        )
    if commit:
        if rules.time_limit_mode == TimeLimitMode.FINISH_ROUND:
            s.status = FINAL_ROUND
        else:
            _finish(s, "time_limit")


def _end(s: GameState, ev: Any, idx: int | None, at: datetime | None, commit: bool) -> None:
    if s.status != FINAL_ROUND:
        raise _refuse("not_final_round", idx, ev)
    if commit:
        _finish(s, "time_limit")


def _finish(s: GameState, reason: str) -> None:
    s.status = FINISHED
    s.end_reason = reason


_HANDLERS = {
    "start": _start,
    "pause": _pause,
    "resume": _resume,
    "deal": _deal,
    "buy": _buy,
    "auction": _auction,
    "auction_stop": _auction_stop,
    "build": _build,
    "sell_building": _sell_building,
    "mortgage": _mortgage,
    "unmortgage": _unmortgage,
    "trade": _trade,
    "jail": _jail,
    "release": _release,
    "pay": _pay,
    "cash": _cash,
    "bankrupt": _bankrupt,
    "time_up": _time_up,
    "end": _end,
}
_AFTER_END = frozenset({"cash"})
_BEFORE_START = frozenset({"start", "deal"})


def _run(s: GameState, ev: Any, idx: int | None, commit: bool) -> None:
    """Validate ``ev`` against ``s`` and, if ``commit``, apply it. Not for ``void``."""
    if not isinstance(ev, Mapping):
        raise _refuse("malformed_event", idx, ev)
    kind = ev.get("type", _MISSING)
    handler = _HANDLERS.get(kind) if type(kind) is str else None
    if handler is None:
        if kind is _MISSING:
            raise _refuse("missing_field", idx, ev, field="type")
        raise _refuse("unknown_event_type", idx, ev, type=kind)
    raw_at = ev.get("at")
    at = None
    if raw_at is not None:
        at = _parse_at(raw_at, ev, idx)
        if s.last_at is not None and at < s.last_at:
            raise _refuse("time_goes_backwards", idx, ev, at=raw_at, previous=s.last_at.isoformat())
    status = s.status
    if status == FINISHED and kind not in _AFTER_END:
        raise _refuse("game_over", idx, ev)
    if not s.started and kind not in _BEFORE_START:
        raise _refuse("not_started", idx, ev)
    handler(s, ev, idx, at, commit)
    if commit:
        if at is not None:
            s.last_at = at
        if s.status == SETUP and kind not in _SETUP_EVENTS:
            s.status = RUNNING


def check_event(state: GameState, event: Any, *, index: int | None = None) -> None:
    """Raise ``RuleViolation`` if ``event`` may not happen now; never changes ``state``.

    ``void`` needs the history and is checked by ``Game.check``.
    """
    if isinstance(event, Mapping) and event.get("type") == "void":
        raise _refuse("unknown_event_type", index, event, type="void")
    _run(state, event, index, False)


# --------------------------------------------------------------------------- the game


def _copy_event(event: Any) -> Any:
    """Our own copy, so a caller changing its dict later cannot change the record."""
    if not isinstance(event, Mapping):
        return event
    return {k: (list(v) if isinstance(v, list) else v) for k, v in event.items()}


class Game:
    """One table's game: the record (events, voids) and the current state.

    ``apply`` is incremental; only ``void`` replays the record (without the voided event).
    """

    __slots__ = ("ruleset", "rules", "board", "players", "ledger", "_events", "_voided", "_state")

    def __init__(
        self,
        *,
        players: Iterable[str],
        ruleset: Ruleset | str = "karlsruhe",
        board: Board | str | None = None,
        ledger: bool = False,
    ) -> None:
        base = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if board is None:
            board = base.default_board
        if isinstance(board, str):
            try:
                board = get_board(board)
            except KeyError as exc:
                raise RecordError(str(exc.args[0])) from None
        seats = tuple(players) if not isinstance(players, str) else (players,)
        _check_players(seats, base)
        self.ruleset = base  # as given (for the record)
        self.rules = base.for_board(board)  # amounts in the board's currency
        self.board = board
        self.players = seats
        self.ledger = bool(ledger)
        self._events: list[Any] = []
        self._voided: set[int] = set()
        self._state = self._fresh_state()

    def _fresh_state(self) -> GameState:
        return GameState(
            board=self.board, rules=self.rules, players=self.players, ledger=self.ledger
        )

    # ---- reading

    @property
    def state(self) -> GameState:
        return self._state

    @property
    def status(self) -> str:
        """'setup', 'running', 'final_round' or 'finished'."""
        return self._state.status

    @property
    def end_reason(self) -> str | None:
        return self._state.end_reason

    @property
    def events(self) -> list[Any]:
        """The record's events as applied, voids included (copies)."""
        return [_copy_event(e) for e in self._events]

    @property
    def voided(self) -> frozenset[int]:
        """Indices of the events cancelled by a ``void``."""
        return frozenset(self._voided)

    def __len__(self) -> int:
        return len(self._events)

    def __repr__(self) -> str:
        return f"<Game {self.ruleset.key} on {self.board.key}: {len(self._events)} events, {self.status}>"

    # ---- changing

    def check(self, event: Any) -> None:
        """Raise ``RuleViolation`` if ``event`` would be refused now. Changes nothing."""
        idx = len(self._events)
        if isinstance(event, Mapping) and event.get("type") == "void":
            target = self._void_target(event, idx)
            self._rebuild(self._voided | {target}, idx, event)
        else:
            _run(self._state, event, idx, False)

    def apply(self, event: Any) -> None:
        """Validate and apply one event, appending it to the record; refuse with RuleViolation."""
        idx = len(self._events)
        event = _copy_event(event)
        if isinstance(event, Mapping) and event.get("type") == "void":
            target = self._void_target(event, idx)
            voided = self._voided | {target}
            self._state = self._rebuild(voided, idx, event)
            self._voided = voided
        else:
            _run(self._state, event, idx, True)
        self._events.append(event)

    def extend(self, events: Iterable[Any]) -> None:
        for event in events:
            self.apply(event)

    def _void_target(self, ev: Mapping[str, Any], idx: int) -> int:
        target = _field(ev, "event", idx)
        if type(target) is not int:
            raise _refuse("wrong_type", idx, ev, field="event", expected=_WHOLE)
        reason = _field(ev, "reason", idx)
        if type(reason) is not str:
            raise _refuse("wrong_type", idx, ev, field="reason", expected=_TEXT)
        if "at" in ev and ev["at"] is not None:
            _parse_at(ev["at"], ev, idx)
        if not 0 <= target < idx:
            raise _refuse("bad_event_index", idx, ev, target=target, last=idx - 1)
        voided_event = self._events[target]
        kind = voided_event.get("type") if isinstance(voided_event, Mapping) else None
        if kind == "void":
            raise _refuse("void_of_void", idx, ev)
        if kind == "start":
            raise _refuse("void_of_start", idx, ev)
        if target in self._voided:
            raise _refuse("already_voided", idx, ev, target=target)
        return target

    def _rebuild(self, voided: set[int], idx: int, void: Mapping[str, Any]) -> GameState:
        """The state of a replay of the record so far without the ``voided`` events."""
        state = self._fresh_state()
        for i, ev in enumerate(self._events):
            if i in voided or ev.get("type") == "void":
                continue
            try:
                _run(state, ev, i, True)
            except RuleViolation as exc:
                raise RuleViolation(
                    "void_breaks_later_event",
                    index=idx,
                    event=void,
                    target=void["event"],
                    cause=exc,
                ) from exc
        return state

    # ---- export

    def to_record(self) -> dict[str, Any]:
        """The game as a ``monopoly-game-record/1`` document (replaying it gives this state)."""
        from .record import FORMAT

        record: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset.key,
            "board": self.board.key,
            "players": list(self.players),
        }
        if self.ledger:
            record["ledger"] = True
        try:
            base = get_ruleset(self.ruleset.key)
        except KeyError:
            base = None
        if base is not None and base != self.ruleset:
            record["overrides"] = self.ruleset.overrides_from(base)
        record["events"] = self.events
        return record


def _check_players(seats: tuple[str, ...], ruleset: Ruleset) -> None:
    for p in seats:
        if type(p) is not str or not p.strip():
            raise RecordError(f"players must be non-empty strings, not {p!r}")
        if p == BANK:
            raise RecordError("'bank' is reserved for the bank and cannot be a player")
    if len(set(seats)) != len(seats):
        dupes = sorted({p for p in seats if seats.count(p) > 1})
        raise RecordError(f"players must be unique: {', '.join(dupes)} twice")
    if not ruleset.players_min <= len(seats) <= ruleset.players_max:
        raise RecordError(
            f"the '{ruleset.key}' rules seat {ruleset.players_min} to {ruleset.players_max} "
            f"players, not {len(seats)}"
        )
