"""Reads for the public leaderboard, the projector and the API: a fixed number of queries,
whatever the number of players or tables; only public names, never private data."""

from __future__ import annotations

from typing import Any

from scoring.models import Scope, StandingRow, StandingsVersion
from tournament.models import Tournament


def standings(tournament: Tournament, *, scope: str = Scope.PUBLIC) -> list[dict[str, Any]]:
    """One row per player, best first, with public name, club and per-round figures."""
    rows = (
        StandingRow.objects.filter(tournament=tournament, scope=scope)
        .select_related("player__club")
        .order_by("position")
    )
    # A dropped-out player is listed only with results (one imported by mistake never is);
    # rank 0: no confirmed result yet ("not played yet", never a place drawn by lot).
    return [
        {
            "place": row.rank or None,
            "player": row.player_id,
            "name": row.player.public_name,
            "club": row.player.club.label if row.player.club else "",
            "points": row.points,
            "deducted": row.deducted,
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
        if row.rounds or not row.player.dropped_out
    ]


def standings_meta(tournament: Tournament, *, scope: str = Scope.PUBLIC) -> dict[str, Any]:
    version = StandingsVersion.objects.filter(tournament=tournament, scope=scope).first()
    return {
        "version": version.version if version else 0,
        "through_round": version.through_round if version else 0,
        "computed_at": version.computed_at.isoformat() if version else None,
        "held": scope == Scope.PUBLIC and not tournament.results_public_immediately,
    }
