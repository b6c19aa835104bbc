"""Reads of a table's game for the console, the API and the public pages.

One selector builds the whole picture from the engine's state plus two small queries (the game
row with its table, and the seated players), whatever the number of events.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from referee import rules
from tournament.models import Player

from . import engine_cache
from .models import Game, GameResult


def players_by_key(game: Game) -> dict[str, Player]:
    ids = [int(key) for key in game.players]
    players = Player.objects.filter(pk__in=ids).select_related("club")
    return {str(player.pk): player for player in players}


def _seconds(value: dt.timedelta | None) -> float | None:
    return None if value is None else value.total_seconds()


def clock(game: Game, engine: rules.Game, now: dt.datetime) -> dict[str, Any]:
    ruleset = engine.ruleset
    stop = ruleset.auction_stop_minute
    limit = ruleset.time_limit_minutes
    return {
        "server_now": now.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "paused": game.is_paused,
        "game_seconds": game.game_seconds(now),
        "auction_stop_seconds": stop * 60 if stop else None,
        "time_limit_seconds": limit * 60 if limit else None,
        "auction_stop_due": game.auction_stop_due.isoformat() if game.auction_stop_due else None,
        "time_up_due": game.time_up_due.isoformat() if game.time_up_due else None,
        "auction_stop_done": game.auction_stop_done,
        "time_limit_mode": str(ruleset.time_limit_mode),
    }


def game_state(
    game: Game, *, public: bool, now: dt.datetime | None = None, feed: int = 12
) -> dict[str, Any]:
    """The table as the console (``public=False``) or a spectator (``public=True``) sees it."""
    now = now or timezone.now()
    engine = engine_cache.engine_for(game)
    state = engine.state
    people = players_by_key(game)
    show_cash = not public or state.ledger
    players = []
    for key in state.players:
        person = people.get(key)
        worth = rules.net_worth(state, key)
        entry = {
            "id": key,
            "name": (person.public_name if public else person.name) if person else key,
            "club": person.club.label if person and person.club else "",
            "bankrupt": key in state.bankrupt_set,
            "in_jail": key in state.in_jail,
            "net_worth": worth.total,
            "breakdown": worth.as_dict(),
            "deeds": [deed.key for deed in state.deeds_of(key)],
        }
        if show_cash:
            entry["cash"] = state.cash[key]
        players.append(entry)
    deeds = []
    for deed in state.board.deeds:
        level = state.level.get(deed.key, 0)
        hotel = level > state.rules.max_houses
        deeds.append(
            {
                "key": deed.key,
                "name": deed.name,
                "group": deed.group,
                "kind": deed.kind,
                "price": deed.price,
                "owner": state.owner.get(deed.key),
                "mortgaged": deed.key in state.mortgaged,
                "houses": 0 if hotel else level,
                "hotel": hotel,
            }
        )
    return {
        "game": game.pk,
        "table": game.table.number,
        "round": game.table.round.number,
        "ruleset": game.ruleset,
        "board": game.board,
        "ledger": state.ledger,
        "status": game.status,
        "end_reason": game.end_reason or None,
        "seq": game.event_count,
        "clock": clock(game, engine, now),
        "players": players,
        "deeds": deeds,
        "bank": {"houses": state.houses_in_bank, "hotels": state.hotels_in_bank},
        "unowned": rules.unowned_deeds(state),
        "must_auction": sorted(state.must_auction),
        "standings": [row.as_dict() for row in rules.standings(state)],
        "result": result_summary(game),
        "feed": recent_events(game, limit=feed, public=public),
    }


def result_summary(game: Game) -> dict[str, Any] | None:
    result = GameResult.objects.filter(game=game).first()
    if result is None:
        return None
    return {
        "status": result.status,
        "final": result.status == GameResult.Status.CONFIRMED,
        "confirmed_at": result.confirmed_at.isoformat() if result.confirmed_at else None,
    }


PRIVATE_EVENT_FIELDS = ("reason",)  # the banker's free text may name people


def public_event(data: dict[str, Any]) -> dict[str, Any]:
    """An event as spectators may see it: without the banker's free-text notes."""
    return {key: value for key, value in data.items() if key not in PRIVATE_EVENT_FIELDS}


def recent_events(game: Game, *, limit: int, public: bool = False) -> list[dict[str, Any]]:
    rows = game.events.order_by("-seq").values("seq", "type", "data", "recorded_at")[:limit]
    return [
        {"seq": row["seq"], "type": row["type"],
         "event": public_event(row["data"]) if public else row["data"],
         "recorded_at": row["recorded_at"].isoformat()}
        for row in rows
    ]


def record(game: Game) -> dict[str, Any]:
    """The game as a ``monopoly-game-record/1`` document (plus the project's optional fields)."""
    data = engine_cache.envelope(game)
    data["events"] = list(game.events.order_by("seq").values_list("data", flat=True))
    return data
