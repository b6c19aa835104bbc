"""Event handlers of deeds: dealing, buying, auctions, buildings, mortgages.

Each handler: (state, event, index, at, commit). Validate everything, then (if commit) change."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from referee.rules.board import Square
from referee.rules.contract import SETUP
from referee.rules.fields import (
    _MISSING,
    _afford,
    _amount,
    _built_in_group,
    _deed,
    _field,
    _level_words,
    _owner_of,
    _player,
    _refuse,
)
from referee.rules.state import GameState


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
    price = _amount(s, ev, "price", idx, 0, default=_MISSING if winner else 0)
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


def _street(s: GameState, ev: Any, idx: int | None) -> tuple[Square, str]:
    deed = _deed(s, ev, idx)
    if deed.kind != "street":
        raise _refuse("not_a_street", idx, ev, deed=deed.name)
    return deed, _owner_of(s, deed, idx, ev)


def _levels(s: GameState, other: str, deed: Square, current: int) -> dict[str, Any]:
    """The words of an uneven building refusal: the other street's level and this one's."""
    top = s.rules.max_houses
    return {"other": s.board.deed(other).name,
            "other_level": _level_words(s.level[other], top, bare=False),
            "deed": deed.name, "deed_level": _level_words(current, top, bare=True)}


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
            raise _refuse("uneven_building", idx, ev, **_levels(s, k, deed, current))
    hotel = current == top
    if hotel:
        if s.hotels_in_bank < 1:
            raise _refuse("no_hotels_left", idx, ev, supply=rules.hotel_supply)
    elif s.houses_in_bank < 1:
        raise _refuse("no_houses_left", idx, ev, supply=rules.house_supply)
    cost = deed.house_cost
    if "price" in ev:  # the building was auctioned because the bank ran short
        price = _amount(s, ev, "price", idx, 0)
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
            raise _refuse("uneven_selling", idx, ev, **_levels(s, k, deed, current))
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
