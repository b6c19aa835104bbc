"""What the banker's console shows, built from the rules engine's state (never from event rows).

Read-only: the picture of a table for the console templates. Query count does not depend on the
number of events: the engine is the cached one, the feed is read from it.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy

from config.kept import Kept
from referee import engine_cache, rules, selectors
from referee.console import feed_rows, legal
from referee.feed import format_clock
from referee.models import Game, GameResult, Placement
from referee.words import (
    END_REASONS,
    GROUP_LABELS,
    KNOWN_GROUPS,
    PAUSE_REASONS,
    Names,
    names_for,
    reason_label,
)

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


@lru_cache(maxsize=64)
def _words(*, table: str, language: str | None) -> dict[str, str]:
    """The button or group labels (``table``) translated in the active ``language``, once per
    process and language (each lazy label was translated again on every post)."""
    labels = BUTTON_LABELS if table == "buttons" else GROUP_LABELS
    return {code: str(label) for code, label in labels.items()}


def _group_label(*, group: str) -> str:
    return _words(table="groups", language=get_language()).get(group, group)


# --------------------------------------------------------------------------- the picture


def _initials(name: str) -> str:
    parts = [p for p in name.split() if p]
    return "".join(p[0] for p in parts[:2]).upper() or "?"


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


def auctions_done(engine: rules.Game, reason: str) -> int:
    """How many deeds the running walk-through has auctioned already, so that it counts through
    the cards ("Deed 2 of 15" after the first, not "1 of 14"): the auctions since the auction
    stop, or since the bankruptcy that gave the deeds back."""
    if not reason:
        return 0
    opened_by = "bankrupt" if reason == "bankruptcy" else "auction_stop"
    live = [(i, ev) for i, ev in enumerate(engine.events)
            if i not in engine.voided and isinstance(ev, dict)]
    start = max((i for i, ev in live if ev.get("type") == opened_by), default=None)
    if start is None:
        return 0
    return sum(1 for i, ev in live if i > start and ev.get("type") == "auction")


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
        "no_rent": "",
    }
    if owner is not None:
        if deed.kind == "utility":
            view["rent_dice"] = {d: rules.rent_due(state, key, dice=d) for d in range(2, 13)}
        else:
            view["rent"] = rules.rent_due(state, key)
        # Why no rent is due, for the refusal the banker reads (not just "no rent").
        if key in state.mortgaged:
            view["no_rent"] = "mortgaged"
        elif owner in state.in_jail and not state.rules.owner_in_jail_collects_rent:
            view["no_rent"] = "jail"
    return view


#: The deeds' views kept per process by what they read (issue 29: 28 views built again on
#: every post, though a payment changes none of them): the state as ``rules.checks_read``
#: gives it (all but cash and the last time), the players' names and the language.
_deed_views: Kept[tuple[object, object, list[dict[str, Any]]]] = Kept(size=512)


def _deeds(state: rules.GameState, names: Names, reads) -> list[dict[str, Any]]:
    """``_deed_view`` of every deed in board order: each a new dictionary (the caller may
    change it), kept with the board and the ruleset (their ids in ``reads``)."""
    key = (reads, tuple(names.players.items()), get_language())
    _board, _ruleset, views = _deed_views.get(key=key, make=lambda: (
        state.board, state.rules, [_deed_view(state, d, names) for d in state.board.deeds]))
    return [dict(view) for view in views]


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


def build(
    game: Game, *, now: dt.datetime | None = None, selected: str | None = None,
    feed_all: bool = False, result: GameResult | None = None, no_result: bool = False,
) -> dict[str, Any]:
    """The whole console picture of a table (the cached engine, one to three small queries).

    ``result``: the game's result when the caller has it (a confirmation): not read again;
    ``no_result``: the caller knows there is none (the post that ended the game).
    Once counted, the players' names come with the placements (one read for both)."""
    now = now or timezone.now()
    engine = engine_cache.engine_for(game)
    state = engine.state
    ruleset = state.rules
    finished = engine.status == "finished"
    placements = None
    # A game ended at the desk (the paper sheet) is finished in its row, not in its record:
    # its result is read too, and the console shows that result instead of the live game.
    ended = finished or (game.pk is not None and game.status == Game.Status.FINISHED)
    if ended and not no_result:
        found = result if result is not None else GameResult.objects.filter(game=game).first()
        if found is not None and (finished or found.from_paper):
            result = found
            placements = list(result.placements.select_related("player"))
    paper = placements is not None and result is not None and result.from_paper
    people = {str(row.player_id): row.player for row in placements or ()}
    names = names_for(game, engine,
                      people=people if people and set(state.players) <= set(people) else None)
    reads = rules.checks_read(state)
    deeds = _deeds(state, names, reads)
    by_key = {d["key"]: d for d in deeds}
    # A result from the paper sheet stands: no play, the clock shows the game over.
    status = "finished" if paper else engine.status
    finished = finished or paper
    started = state.started
    live = started and status in ("setup", "running", "final_round")
    pending, pending_reason = pending_auctions(engine)

    players = _players(state, names, by_key, deeds, pending, reads, live=live,
                       finished=finished)
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
        "paper": paper,
        "paper_end_reason": (
            END_REASONS.get(game.end_reason or "", game.end_reason or "") if paper else ""),
        "setup": not finished and (not started or dealing),
        "started": started,
        "live": live,
        "final_round": status == "final_round",
        # The last round of turns: who still plays, in seat order (None: not yet marked whose
        # turn it was at time).
        "final_turns": None if state.final_turns is None else [
            {"key": key, "name": names.player(key)} for key in state.final_turns
        ],
        "paused": state.paused,
        "pause_reason": _pause_reason(engine),
        "seq": game.event_count,
        "clock": clock,
        "game_time": format_clock(clock["game_seconds"]),
        "ruleset": ruleset,
        "max_level": ruleset.max_houses + 1,
        "ledger": state.ledger,
        "players": players,
        "active_players": active,
        # what the action sheets read of the players (not their cash: ``{% kept %}`` reuses
        # the sheets while only cash moves)
        "sheet_players": [
            {"key": p["key"], "name": p["name"], "mortgageable": p["mortgageable"],
             "unmortgageable": p["unmortgageable"], "tradeable": p["tradeable"],
             "mortgaged_deeds": p["mortgaged_deeds"]}
            for p in active
        ],
        "selected": selected,
        # The deal the ruleset asks for before the clock starts (the start sheet warns).
        "deals_dealt": sum(p["deals"] for p in active) if ruleset.deal_count else 0,
        "deals_due": ruleset.deal_count * len(active),
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
        "auctions_done": auctions_done(engine, pending_reason),
        "pending_reason": pending_reason,
        "bank": {"houses": state.houses_in_bank, "hotels": state.hotels_in_bank},
        "next_bankruptcy_ends": ending_bankruptcy(state),
        "tax_squares": [
            {"name": s.name, "amount": s.price} for s in state.board.squares if s.kind == "tax"
        ],
        "feed": feed_rows.feed(engine, names, feed_all),
        "feed_all": feed_all,
        "standings": standings,
        "result": result,
        "dispute_label": (
            selectors.dispute_note_label(result, game.table.banker_id)
            if result is not None and result.status == GameResult.Status.DISPUTED else ""
        ),
        "count_rows": (count_rows := _count_rows(
            placements, standings,
            record=selectors.figures_of_record(game, result) if paper else None)),
        # the head referee changed a counted net worth: the heading no longer says "as counted"
        "amended": any(row.get("marked") for row in count_rows),
        "js_data": {
            **_js_data(game, players, deeds, clock, status, pending),
            # the deal is answered in the browser (no round trip per tapped deed)
            "deals_paid": bool(ruleset.deals_paid),
        },
    }


