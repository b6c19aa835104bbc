"""The engine's answer a banker sees before confirming: a dry run of the events on a scratch
copy of the game, explained in words; nothing is stored."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee import engine_cache, rules
from referee.console.picture import ending_bankruptcy
from referee.feed import describe
from referee.models import Game
from referee.rules import BANK
from referee.words import (
    PAUSE_REASONS,
    PAY_REASONS,
    Names,
    Refusal,
    names_for,
    reason_label,
)

#: What the banker reads when the previewed action ends the game (whole sentences: the reason
#: inside a sentence frame came out as "Das Spiel endet (den zweiten Bankrott)").
END_NOTES = {
    "second_bankruptcy": gettext_lazy(
        "The game ends with the second bankruptcy: then each player's cash is counted."
    ),
    "first_bankruptcy": gettext_lazy(
        "The game ends with the first bankruptcy: then each player's cash is counted."
    ),
    "last_player_standing": gettext_lazy(
        "The game ends because only one player is left: then each player's cash is counted."
    ),
    "time_limit": gettext_lazy(
        "The game ends at the time limit: then each player's cash is counted."
    ),
}


MAX_CHECKED_EVENTS = 80


# --------------------------------------------------------------------------- the engine's answer


@dataclass
class Answer:
    """What the engine says about a list of events before the banker confirms them."""

    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cash: list[dict[str, Any]] = field(default_factory=list)
    refusal: Refusal | None = None
    refused_event: str = ""
    empty: bool = False
    negative: list[dict[str, Any]] = field(default_factory=list)  # cash below 0 afterwards

    @property
    def lowest(self) -> dict[str, Any] | None:
        """The most negative balance the action leaves: what the confirm button names."""
        return min(self.negative, key=lambda row: row["after"]) if self.negative else None

    @property
    def ok(self) -> bool:
        return self.refusal is None and not self.empty


def _money(amount: int) -> str:
    """-3710 as the banker reads it: grouped digits, a real minus sign ("−3.710")."""
    text = number_format(abs(amount), force_grouping=True)
    return f"−{text}" if amount < 0 else text


def _scratch(game: Game, engine: rules.Game) -> rules.Game:
    """A private copy of the game to try events on (replaying ~300 events takes ~1 ms)."""
    scratch = engine_cache.new_engine(game)
    scratch.extend(engine.events)
    return scratch


def check(game: Game, events: Any, *, now: dt.datetime | None = None) -> Answer:
    """Dry-run ``events`` in order on a copy of the game; nothing is stored."""
    now = now or timezone.now()
    engine = engine_cache.engine_for(game)
    names = names_for(game, engine)
    answer = Answer()
    if not isinstance(events, list) or not events:
        answer.empty = True
        return answer
    events = events[:MAX_CHECKED_EVENTS]
    scratch = _scratch(game, engine)
    before_cash = dict(scratch.state.cash)
    before_status = scratch.status
    at = now.isoformat()
    for ev in events:
        if isinstance(ev, dict):
            ev = {**ev, "at": at}
        try:
            lines = explain(scratch, ev, names)
        except (KeyError, ValueError, TypeError, AttributeError):
            lines = []  # malformed: the engine names what is wrong
        try:
            scratch.apply(ev)
        except rules.RuleViolation as violation:
            answer.refusal = Refusal.of(violation, names)
            if len(events) > 1:  # say which one of the series
                answer.refused_event = describe(ev, names)
            break
        answer.lines.extend(lines)
    after = scratch.state
    for key in after.players:
        if before_cash[key] != after.cash[key]:
            row = {
                "name": names.player(key), "before": before_cash[key], "after": after.cash[key],
                "delta": after.cash[key] - before_cash[key],
            }
            answer.cash.append(row)
            if row["after"] < 0 and row["delta"] < 0 and answer.refusal is None:
                row["after_text"] = _money(row["after"])
                answer.negative.append(row)
    if answer.refusal is None and before_status != "finished" and scratch.status == "finished":
        note = END_NOTES.get(scratch.end_reason or "")
        answer.notes.append(
            str(note) if note else _("The game ends: then each player's cash is counted.")
        )
    return answer


def explain(engine: rules.Game, ev: Any, names: Names) -> list[str]:
    """The engine's answer for one event, computed on the state before it is applied."""
    if not isinstance(ev, dict):
        return []
    state = engine.state
    ruleset = state.rules
    kind = ev.get("type")
    p = names.player
    deed = state.board.get_deed(ev["deed"]) if isinstance(ev.get("deed"), str) else None
    if kind == "start":
        return [_("The game clock starts now at 0:00.")]
    if kind == "pause":
        lines = [_("Table-wide break: the game clock stops.")]
        reason = reason_label(ev.get("reason"), PAUSE_REASONS)
        if reason:
            lines.append(_("Reason: %(reason)s") % {"reason": reason})
        return lines
    if kind == "resume":
        return [_("The break ends: the game clock runs again.")]
    if kind == "end":
        return [_("The last round of turns is over: the game ends now.")]
    if kind == "on_turn" and isinstance(ev.get("player"), str) and ev["player"] in state.seats:
        active = state.active_players
        still = active[active.index(ev["player"]) :] if ev["player"] in active else ()
        return [_("Still to play, in seat order: %(players)s. Then the game ends.") % {
            "players": ", ".join(p(key) for key in still)}]
    if kind == "turn_played":
        rest = list((state.final_turns or ())[1:])
        if not rest:
            return [_("%(player)s was the last: the game ends now.") % {
                "player": p(ev.get("player"))}]
        return [_("Still to play: %(players)s.") % {
            "players": ", ".join(p(key) for key in rest)}]
    if kind in DEED_KINDS and deed:
        return _explain_deed(state, ev, deed, p)
    if kind == "trade":
        return _explain_trade(state, ev, names)
    if kind == "jail":
        lines = [_("%(player)s goes to jail.") % {"player": p(ev.get("player"))}]
        if not ruleset.owner_in_jail_collects_rent or not ruleset.owner_in_jail_may_build:
            lines.append(_("While in jail: no rent and no building (selling is allowed)."))
        return lines
    if kind == "release":
        if ev.get("fine"):
            return [_("%(player)s leaves jail and pays the fine of %(amount)s.") % {
                "player": p(ev.get("player")), "amount": ruleset.jail_fine}]
        return [_("%(player)s leaves jail without a fine (card or doubles).") % {
            "player": p(ev.get("player"))}]
    if kind == "pay":
        return _explain_pay(state, ev, names, deed)
    if kind == "cash":
        player = ev.get("player")
        tracked = state.cash.get(player) if isinstance(player, str) else None
        return [_("%(player)s has %(amount)s in cash (tracked so far: %(tracked)s).") % {
            "player": p(player), "amount": ev.get("amount"), "tracked": tracked}]
    if kind == "bankrupt":
        return _explain_bankrupt(state, ev, names)
    if kind == "void":
        return _explain_void(engine, ev, names)
    return [describe(ev, names)] if kind else []


