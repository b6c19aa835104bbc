"""The export: a whole tournament as one JSON-ready document (see ``exchange``)."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from exchange.document import FORMAT
from referee import selectors as referee_selectors
from referee import services as referee_services
from referee.models import (
    Game,
    GameEvent,
    GameResult,
    Placement,
)
from scoring.standings import selectors as standings_selectors
from scoring.standings.services import live_lines
from tournament import audit, privacy
from tournament import tournaments as tournament_settings
from tournament.models import (
    BankerLink,
    Player,
    Seat,
    Table,
    Tournament,
)
from tournament.signup import selectors as signup_selectors

# --------------------------------------------------------------------------- export


def _iso(value: dt.datetime | dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _key(player_id: int | None) -> str | None:
    return referee_services.player_key(player_id) if player_id is not None else None


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as one JSON-ready document (see the module's docstring).

    A read (the export is a GET, which never writes): the standings are computed from the
    results as they are now, not stored; the lot's seed goes with them (recorded by the first
    recompute, which any result triggers), so that the importing server draws the same lot.
    """
    tournament = Tournament.objects.get(pk=tournament.pk)
    players = list(tournament.players.select_related("club").order_by("pk"))
    clubs = sorted({player.club for player in players if player.club_id}, key=lambda c: c.name)
    rounds = list(tournament.rounds.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("banker")
        .order_by("round__number", "number")
    )
    tables_of = _export_tables(tournament, tables)
    settings = {
        name: getattr(tournament, name) for name in tournament_settings.SETTINGS_FIELDS
    }
    settings["date"] = _iso(tournament.date)
    standings = _standings(tournament, {player.pk: player for player in players})
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
        "players": [_export_player(player) for player in players],
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
        # Who changed what and why: imported as the tournament's earlier log (marked imported);
        # an entry on a result's line names it by round, table and player (``target_key``), so
        # that the importing server files it under its own line (verify finds the amendment).
        "audit": audit.export(tournament, target_keys=_audit_targets(tournament)),
        "incidents": _export_incidents(tournament),
        # The public sign-up: its settings, every sign-up (imported) and the mails sent to it
        # (kept for the record, not imported).
        "signup": _export_signup(tournament),
    }


def _audit_targets(tournament: Tournament) -> dict[tuple[str, int], dict[str, Any]]:
    """Each placement of the tournament, (model, id) → its natural key in the document: the
    round's and table's numbers and the player's key (a placement's id is this server's)."""
    return {
        ("placement", pk): {"round": round_number, "table": table_number, "player": _key(player)}
        for pk, round_number, table_number, player in Placement.objects.filter(
            result__game__table__round__tournament=tournament).values_list(
            "pk", "result__game__table__round__number", "result__game__table__number",
            "player_id")
    }


def _export_incidents(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"player": _key(incident.player_id), "level": incident.level,
         "points": incident.points, "note": incident.note,
         # the round a deduction belongs to: the list "after round N" counts it from round N
         "round": incident.round_number, "table": incident.table_number,
         "recorded_at": _iso(incident.recorded_at),
         "recorded_by": incident.recorded_by.get_username() if incident.recorded_by else None}
        for incident in tournament.incidents.select_related("recorded_by").order_by("pk")
    ]


def _export_player(player: Player) -> dict[str, Any]:
    return {
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
        # The code on the printed player card: kept where it is free (moving up).
        "pass_code": player.pass_code,
    }


def _export_tables(tournament: Tournament, tables: list[Table]) -> dict[int, list[dict[str, Any]]]:
    """Each round's tables (round id → tables in order): banker, link, seats, game, result."""
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

    links = {
        link.table_id: link.nonce
        for link in BankerLink.objects.filter(table__in=tables, revoked_at=None)
    }
    tables_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        game = games.get(table.pk)
        result = results.get(game.pk) if game is not None else None
        tables_of[table.round_id].append(
            {
                "number": table.number,
                "banker": table.banker.get_username() if table.banker else None,
                # The live private link's nonce: with the same secret key the printed table
                # card keeps working on the importing server.
                "link": links.get(table.pk),
                "seats": seats.get(table.pk, []),
                "game": _export_game(game, authors.get(game.pk, [])) if game else None,
                "result": _export_result(result) if result else None,
            }
        )
    return tables_of


def _standings(tournament: Tournament, players: dict[int, Any]) -> list[dict[str, Any]]:
    """The live standings computed now, in the rows and order ``selectors.standings`` gives
    (its :func:`~scoring.standings.selectors.listed`: who takes part, the unplaced by name)."""
    rows = []
    for line in standings_selectors.listed(
        live_lines(tournament), taking_part=standings_selectors.taking_part(tournament),
        player=lambda line: line.player, played=lambda line: bool(line.rounds),
        ranked=lambda line: bool(line.rank), name=lambda line: players[line.player].public_name,
    ):
        player = players[line.player]
        rows.append({
            "place": line.rank or None,
            "player": _key(line.player),
            "name": player.public_name,
            "club": player.club.label if player.club else "",
            "points": line.points,
            "deducted": line.deducted,
            "net_worth_sum": line.net_worth_sum,
            "best_net_worth": line.best_net_worth,
            "table_wins": line.table_wins,
            "games": line.games,
            "rounds": {str(k): v for k, v in sorted(line.rounds.items())},
            "decided_by": line.decided_by,
            "qualified": line.qualified,
            "final_place": line.final_place,
            "dropped_out": player.dropped_out,
        })
    return rows


def _export_signup(tournament: Tournament) -> dict[str, Any]:
    settings = signup_selectors.settings_of(tournament)
    signups = []
    for signup in tournament.signups.prefetch_related("mails").order_by("pk"):
        row = privacy.signup_data(signup) or {}
        row["player"] = _key(signup.player_id)
        row["key"] = signup.token  # the links in mails already sent keep working after a move
        signups.append(row)
    return {
        "settings": {"open": settings.is_open, "opens_at": _iso(settings.opens_at),
                     "closes_at": _iso(settings.closes_at), "capacity": settings.capacity,
                     "waiting_list": settings.waiting_list, "entry_fee": settings.entry_fee},
        "signups": signups,
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
