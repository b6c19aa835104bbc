"""Random legal games, for property tests, benchmarks and demo data.

Each step asks ``legal_actions`` what a player may do, picks one through ``choose`` (a
``random.Random`` by default; tests pass Hypothesis' choices), fills in amounts and applies it.
Nothing here bypasses the rules: every event goes through ``Game.apply``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, TypeVar

from referee.rules.contract import BANK, FINAL_ROUND, FINISHED
from referee.rules.engine import Game
from referee.rules.errors import RuleViolation
from referee.rules.queries import legal_actions, unowned_deeds

__all__ = ["random_game", "random_step"]

T = TypeVar("T")
Chooser = Callable[[Sequence[T]], T]

# How often each action is picked relative to the others (building play is what breaks rules).
_WEIGHTS = {
    "build": 8,
    "deal": 8,
    "buy": 4,
    "auction": 3,
    "trade": 3,
    "sell_building": 2,
    "mortgage": 2,
    "unmortgage": 2,
    "pay": 2,
    "release": 2,
}


def random_step(
    game: Game,
    choose: Chooser,
    *,
    allow_ending: bool = True,
    allow_void: bool = True,
    at: datetime | None = None,
) -> dict[str, Any] | None:
    """Try one random legal event; apply and return it, or return None if the pick failed."""
    event = _pick(game, choose, allow_ending=allow_ending, allow_void=allow_void)
    if event is None:
        return None
    if at is not None and event["type"] != "void":
        event["at"] = at.isoformat()
    try:
        game.check(event)
    except RuleViolation:
        return None
    game.apply(event)
    return event


def _pick(
    game: Game, choose: Chooser, *, allow_ending: bool, allow_void: bool
) -> dict[str, Any] | None:
    s = game.state
    if not s.started and (not s.rules.deal_count or choose((0, 1))):
        return {"type": "start"}
    if s.status == "setup" and s.rules.deal_count and choose((0, 1, 1, 1)):
        # Deal first, as a banker does; now and then play starts before every deal is made.
        needing = [p for p in s.active_players if s.deals[p] < s.rules.deal_count]
        unowned = unowned_deeds(s)
        if needing and unowned:
            return {"type": "deal", "player": choose(needing), "deed": choose(unowned)}
    table = ["table"] if s.status != FINISHED else []
    voids = ["void"] if allow_void and len(game) > 1 else []
    who = choose([*s.active_players * 3, *table, *voids])
    if who == "void":
        candidates = [
            i
            for i, e in enumerate(game.events)
            if e.get("type") not in ("void", "start") and i not in game.voided
        ]
        if not candidates:
            return None
        return {"type": "void", "event": choose(candidates), "reason": "correction"}
    if who == "table":
        options = ["pause" if not s.paused else "resume", "salary", "salary"]
        if s.rules.auction_stop_minute is not None and not s.auction_stop:
            options.append("auction_stop")
        if allow_ending and s.rules.has_time_limit:
            options.append("end" if s.status == FINAL_ROUND else "time_up")
        kind = choose(options)
        if kind == "salary":
            player = choose(s.active_players)
            return {
                "type": "pay",
                "from": BANK,
                "to": player,
                "amount": s.rules.salary,
                "reason": "salary",
            }
        return {"type": kind}
    player = who
    actions = legal_actions(s, player)
    if "bankrupt" in actions and (not allow_ending or choose((0, 0, 0, 1))):
        del actions["bankrupt"]  # rarely: a bankruptcy often ends the game
    if not actions:
        return None
    action = choose([a for a in sorted(actions) for _ in range(_WEIGHTS.get(a, 1))])
    deeds = actions[action]
    deed = None
    if deeds:
        # Prefer deeds that complete a group the player has started: that is where play goes.
        members = s.board.group_members
        wanted = [k for k in deeds if any(s.owner.get(m) == player for m in members[k] if m != k)]
        deed = choose(wanted) if wanted and choose((0, 1, 1)) else choose(deeds)
    cash = s.cash[player]
    others = [p for p in s.active_players if p != player]
    if action in ("deal", "buy"):
        return {"type": action, "player": player, "deed": deed}
    if action in ("build", "sell_building", "mortgage", "unmortgage"):
        return {"type": action, "deed": deed}
    if action == "auction":
        assert deed is not None, "an auction is always for a deed"
        price = choose((s.rules.auction_min_bid, 10, 60, s.board.deed(deed).price))
        if choose((0, 0, 0, 1)):
            return {"type": "auction", "deed": deed, "winner": None, "price": 0}
        return {
            "type": "auction",
            "deed": deed,
            "winner": player,
            "price": max(price, s.rules.auction_min_bid),
        }
    if action == "trade":
        assert deed is not None, "a trade always hands over a deed"
        # Prefer the player who owns the rest of the group: trades that build monopolies.
        group_owners = [s.owner[m] for m in s.board.group_members[deed] if s.owner.get(m) in others]
        taker = choose(group_owners) if group_owners and choose((0, 1)) else choose(others)
        extra = [k for k in deeds if k != deed]
        given = [deed, choose(extra)] if extra and choose((0, 1)) else [deed]
        mortgaged = [k for k in given if k in s.mortgaged]
        event: dict[str, Any] = {
            "type": "trade",
            "from": player,
            "to": taker,
            "deeds": given,
            "cash": choose((0, 0, 10, 150)),
        }
        if mortgaged and choose((0, 1)):
            event["unmortgage"] = mortgaged[:1]
        return event
    if action == "pay":
        amount = choose((1, 10, 50, 200))
        if s.ledger:
            amount = min(amount, cash)
        return {
            "type": "pay",
            "from": player,
            "to": choose([*others, BANK]),
            "amount": amount,
            "reason": "rent",
        }
    if action == "cash":
        return {"type": "cash", "player": player, "amount": max(0, cash + choose((0, 0, -5, 20)))}
    if action == "release":
        return {"type": "release", "player": player, "fine": bool(choose((0, 1)))}
    if action == "bankrupt":
        creditor = choose([*others, BANK])
        return {"type": "bankrupt", "player": player, "creditor": creditor}
    return {"type": action, "player": player}  # jail


def random_game(
    *,
    ruleset: Any = "karlsruhe",
    board: Any = None,
    players: Sequence[str] = ("anna", "ben", "carla", "dieter"),
    ledger: bool = False,
    events: int = 100,
    seed: int = 0,
    choose: Chooser | None = None,
    allow_ending: bool = True,
    allow_void: bool = True,
    clock: bool = False,
    seconds_per_event: int = 20,
) -> Game:
    """A game of ``events`` random legal events (fewer if the game ends and only counts are
    left to record). With ``clock`` every event carries an ``at``, ``seconds_per_event`` apart."""
    if choose is None:
        rng = random.Random(seed)
        choose = rng.choice
    game = Game(ruleset=ruleset, board=board, players=players, ledger=ledger)
    start = datetime(2026, 11, 28, 14, 0, tzinfo=timezone(timedelta(hours=1)))
    tries = 0
    while len(game) < events and tries < events * 20:
        tries += 1
        if game.status == FINISHED and choose((0, 1)):
            break  # only counts and corrections are left
        at = start + timedelta(seconds=seconds_per_event * len(game)) if clock else None
        random_step(game, choose, allow_ending=allow_ending, allow_void=allow_void, at=at)
    return game