#: The kinds of event on one deed, explained by :func:`_explain_deed`.
DEED_KINDS = frozenset({"deal", "buy", "auction", "build", "sell_building", "mortgage",
                        "unmortgage"})


def _explain_deed(state, ev: dict, deed, p) -> list[str]:
    """A deal, purchase, auction, building, sale, mortgage or pay-off of ``deed``: what it
    costs or brings."""
    ruleset = state.rules
    kind = ev.get("type")
    if kind == "deal":
        if ruleset.deals_paid:
            return [_("%(player)s is dealt %(deed)s and pays %(amount)s to the bank.") % {
                "player": p(ev.get("player")), "deed": deed.name, "amount": deed.price}]
        return [_("%(player)s is dealt %(deed)s free of charge.") % {
            "player": p(ev.get("player")), "deed": deed.name}]
    if kind == "buy":
        return [_("%(player)s buys %(deed)s from the bank for %(amount)s.") % {
            "player": p(ev.get("player")), "deed": deed.name, "amount": deed.price}]
    if kind == "auction":
        if ev.get("winner") is None:
            return [_("No bid: %(deed)s stays with the bank.") % {"deed": deed.name}]
        return [_("%(player)s wins %(deed)s (printed price %(printed)s) for %(amount)s, paid to "
                  "the bank.") % {"player": p(ev.get("winner")), "deed": deed.name,
                                  "printed": deed.price, "amount": ev.get("price")}]
    if kind == "build":
        level = state.level.get(deed.key, 0)
        cost = rules.build_cost(state, deed.key)
        if level == ruleset.max_houses:
            return [_("Hotel on %(deed)s for %(amount)s; its %(houses)s houses go back to the "
                      "bank. The bank has %(hotels)s hotels.") % {
                "deed": deed.name, "amount": cost, "houses": ruleset.max_houses,
                "hotels": state.hotels_in_bank}]
        return [_("House %(number)s on %(deed)s for %(amount)s. The bank has %(houses)s "
                  "houses.") % {"number": level + 1, "deed": deed.name, "amount": cost,
                                "houses": state.houses_in_bank}]
    if kind == "sell_building":
        level = state.level.get(deed.key, 0)
        value = rules.building_sale_value(state, deed.key)
        if level > ruleset.max_houses:
            return [_("Sell the hotel on %(deed)s: %(amount)s back; %(houses)s houses return to "
                      "the street (the bank has %(bank)s).") % {
                "deed": deed.name, "amount": value, "houses": ruleset.max_houses,
                "bank": state.houses_in_bank}]
        return [_("Sell a house on %(deed)s: %(amount)s back (half price).") % {
            "deed": deed.name, "amount": value}]
    if kind == "mortgage":
        return [_("Mortgage %(deed)s: the bank pays %(amount)s.") % {
            "deed": deed.name, "amount": rules.mortgage_value(state, deed.key)}]
    if kind == "unmortgage":
        return [_("Pay off %(deed)s: %(amount)s (mortgage %(mortgage)s + 10 %% interest, "
                  "rounded up).") % {
            "deed": deed.name, "amount": rules.payoff_cost(state, deed.key),
            "mortgage": rules.mortgage_value(state, deed.key)}]
    raise ValueError(f"not an event on one deed: {kind}")