def _players(state, names: Names, by_key, deeds, pending, reads, *, live: bool, finished: bool):
    """Each player with cash, net worth, deeds and (for those still in) the legal actions
    (``reads``: ``rules.checks_read(state)``)."""
    players = []
    owners = {d["owner"] for d in deeds if d["owner"]}
    for seat, key in enumerate(state.players, start=1):
        bankrupt = key in state.bankrupt_set
        worth = rules.net_worth(state, key)
        actions: dict[str, list[str]] = {}
        if not bankrupt and (live or finished or state.status == "setup"):
            actions = legal.legal_actions(state, key, reads=reads)
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
            "buttons": _buttons(actions, key, owners, pending) if live else [],
            "unavailable": (
                legal.unavailable(state, key, actions, names, reads=reads)
                if live and not bankrupt and not pending else []
            ),
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
            "label": _group_label(group=group), "owner": owner, "streets": streets,
        })
    return out


def _count_rows(
    placements: list[Placement] | None, standings: list[dict], *, record: dict | None = None
) -> list[dict[str, Any]]:
    """The placements as counted once there is a count, else the live standings. ``record``:
    the figures of record of a result from the paper sheet (``selectors.figures_of_record``:
    a bankrupt player has no net worth there). An amended line carries the counted net worth
    it replaced (``counted``): its parts are the count's, not the amended total's."""
    if placements is None:
        return standings
    rows = []
    for row in placements:
        key = str(row.player_id)
        breakdown = row.breakdown or {}
        # the mark is set when the amendment moved the line's place or its figure; the line
        # says "amended" where the figure changed (a line only moved down adds up as counted)
        marked = bool(breakdown.get("amended"))
        counted = breakdown.get("counted_net_worth") if marked else None
        amended = marked and counted != row.net_worth
        rows.append({
            "player": key, "name": row.player.name,
            "place": record["places"].get(key, row.place) if record else row.place,
            "bankrupt": row.bankrupt,
            "net_worth": record["net_worth"].get(key) if record else row.net_worth,
            "breakdown": breakdown, "amended": amended, "marked": marked,
            "counted": counted if amended else None,
            # the parts of the line: the sheet's (when it gave them) or the count's
            "parts": any(part in breakdown for part in ("cash", "deeds", "mortgaged")),
        })
    return rows


