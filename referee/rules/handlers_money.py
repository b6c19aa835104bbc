"""Event handlers between players and the bank: trades, jail, payments, cash counts,
bankruptcy.

Each handler: (state, event, index, at, commit). Validate everything, then (if commit) change."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from referee.rules.board import Square
from referee.rules.contract import BANK
from referee.rules.fields import (
    _TEXT,
    _afford,
    _amount,
    _built_in_group,
    _deed_list,
    _flag,
    _player,
    _refuse,
)
from referee.rules.handlers_clock import _finish, drop_from_final_turns
from referee.rules.rulesets import EndCondition
from referee.rules.state import GameState


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
    cash = _amount(s, ev, "cash", idx, 0, default=0)
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
    amount = _amount(s, ev, "amount", idx, 1)
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
    amount = _amount(s, ev, "amount", idx, 0)
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


def _buildings_to_bank(s: GameState, deeds: list[Square]) -> None:
    """A bankrupt player's houses and hotels go back to the bank."""
    level = s.level
    top = s.rules.max_houses
    for d in deeds:
        lvl = level.get(d.key, 0)
        if lvl:
            if lvl > top:
                s.hotels_in_bank += 1
            else:
                s.houses_in_bank += lvl
            level[d.key] = 0


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
    # Buildings go back to the bank at half price; the money goes to the creditor. Cash below
    # zero (a payment booked past the warning) was money the player never had: a player
    # creditor pays the shortfall back, the bank absorbs it (RULESETS.md, "Bankruptcy with
    # negative cash").
    building_money = sum(level.get(d.key, 0) * (d.house_cost // 2) for d in deeds)
    money = s.cash[player] + building_money
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
    _buildings_to_bank(s, deeds)
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
    else:
        drop_from_final_turns(s, player)
