"""Reads for the public leaderboard, the projector and the API: a fixed number of queries,
whatever the number of players or tables; only public names, never private data."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from referee.models import Game, GameResult
from tournament import selectors as tournament_selectors
from tournament.models import Round, Seat, Table, Tournament

from .models import Scope, StandingRow, StandingsVersion


def scope_for(*, organizer: bool) -> str:
    return Scope.LIVE if organizer else Scope.PUBLIC


def standings(tournament: Tournament, *, scope: str = Scope.PUBLIC) -> list[dict[str, Any]]:
    """One row per player, best first, with public name, club and per-round figures."""
    rows = (
        StandingRow.objects.filter(tournament=tournament, scope=scope)
        .select_related("player__club")
        .order_by("position")
    )
    return [
        {
            "place": row.rank,
            "player": row.player_id,
            "name": row.player.public_name,
            "club": row.player.club.label if row.player.club else "",
            "points": row.points,
            "net_worth_sum": row.net_worth_sum,
            "best_net_worth": row.best_net_worth,
            "table_wins": row.table_wins,
            "games": row.games,
            "rounds": row.rounds,
            "decided_by": row.decided_by,
            "qualified": row.qualified,
            "final_place": row.final_place,
            "dropped_out": row.player.dropped_out,
        }
        for row in rows
    ]


def standings_meta(tournament: Tournament, *, scope: str = Scope.PUBLIC) -> dict[str, Any]:
    version = StandingsVersion.objects.filter(tournament=tournament, scope=scope).first()
    return {
        "version": version.version if version else 0,
        "through_round": version.through_round if version else 0,
        "computed_at": version.computed_at.isoformat() if version else None,
        "held": scope == Scope.PUBLIC and not tournament.results_public_immediately,
    }


def table_overview(tournament: Tournament) -> dict[str, Any]:
    """Every table of the current round: clock, state, provisional leader (public names)."""
    current = tournament_selectors.current_round(tournament)
    if current is None:
        return {"round": None, "tables": []}
    seats = Seat.objects.select_related("player__club").order_by("position")
    tables = (
        Table.objects.filter(round=current)
        .select_related("game", "game__result")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    out = []
    for table in tables:
        game = getattr(table, "game", None)
        names = {str(seat.player_id): seat.player.public_name for seat in table.seats.all()}
        out.append(table_card(table, game, names))
    return {"round": {"number": current.number, "kind": current.kind,
                      "status": current.status}, "tables": out}


def table_state_word(game: Game | None, result: GameResult | None) -> str:
    """not_started / running / paused / auction / final_round / ended / confirmed / disputed."""
    if game is None or game.started_at is None:
        return "not_started"
    if result is not None:
        if result.status == GameResult.Status.CONFIRMED:
            return "confirmed"
        if result.status == GameResult.Status.DISPUTED:
            return "disputed"
    if game.status == Game.Status.FINISHED:
        return "ended"
    if game.status == Game.Status.FINAL_ROUND:
        return "final_round"
    if game.paused_at is not None:
        return "paused"
    if game.auction_stop_done and (game.summary or {}).get("unowned"):
        return "auction"
    return "running"


def _result_of(game: Game | None) -> GameResult | None:
    if game is None:
        return None
    try:
        return game.result
    except GameResult.DoesNotExist:
        return None


def table_card(table: Table, game: Game | None, names: dict[str, str]) -> dict[str, Any]:
    summary = (game.summary if game else None) or {}
    leader = summary.get("leader")
    worth = summary.get("net_worth", {})
    result = _result_of(game)
    return {
        "id": table.pk,
        "number": table.number,
        "state": table_state_word(game, result),
        "status": game.status if game else "setup",
        "end_reason": (game.end_reason or None) if game else None,
        "started_at": game.started_at.isoformat() if game and game.started_at else None,
        "paused": bool(game and game.paused_at),
        "game_seconds": game.game_seconds() if game else None,
        "auction_stop_done": bool(game and game.auction_stop_done),
        "leader": names.get(leader) if leader else None,
        "leader_net_worth": worth.get(leader) if leader else None,
        "players": [
            {"name": names[key], "net_worth": worth.get(key),
             "bankrupt": key in summary.get("bankrupt", [])}
            for key in (game.players if game else names)
            if key in names
        ],
        "result": result.status if result else None,
    }


def player_games(tournament: Tournament, player_id: int) -> list[dict[str, Any]]:
    """A player's games: round, table, place, net worth (confirmed or marked provisional)."""
    seats = (
        Seat.objects.filter(round__tournament=tournament, player_id=player_id)
        .select_related("round", "table__game__result")
        .order_by("round__number")
    )
    out = []
    for seat in seats:
        game = getattr(seat.table, "game", None)
        result = _result_of(game)
        placement = None
        if result is not None:
            placement = result.placements.filter(player_id=player_id).first()
        out.append(
            {
                "round": seat.round.number,
                "final": seat.round.kind == Round.Kind.FINAL,
                "table": seat.table.number,
                "table_id": seat.table_id,
                "place": placement.place if placement else None,
                "net_worth": placement.net_worth if placement
                else ((game.summary or {}).get("net_worth", {}).get(str(player_id)) if game else None),
                "confirmed": bool(result and result.status == GameResult.Status.CONFIRMED),
            }
        )
    return out