def _union(lists) -> list[str]:
    seen: dict[str, None] = {}
    for items in lists:
        for item in items:
            seen.setdefault(item, None)
    return list(seen)


def _groups(deeds: list[dict]) -> list[dict]:
    groups: dict[str, dict] = {}
    labels = _words(table="groups", language=get_language())
    for d in deeds:
        entry = groups.setdefault(d["group"], {
            "group": d["group"], "group_class": d["group_class"],
            "label": labels.get(d["group"], d["group"]), "deeds": [],
        })
        entry["deeds"].append(d)
    return list(groups.values())


def _buttons(
    actions: dict[str, list[str]], key: str, owners: set[str], pending: list[str]
) -> list[dict[str, Any]]:
    """The action buttons of one player's panel, each only when the engine allows it
    (``owners``: who owns a deed, for the rent button)."""
    if pending:
        return []  # auction mode: only the auction walk-through and corrections
    out = []
    if "buy" in actions:
        out.append("buy")
    if "pay" in actions and (len(owners) > 1 or (owners and key not in owners)):
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
    # Translated once per language (a lazy label is translated again at each use).
    labels = _words(table="buttons", language=get_language())
    return [{"code": code, "label": labels[code]} for code in out]


def _js_data(game, players, deeds, clock, status, pending) -> dict[str, Any]:
    """The compact picture console.js needs to build events and labels offline."""
    return {
        # the game (None: no row yet, nothing booked): the deal's unbooked ticks are kept per
        # table and game in the browser, so that another game never shows them
        "game": game.pk,
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
                "rent_dice": d["rent_dice"], "no_rent": d["no_rent"],
                "house_cost": d["house_cost"],
                "mortgage": d["mortgage"], "payoff": d["payoff"], "sale_value": d["sale_value"],
            }
            for d in deeds
        },
    }