def _explain_void(engine: rules.Game, ev: dict, names: Names) -> list[str]:
    """Which event a correction cancels, and why."""
    target = ev.get("event")
    events = engine.events
    if isinstance(target, int) and 0 <= target < len(events):
        return [_("Cancel event %(index)s: %(event)s. Reason: %(reason)s") % {
            "index": target, "event": describe(events[target], names),
            "reason": ev.get("reason", "")}]
    return []


def _explain_pay(state, ev, names: Names, deed) -> list[str]:
    p = names.player
    reason = ev.get("reason")
    if reason == "rent" and deed is not None:
        lines = [_("%(from)s pays %(to)s %(amount)s rent for %(deed)s.") % {
            "from": p(ev.get("from")), "to": p(ev.get("to")), "amount": ev.get("amount"),
            "deed": deed.name}]
        dice = ev.get("dice")
        try:
            due = rules.rent_due(state, deed.key, dice=dice if deed.kind == "utility" else None)
        except ValueError:
            due = None
        if deed.kind == "utility" and isinstance(dice, int):
            lines.append(_("Dice: %(dice)s.") % {"dice": dice})
        if due is not None and due != ev.get("amount"):
            lines.append(_("Careful: the rent due now is %(amount)s.") % {"amount": due})
        return lines
    text = _("%(from)s pays %(to)s %(amount)s.") % {
        "from": p(ev.get("from")), "to": p(ev.get("to")), "amount": ev.get("amount")}
    label = reason_label(reason, PAY_REASONS)
    return [f"{text} ({label})" if label else text]


