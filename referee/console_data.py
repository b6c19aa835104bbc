"""What the banker's console shows, built from the rules engine's state (never from event rows).

Everything here is read-only: the picture of a table for the console templates, the engine's
answers a banker sees before confirming (a dry run of the events on a scratch copy of the game),
and one-line descriptions of events for the feed. Query count does not depend on the number of
events: the engine is the cached one, the feed is read from it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee import rules
from referee.rules import BANK

from . import engine_cache, selectors
from .models import Game, GameResult

GROUP_LABELS = {
    "braun": gettext_lazy("brown"),
    "hellblau": gettext_lazy("light blue"),
    "pink": gettext_lazy("pink"),
    "orange": gettext_lazy("orange"),
    "rot": gettext_lazy("red"),
    "gelb": gettext_lazy("yellow"),
    "gruen": gettext_lazy("green"),
    "dunkelblau": gettext_lazy("dark blue"),
    "bahnhof": gettext_lazy("stations"),
    "werk": gettext_lazy("utilities"),
}
KNOWN_GROUPS = frozenset(GROUP_LABELS)

PAUSE_REASONS = {
    "toilet_break": gettext_lazy("Toilet break"),
    "rules_question": gettext_lazy("Rules question"),
    "head_referee": gettext_lazy("Waiting for the head referee"),
}
PAY_REASONS = {
    "rent": gettext_lazy("rent"),
    "tax": gettext_lazy("tax"),
    "fine": gettext_lazy("fine"),
    "salary": gettext_lazy("salary"),
    "card": gettext_lazy("card"),
}
END_REASONS = {
    "second_bankruptcy": gettext_lazy("the second bankruptcy"),
    "first_bankruptcy": gettext_lazy("the first bankruptcy"),
    "last_player_standing": gettext_lazy("only one player is left"),
    "time_limit": gettext_lazy("the time limit"),
}
BUTTON_LABELS = {
    "buy": gettext_lazy("Buy"),
    "rent": gettext_lazy("Pay rent"),
    "pay": gettext_lazy("Tax, fine, payment"),
    "buildings": gettext_lazy("Houses & hotels"),
    "mortgage": gettext_lazy("Mortgage"),
    "trade": gettext_lazy("Trade"),
    "jail": gettext_lazy("To jail"),
    "release": gettext_lazy("Out of jail"),
    "cash": gettext_lazy("Count cash"),
    "bankrupt": gettext_lazy("Bankrupt"),
}
#: Events the banker may cancel with a correction (server events and the start are not).
VOIDABLE = frozenset(rules.EVENT_TYPES) - {"start", "void", "auction_stop", "time_up"}
FEED_LENGTH = 20
MAX_CHECKED_EVENTS = 80


# --------------------------------------------------------------------------- names


@dataclass(frozen=True)
class Names:
    """Display names of the players (by engine key) and of the board's deeds."""

    players: dict[str, str]
    seats: dict[str, int]
    deeds: dict[str, str]

    def player(self, key: Any) -> str:
        if key == BANK:
            return _("the bank")
        return self.players.get(str(key), str(key))

    def deed(self, key: Any) -> str:
        return self.deeds.get(str(key), str(key))

    def deed_list(self, keys: Any) -> str:
        if not isinstance(keys, list):
            return ""
        return ", ".join(self.deed(k) for k in keys)


def names_for(game: Game, engine: rules.Game, people=None) -> Names:
    people = people if people is not None else selectors.players_by_key(game)
    players = {key: (people[key].name if key in people else key) for key in engine.state.players}
    seats = {key: index for index, key in enumerate(engine.state.players, start=1)}
    deeds = {d.key: d.name for d in engine.state.board.deeds}
    return Names(players, seats, deeds)


def named_violation(violation: rules.RuleViolation, names: Names) -> rules.RuleViolation:
    """The same refusal with player keys replaced by the players' names."""

    def name(value: Any) -> Any:
        if isinstance(value, rules.RuleViolation):
            return named_violation(value, names)
        if isinstance(value, str) and value in names.players:
            return names.players[value]
        return value

    params = {k: name(v) for k, v in violation.params.items()}
    return rules.RuleViolation(
        violation.code, index=violation.index, event=violation.event, **params
    )


