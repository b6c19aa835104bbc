"""The export: a whole tournament as one JSON-ready document (see ``scoring.exchange``)."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from referee import selectors as referee_selectors
from referee import services as referee_services
from referee.models import Game, GameEvent, GameResult, Placement
from scoring.models import Scope
from scoring.standings import selectors
from scoring.standings.services import recompute_standings
from tournament import audit
from tournament import tournaments as tournament_settings
from tournament.models import Seat, Table, Tournament

from .document import FORMAT

# --------------------------------------------------------------------------- export


def _iso(value: dt.datetime | dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _key(player_id: int | None) -> str | None:
    return referee_services.player_key(player_id) if player_id is not None else None


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as one JSON-ready document (see the module's docstring).

    The standings are brought up to date first (a no-op when nothing changed); that also
    records the lot's seed, so that the importing server draws the same lot.
    """
    recompute_standings(tournament_id=tournament.pk)
    tournament = Tournament.objects.get(pk=tournament.pk)
    players = list(tournament.players.select_related("club").order_by("pk"))
    clubs = sorted({player.club for player in players if player.club_id}, key=lambda c: c.name)
    rounds = list(tournament.rounds.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("banker")
        .order_by("round__number", "number")
    )
    seats: dict[int, list[str]] = defaultdict(list)
    for table_id, player_id in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "player_id")
    ):
        seats[table_id].append(_key(player_id))
    games = {
        game.table_id: game
        for game in Game.objects.filter(table__round__tournament=tournament).order_by("pk")
    }
    placements = Prefetch("placements", queryset=Placement.objects.order_by("place", "player_id"))
    results = {
        result.game_id: result
        for result in GameResult.objects.filter(game__table__round__tournament=tournament)
        .select_related("counted_by", "confirmed_by")
        .prefetch_related(placements)
    }
    authors: dict[int, list[str | None]] = defaultdict(list)
    for game_id, username in (
        GameEvent.objects.filter(game__table__round__tournament=tournament)
        .order_by("game_id", "seq")
        .values_list("game_id", "author__username")
    ):
        authors[game_id].append(username)

    tables_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        game = games.get(table.pk)
        result = results.get(game.pk) if game is not None else None
        tables_of[table.round_id].append(
            {
                "number": table.number,
                "banker": table.banker.get_username() if table.banker else None,
                "seats": seats.get(table.pk, []),
                "game": _export_game(game, authors.get(game.pk, [])) if game else None,
                "result": _export_result(result) if result else None,
            }
        )

    settings = {
        name: getattr(tournament, name) for name in tournament_settings.SETTINGS_FIELDS
    }
    settings["date"] = _iso(tournament.date)
    standings = [
        {**row, "player": _key(row["player"])}
        for row in selectors.standings(tournament, scope=Scope.LIVE)
    ]
    return {
        "format": FORMAT,
        "exported_at": _iso(timezone.now()),
        "tournament": {
            **settings,
            "status": tournament.status,
            "lot_seed": tournament.lot_seed,
            "winner": _key(tournament.winner_id),
        },
        "clubs": [{"name": club.name, "short_name": club.short_name} for club in clubs],
        "players": [
            {
                "key": _key(player.pk),
                "name": player.name,
                "club": player.club.name if player.club else None,
                "email": player.email,
                "public_name_consent": player.public_name_consent,
                "checked_in": player.checked_in,
                "dropped_out": player.dropped_out,
                "dropped_out_at": _iso(player.dropped_out_at),
                "private_note": player.private_note,
                "alternate_rank": player.alternate_rank,
            }
            for player in players
        ],
        "bankers": sorted({table.banker.get_username() for table in tables if table.banker}),
        "rounds": [
            {
                "number": round_.number,
                "kind": round_.kind,
                "status": round_.status,
                "started_at": _iso(round_.started_at),
                "closed_at": _iso(round_.closed_at),
                "version": round_.version,
                "tables": tables_of.get(round_.pk, []),
            }
            for round_ in rounds
        ],
        "standings": standings,
        # Who changed what and why (staff actions; kept for the record, not imported).
        "audit": audit.export(tournament),
        "incidents": [
            {"player": _key(incident.player_id), "level": incident.level,
             "points": incident.points, "note": incident.note,
             "recorded_at": _iso(incident.recorded_at),
             "recorded_by": incident.recorded_by.get_username() if incident.recorded_by else None}
            for incident in tournament.incidents.select_related("recorded_by").order_by("pk")
        ],
    }


def _export_game(game: Game, authors: list[str | None]) -> dict[str, Any]:
    return {
        "record": referee_selectors.record(game),
        "authors": authors,
        "confirmation_code": game.confirmation_code,
        "banker_seen_at": _iso(game.banker_seen_at),
    }


def _export_result(result: GameResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "counted_at": _iso(result.counted_at),
        "counted_by": result.counted_by.get_username() if result.counted_by else None,
        "confirmed_at": _iso(result.confirmed_at),
        "confirmed_by": result.confirmed_by.get_username() if result.confirmed_by else None,
        "confirmed_via": result.confirmed_via,
        "dispute_note": result.dispute_note,
        "resolved_note": result.resolved_note,
        "from_paper": result.from_paper,
        "placements": [
            {
                "player": _key(placement.player_id),
                "place": placement.place,
                "net_worth": placement.net_worth,
                "bankrupt": placement.bankrupt,
                "breakdown": placement.breakdown,
            }
            for placement in result.placements.all()
        ],
    }


def export_json(tournament: Tournament) -> bytes:
    return json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1).encode()