def _explain_trade(state, ev, names: Names) -> list[str]:
    p = names.player
    giver, taker = ev.get("from"), ev.get("to")
    deeds = ev.get("deeds") if isinstance(ev.get("deeds"), list) else []
    lines = [_("%(from)s gives %(to)s: %(deeds)s.") % {
        "from": p(giver), "to": p(taker), "deeds": names.deed_list(deeds)}]
    if ev.get("cash"):
        lines.append(_("%(to)s pays %(from)s %(amount)s.") % {
            "from": p(giver), "to": p(taker), "amount": ev.get("cash")})
    pay_off = ev.get("unmortgage") if isinstance(ev.get("unmortgage"), list) else []
    for key in deeds:
        if not isinstance(key, str) or key not in state.mortgaged:
            continue
        if key in pay_off:
            lines.append(_("%(player)s pays off %(deed)s now: %(amount)s.") % {
                "player": p(taker), "deed": names.deed(key),
                "amount": rules.payoff_cost(state, key)})
        else:
            lines.append(_("%(deed)s stays mortgaged: %(player)s pays %(amount)s interest now "
                           "(a later pay-off costs another 10 %%).") % {
                "player": p(taker), "deed": names.deed(key),
                "amount": rules.interest_due(state, key)})
    return lines


def _explain_bankrupt(state, ev, names: Names) -> list[str]:
    p = names.player
    player, creditor = ev.get("player"), ev.get("creditor")
    if not isinstance(player, str) or player not in state.seats:
        return []
    ending = ending_bankruptcy(state)
    deeds = state.deeds_of(player)
    building_money = sum(state.level.get(x.key, 0) * (x.house_cost // 2) for x in deeds)
    cash = state.cash[player]
    shortfall = _money(-cash) if cash < 0 else ""
    lines = []
    if creditor == BANK:
        lines.append(_("%(player)s is bankrupt to the bank.") % {"player": p(player)})
        if shortfall:
            lines.append(_("The bank absorbs the shortfall of %(shortfall)s (cash below zero).")
                         % {"shortfall": shortfall})
        if deeds:
            lines.append(_("Back to the bank, free of mortgage: %(deeds)s.") % {
                "deeds": ", ".join(x.name for x in deeds)})
        if building_money:
            lines.append(_("Buildings go back to the bank."))
        if deeds and not ending:
            lines.append(_("Each of these deeds is auctioned now, one by one."))
    else:
        lines.append(_("%(player)s is bankrupt to %(creditor)s.") % {
            "player": p(player), "creditor": p(creditor)})
        if shortfall:
            # RULESETS.md, "Bankruptcy with negative cash": the creditor pays the shortfall back.
            lines.append(_("%(player)s stands at %(cash)s: %(creditor)s pays back the shortfall "
                           "of %(shortfall)s.") % {
                "player": p(player), "creditor": p(creditor), "cash": _money(cash),
                "shortfall": shortfall})
            if building_money:
                lines.append(_("%(creditor)s receives %(amount)s for the buildings sold to the "
                               "bank at half price.") % {
                    "creditor": p(creditor), "amount": building_money})
        else:
            lines.append(_("%(creditor)s receives %(amount)s: cash %(cash)s + buildings sold to "
                           "the bank at half price %(buildings)s.") % {
                "creditor": p(creditor), "amount": cash + building_money, "cash": cash,
                "buildings": building_money})
        if deeds:
            lines.append(_("%(creditor)s receives the deeds: %(deeds)s.") % {
                "creditor": p(creditor), "deeds": ", ".join(x.name for x in deeds)})
        pay_off = ev.get("unmortgage") if isinstance(ev.get("unmortgage"), list) else []
        lines.extend(_inherited_mortgages(state, deeds, creditor=p(creditor), pay_off=pay_off,
                                          ending=ending))
    return lines


def _inherited_mortgages(state, deeds, *, creditor: str, pay_off: list, ending: bool) -> list[str]:
    """What the creditor does with each mortgaged deed received: nothing when the game ends,
    else pay it off now or pay the interest."""
    lines = []
    for x in deeds:
        if x.key not in state.mortgaged:
            continue
        if ending:
            lines.append(_("%(deed)s stays mortgaged; no interest (the game ends).") % {
                "deed": x.name})
        elif x.key in pay_off:
            lines.append(_("%(player)s pays off %(deed)s now: %(amount)s.") % {
                "player": creditor, "deed": x.name,
                "amount": rules.payoff_cost(state, x.key)})
        else:
            lines.append(_("%(deed)s stays mortgaged: %(player)s pays %(amount)s interest "
                           "now (a later pay-off costs another 10 %%).") % {
                "player": creditor, "deed": x.name,
                "amount": rules.interest_due(state, x.key)})
    return lines