@dataclass(frozen=True)
class Refusal:
    """An engine refusal as the console shows it: current language large, the other small."""

    code: str
    index: int | None
    message_de: str
    message_en: str

    @classmethod
    def of(cls, violation: rules.RuleViolation, names: Names) -> Refusal:
        named = named_violation(violation, names)
        return cls(violation.code, violation.index, named.message_de, named.message_en)


# --------------------------------------------------------------------------- the picture


def _initials(name: str) -> str:
    parts = [p for p in name.split() if p]
    return "".join(p[0] for p in parts[:2]).upper() or "?"


def _mmss(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = int(max(0, seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _legal(engine: rules.Game, event: dict) -> bool:
    try:
        engine.check(event)
    except rules.RuleViolation:
        return False
    return True


def pending_auctions(engine: rules.Game) -> tuple[list[str], str]:
    """Deeds the banker must auction now, in board order, and why ("bankruptcy"/"auction_stop").

    After the auction stop every deed still with the bank is auctioned once (a "no bid" leaves it
    with the bank for good); a mid-game bankruptcy to the bank returns deeds that must be
    auctioned too.
    """
    state = engine.state
    if state.status not in ("setup", "running"):
        return [], ""
    must = set(state.must_auction)
    stop_pending: set[str] = set()
    if state.auction_stop:
        voided = engine.voided
        events = engine.events
        stop_at = max(
            (i for i, ev in enumerate(events)
             if i not in voided and isinstance(ev, dict) and ev.get("type") == "auction_stop"),
            default=None,
        )
        auctioned = {
            ev.get("deed")
            for i, ev in enumerate(events)
            if stop_at is not None and i > stop_at and i not in voided
            and isinstance(ev, dict) and ev.get("type") == "auction"
        }
        stop_pending = {k for k in rules.unowned_deeds(state) if k not in auctioned}
    keys = [d.key for d in state.board.deeds if d.key in must or d.key in stop_pending]
    reason = "bankruptcy" if must and not stop_pending - must else "auction_stop"
    return keys, reason if keys else ""


def ending_bankruptcy(state: rules.GameState) -> bool:
    """Would one more bankruptcy end the game? (the ruleset's end condition)."""
    count = len(state.bankrupt) + 1
    condition = state.rules.end_condition
    if condition == rules.EndCondition.FIRST_BANKRUPTCY:
        return True
    if condition == rules.EndCondition.SECOND_BANKRUPTCY and count >= 2:
        return True
    return len(state.players) - count <= 1


def _deed_view(state: rules.GameState, deed, names: Names) -> dict[str, Any]:
    key = deed.key
    level = state.level.get(key, 0)
    top = state.rules.max_houses
    owner = state.owner.get(key)
    view: dict[str, Any] = {
        "key": key,
        "name": deed.name,
        "group": deed.group,
        "group_class": deed.group if deed.group in KNOWN_GROUPS else "other",
        "kind": deed.kind,
        "price": deed.price,
        "mortgage": rules.mortgage_value(state, key),
        "payoff": rules.payoff_cost(state, key),
        "interest": rules.interest_due(state, key),
        "house_cost": deed.house_cost,
        "sale_value": rules.building_sale_value(state, key) if deed.kind == "street" else 0,
        "owner": owner,
        "owner_name": names.player(owner) if owner else "",
        "owner_seat": names.seats.get(owner) if owner else None,
        "mortgaged": key in state.mortgaged,
        "level": level,
        "houses": level if level <= top else 0,
        "hotel": level > top,
        "rent": None,
        "rent_dice": None,
    }
    if owner is not None:
        if deed.kind == "utility":
            view["rent_dice"] = {d: rules.rent_due(state, key, dice=d) for d in range(2, 13)}
        else:
            view["rent"] = rules.rent_due(state, key)
    return view


def _pause_reason(engine: rules.Game) -> str:
    if not engine.state.paused:
        return ""
    voided = engine.voided
    for i, ev in reversed(list(enumerate(engine.events))):
        if i in voided or not isinstance(ev, dict):
            continue
        if ev.get("type") == "pause":
            return reason_label(ev.get("reason"), PAUSE_REASONS)
    return ""


def reason_label(reason: Any, labels: dict) -> str:
    if not isinstance(reason, str) or not reason:
        return ""
    label = labels.get(reason)
    return str(label) if label is not None else reason


def build(
    game: Game, *, now: dt.datetime | None = None, selected: str | None = None,
    feed_all: bool = False,
) -> dict[str, Any]:
    """The whole console picture of a table (the cached engine, two or three small queries)."""
    now = now or timezone.now()
    engine = engine_cache.engine_for(game)
    state = engine.state
    ruleset = state.rules
    names = names_for(game, engine)
    deeds = [_deed_view(state, d, names) for d in state.board.deeds]
    by_key = {d["key"]: d for d in deeds}
    status = engine.status
    started = state.started
    finished = status == "finished"
    live = started and status in ("setup", "running", "final_round")
    pending, pending_reason = pending_auctions(engine)

    players = _players(state, names, by_key, deeds, pending, live=live, finished=finished)
    active = [p for p in players if not p["bankrupt"]]
    keys = [p["key"] for p in active]
    if selected not in keys:
        selected = keys[0] if keys else None
    dealing = bool(ruleset.deal_count) and status == "setup" and any(
        p["deals"] < ruleset.deal_count for p in active
    )
    if finished:
        mode = "count"
    elif pending:
        mode = "auction"
    else:
        mode = "play" if started else "setup"

    unowned = [by_key[k] for k in rules.unowned_deeds(state)]
    auction_legal = bool(unowned) and live and _legal(
        engine, {"type": "auction", "deed": unowned[0]["key"], "winner": None, "price": 0}
    )
    result = GameResult.objects.filter(game=game).first() if finished else None
    standings = [
        {"player": row.player, "name": names.player(row.player), "place": row.place,
         "bankrupt": row.bankrupt, "net_worth": row.net_worth,
         "breakdown": row.breakdown.as_dict()}
        for row in rules.standings(state)
    ]
    clock = {**selectors.clock(game, engine, now), "status": status, "started": started}
    return {
        "game": game,
        "engine_status": status,
        "end_reason": END_REASONS.get(engine.end_reason or "", engine.end_reason or ""),
        "mode": mode,
        "setup": not finished and (not started or dealing),
        "started": started,
        "live": live,
        "final_round": status == "final_round",
        "paused": state.paused,
        "pause_reason": _pause_reason(engine),
        "seq": game.event_count,
        "clock": clock,
        "game_time": _mmss(clock["game_seconds"]),
        "ruleset": ruleset,
        "max_level": ruleset.max_houses + 1,
        "ledger": state.ledger,
        "players": players,
        "active_players": active,
        "selected": selected,
        "first_to_deal": next(
            (p["key"] for p in active if p["deals"] < ruleset.deal_count), None
        ),
        "deeds": deeds,
        "groups": _groups(deeds),
        "unowned": unowned,
        "buyable": [by_key[k] for k in _union(p["actions"].get("buy", []) for p in active)],
        "rentable": [d for d in deeds if d["owner"] and not d["mortgaged"]],
        "build_groups": _build_groups(state, by_key, players),
        "auction_legal": auction_legal,
        "pending_auctions": [by_key[k] for k in pending],
        "pending_reason": pending_reason,
        "bank": {"houses": state.houses_in_bank, "hotels": state.hotels_in_bank},
        "next_bankruptcy_ends": ending_bankruptcy(state),
        "tax_squares": [
            {"name": s.name, "amount": s.price} for s in state.board.squares if s.kind == "tax"
        ],
        "feed": _feed(engine, names, feed_all),
        "feed_all": feed_all,
        "standings": standings,
        "result": result,
        "count_rows": _count_rows(result, standings),
        "js_data": _js_data(game, players, deeds, clock, status, pending),
    }


def _players(state, names: Names, by_key, deeds, pending, *, live: bool, finished: bool):
    """Each player with cash, net worth, deeds and (for those still in) the legal actions."""
    players = []
    for seat, key in enumerate(state.players, start=1):
        bankrupt = key in state.bankrupt_set
        worth = rules.net_worth(state, key)
        actions: dict[str, list[str]] = {}
        if not bankrupt and (live or finished or state.status == "setup"):
            actions = rules.legal_actions(state, key)
        own = [by_key[d.key] for d in state.deeds_of(key)]
        players.append({
            "key": key,
            "seat": seat,
            "name": names.players[key],
            "initials": _initials(names.players[key]),
            "cash": state.cash[key],
            "net_worth": worth.total,
            "breakdown": worth.as_dict(),
            "in_jail": key in state.in_jail,
            "bankrupt": bankrupt,
            "deals": state.deals.get(key, 0),
            "deeds": own,
            "actions": actions,
            "buttons": _buttons(actions, key, deeds, pending) if live else [],
            "mortgaged_deeds": [d for d in own if d["mortgaged"]],
            "mortgageable": [by_key[k] for k in actions.get("mortgage", [])],
            "unmortgageable": [by_key[k] for k in actions.get("unmortgage", [])],
            "tradeable": [by_key[k] for k in actions.get("trade", [])],
        })
    return players


def _build_groups(state, by_key, players) -> list[dict[str, Any]]:
    """Streets per colour group for the buildings sheet: groups whose owner may build or sell."""
    actions_of = {p["key"]: p["actions"] for p in players}
    out = []
    for group, members in state.board.groups.items():
        streets = [by_key[k] for k in members if by_key[k]["kind"] == "street"]
        owners = {s["owner"] for s in streets}
        if not streets or len(owners) != 1 or None in owners:
            continue
        owner = owners.pop()
        actions = actions_of.get(owner, {})
        changeable = set(actions.get("build", [])) | set(actions.get("sell_building", []))
        if not any(s["key"] in changeable for s in streets):
            continue
        out.append({
            "group": group, "group_class": streets[0]["group_class"],
            "label": GROUP_LABELS.get(group, group), "owner": owner, "streets": streets,
        })
    return out


def _count_rows(result: GameResult | None, standings: list[dict]) -> list[dict[str, Any]]:
    """The placements as counted once there is a count, else the live standings."""
    if result is None:
        return standings
    return [
        {"player": str(row.player_id), "name": row.player.name, "place": row.place,
         "bankrupt": row.bankrupt, "net_worth": row.net_worth, "breakdown": row.breakdown}
        for row in result.placements.select_related("player")
    ]


def _union(lists) -> list[str]:
    seen: dict[str, None] = {}
    for items in lists:
        for item in items:
            seen.setdefault(item, None)
    return list(seen)


def _groups(deeds: list[dict]) -> list[dict]:
    groups: dict[str, dict] = {}
    for d in deeds:
        entry = groups.setdefault(d["group"], {
            "group": d["group"], "group_class": d["group_class"],
            "label": GROUP_LABELS.get(d["group"], d["group"]), "deeds": [],
        })
        entry["deeds"].append(d)
    return list(groups.values())


def _buttons(
    actions: dict[str, list[str]], key: str, deeds: list[dict], pending: list[str]
) -> list[dict[str, Any]]:
    """The action buttons of one player's panel, each only when the engine allows it."""
    if pending:
        return []  # auction mode: only the auction walk-through and corrections
    out = []
    if "buy" in actions:
        out.append("buy")
    if "pay" in actions and any(d["owner"] and d["owner"] != key for d in deeds):
        out.append("rent")
    if "pay" in actions:
        out.append("pay")
    if "build" in actions or "sell_building" in actions:
        out.append("buildings")
    if "mortgage" in actions or "unmortgage" in actions:
        out.append("mortgage")
    if "trade" in actions:
        out.append("trade")
    if "jail" in actions:
        out.append("jail")
    if "release" in actions:
        out.append("release")
    if "cash" in actions:
        out.append("cash")
    if "bankrupt" in actions:
        out.append("bankrupt")
    return [{"code": code, "label": BUTTON_LABELS[code]} for code in out]


def _js_data(game, players, deeds, clock, status, pending) -> dict[str, Any]:
    """The compact picture console.js needs to build events and labels offline."""
    return {
        "seq": game.event_count,
        "status": status,
        "clock": clock,
        "pending": pending,
        "players": [
            {"key": p["key"], "name": p["name"], "seat": p["seat"], "cash": p["cash"],
             "bankrupt": p["bankrupt"], "in_jail": p["in_jail"]}
            for p in players
        ],
        "deeds": {
            d["key"]: {
                "name": d["name"], "kind": d["kind"], "owner": d["owner"], "price": d["price"],
                "level": d["level"], "mortgaged": d["mortgaged"], "rent": d["rent"],
                "rent_dice": d["rent_dice"], "house_cost": d["house_cost"],
                "mortgage": d["mortgage"], "payoff": d["payoff"], "sale_value": d["sale_value"],
            }
            for d in deeds
        },
    }


# --------------------------------------------------------------------------- the feed


def _feed(engine: rules.Game, names: Names, feed_all: bool) -> list[dict[str, Any]]:
    events = engine.events
    voided = engine.voided
    start = 0 if feed_all else max(0, len(events) - FEED_LENGTH)
    out = []
    for index in range(len(events) - 1, start - 1, -1):
        ev = events[index]
        kind = ev.get("type") if isinstance(ev, dict) else None
        at = _parse(ev.get("at")) if isinstance(ev, dict) else None
        out.append({
            "index": index,
            "type": kind,
            "text": describe(ev, names),
            "at": timezone.localtime(at) if at else None,
            "voided": index in voided,
            "voidable": kind in VOIDABLE and index not in voided,
        })
    return out


def _parse(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        return None


def describe(ev: Any, names: Names) -> str:
    """One line for the feed: what the event did, with names."""
    if not isinstance(ev, dict):
        return "?"
    kind = ev.get("type")
    p = names.player
    d = names.deed
    if kind == "start":
        return _("Clock started")
    if kind == "pause":
        reason = reason_label(ev.get("reason"), PAUSE_REASONS)
        return _("Break: %(reason)s") % {"reason": reason} if reason else _("Break")
    if kind == "resume":
        return _("Break over")
    if kind == "deal":
        return _("%(player)s was dealt %(deed)s") % {
            "player": p(ev.get("player")), "deed": d(ev.get("deed"))}
    if kind == "buy":
        return _("%(player)s bought %(deed)s") % {
            "player": p(ev.get("player")), "deed": d(ev.get("deed"))}
    if kind == "auction":
        if ev.get("winner") is None:
            return _("%(deed)s: no bid, stays with the bank") % {"deed": d(ev.get("deed"))}
        return _("%(player)s won %(deed)s at auction for %(amount)s") % {
            "player": p(ev.get("winner")), "deed": d(ev.get("deed")), "amount": ev.get("price")}
    if kind == "auction_stop":
        return _("Auction stop: every deed still with the bank is auctioned")
    if kind == "build":
        return _("Building on %(deed)s") % {"deed": d(ev.get("deed"))}
    if kind == "sell_building":
        return _("Building sold back on %(deed)s") % {"deed": d(ev.get("deed"))}
    if kind == "mortgage":
        return _("%(deed)s mortgaged") % {"deed": d(ev.get("deed"))}
    if kind == "unmortgage":
        return _("%(deed)s paid off") % {"deed": d(ev.get("deed"))}
    if kind == "trade":
        text = _("%(from)s gave %(to)s: %(deeds)s") % {
            "from": p(ev.get("from")), "to": p(ev.get("to")),
            "deeds": names.deed_list(ev.get("deeds"))}
        if ev.get("cash"):
            text += " · " + _("for %(amount)s") % {"amount": ev.get("cash")}
        return text
    if kind == "jail":
        return _("%(player)s went to jail") % {"player": p(ev.get("player"))}
    if kind == "release":
        if ev.get("fine"):
            return _("%(player)s left jail and paid the fine") % {"player": p(ev.get("player"))}
        return _("%(player)s left jail") % {"player": p(ev.get("player"))}
    if kind == "pay":
        text = _("%(from)s paid %(to)s %(amount)s") % {
            "from": p(ev.get("from")), "to": p(ev.get("to")), "amount": ev.get("amount")}
        reason = reason_label(ev.get("reason"), PAY_REASONS)
        if reason:
            text += f" ({reason}"
            text += f", {d(ev['deed'])})" if ev.get("deed") else ")"
        return text
    if kind == "cash":
        return _("%(player)s: cash counted %(amount)s") % {
            "player": p(ev.get("player")), "amount": ev.get("amount")}
    if kind == "bankrupt":
        return _("%(player)s went bankrupt to %(creditor)s") % {
            "player": p(ev.get("player")), "creditor": p(ev.get("creditor"))}
    if kind == "time_up":
        return _("Time limit reached")
    if kind == "end":
        return _("Last turn played: the game is over")
    if kind == "void":
        return _("Correction: event %(index)s cancelled (%(reason)s)") % {
            "index": ev.get("event"), "reason": ev.get("reason", "")}
    return str(kind)


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

    @property
    def ok(self) -> bool:
        return self.refusal is None and not self.empty


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
            answer.cash.append({
                "name": names.player(key), "before": before_cash[key], "after": after.cash[key],
                "delta": after.cash[key] - before_cash[key],
            })
    if answer.refusal is None and before_status != "finished" and scratch.status == "finished":
        reason = END_REASONS.get(scratch.end_reason or "", scratch.end_reason or "")
        answer.notes.append(
            _("The game ends (%(reason)s): then each player's cash is counted.")
            % {"reason": reason}
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
    if kind == "deal" and deed:
        if ruleset.deals_paid:
            return [_("%(player)s is dealt %(deed)s and pays %(amount)s to the bank.") % {
                "player": p(ev.get("player")), "deed": deed.name, "amount": deed.price}]
        return [_("%(player)s is dealt %(deed)s free of charge.") % {
            "player": p(ev.get("player")), "deed": deed.name}]
    if kind == "buy" and deed:
        return [_("%(player)s buys %(deed)s from the bank for %(amount)s.") % {
            "player": p(ev.get("player")), "deed": deed.name, "amount": deed.price}]
    if kind == "auction" and deed:
        if ev.get("winner") is None:
            return [_("No bid: %(deed)s stays with the bank.") % {"deed": deed.name}]
        return [_("%(player)s wins %(deed)s (printed price %(printed)s) for %(amount)s, paid to "
                  "the bank.") % {"player": p(ev.get("winner")), "deed": deed.name,
                                  "printed": deed.price, "amount": ev.get("price")}]
    if kind == "build" and deed:
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
    if kind == "sell_building" and deed:
        level = state.level.get(deed.key, 0)
        value = rules.building_sale_value(state, deed.key)
        if level > ruleset.max_houses:
            return [_("Sell the hotel on %(deed)s: %(amount)s back; %(houses)s houses return to "
                      "the street (the bank has %(bank)s).") % {
                "deed": deed.name, "amount": value, "houses": ruleset.max_houses,
                "bank": state.houses_in_bank}]
        return [_("Sell a house on %(deed)s: %(amount)s back (half price).") % {
            "deed": deed.name, "amount": value}]
    if kind == "mortgage" and deed:
        return [_("Mortgage %(deed)s: the bank pays %(amount)s.") % {
            "deed": deed.name, "amount": rules.mortgage_value(state, deed.key)}]
    if kind == "unmortgage" and deed:
        return [_("Pay off %(deed)s: %(amount)s (mortgage %(mortgage)s + 10 %% interest, "
                  "rounded up).") % {
            "deed": deed.name, "amount": rules.payoff_cost(state, deed.key),
            "mortgage": rules.mortgage_value(state, deed.key)}]
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
        target = ev.get("event")
        events = engine.events
        if isinstance(target, int) and 0 <= target < len(events):
            return [_("Cancel event %(index)s: %(event)s. Reason: %(reason)s") % {
                "index": target, "event": describe(events[target], names),
                "reason": ev.get("reason", "")}]
        return []
    return [describe(ev, names)] if kind else []


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
    cash = max(state.cash[player], 0)
    lines = []
    if creditor == BANK:
        lines.append(_("%(player)s is bankrupt to the bank.") % {"player": p(player)})
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
        lines.append(_("%(creditor)s receives %(amount)s: cash %(cash)s + buildings sold to the "
                       "bank at half price %(buildings)s.") % {
            "creditor": p(creditor), "amount": cash + building_money, "cash": cash,
            "buildings": building_money})
        if deeds:
            lines.append(_("%(creditor)s receives the deeds: %(deeds)s.") % {
                "creditor": p(creditor), "deeds": ", ".join(x.name for x in deeds)})
        pay_off = ev.get("unmortgage") if isinstance(ev.get("unmortgage"), list) else []
        for x in deeds:
            if x.key not in state.mortgaged:
                continue
            if ending:
                lines.append(_("%(deed)s stays mortgaged; no interest (the game ends).") % {
                    "deed": x.name})
            elif x.key in pay_off:
                lines.append(_("%(player)s pays off %(deed)s now: %(amount)s.") % {
                    "player": p(creditor), "deed": x.name,
                    "amount": rules.payoff_cost(state, x.key)})
            else:
                lines.append(_("%(deed)s stays mortgaged: %(player)s pays %(amount)s interest "
                               "now (a later pay-off costs another 10 %%).") % {
                    "player": p(creditor), "deed": x.name,
                    "amount": rules.interest_due(state, x.key)})
    return lines
