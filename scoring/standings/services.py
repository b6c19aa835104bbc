"""Writes of the stored standings: recompute them when their inputs changed.

Standings are recomputed only when their inputs changed (a signature of every counted result
and the scoring settings), so a repeated or late task changes nothing. Who asks for it:

* the one trigger, ``scoring.standings.trigger.standings_changed`` (a result changed, a round
  was closed), queues ``scoring.recompute_standings`` after commit;
* the periodic repair (``refresh_running_standings``) catches a lost message;
* a step that reads the standings at once (qualifiers, the winner, export, import) calls
  ``recompute_standings`` first: a no-op when nothing changed.
"""

from __future__ import annotations

import hashlib
import json
import secrets

from django.db import transaction

from referee.models import GameResult, Placement
from scoring import cache as standings_cache
from scoring.models import Scope, StandingRow, StandingsVersion
from tournament import incidents
from tournament.models import Player, Round, Tournament

from .compute import GameResultRow, PlayerLine, Settings, compute_standings


def settings_for(tournament: Tournament) -> Settings:
    return Settings(
        format=tournament.format,
        placement_points=tuple(tournament.placement_points or ()),
        tie_breaks=tuple(tournament.tie_breaks or ()),
        final_decides=tournament.final_decides,
        finalists=tournament.finalists,
        lot_seed=tournament.lot_seed or 0,
    )


def result_rows(tournament: Tournament, *, complete_rounds_only: bool) -> list[GameResultRow]:
    """Every counted result of the tournament; unconfirmed ones are marked provisional."""
    placements = Placement.objects.filter(
        result__game__table__round__tournament=tournament
    ).values_list(
        "result__game__table__round__number",
        "result__game__table__round__kind",
        "result__game__table__round__status",
        "result__game__table__number",
        "player_id",
        "place",
        "net_worth",
        "bankrupt",
        "result__status",
    )
    rows = []
    for number, kind, status, table, player, place, worth, bankrupt, result_status in placements:
        if complete_rounds_only and status != Round.Status.COMPLETE:
            continue
        rows.append(
            GameResultRow(
                round=number,
                table=table,
                player=player,
                place=place,
                net_worth=worth,
                bankrupt=bankrupt,
                final=result_status == GameResult.Status.CONFIRMED,
                is_final_round=kind == Round.Kind.FINAL,
            )
        )
    return rows


def _signature(rows: list[GameResultRow], settings: Settings, players: list[int]) -> str:
    payload = json.dumps(
        [sorted((r.round, r.table, r.player, r.place, r.net_worth, r.bankrupt, r.final,
                 r.is_final_round) for r in rows), repr(settings), players],
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _ensure_lot_seed(tournament: Tournament) -> Tournament:
    """The lot is a seeded draw; the seed is recorded once so the draw can be repeated."""
    if tournament.lot_seed is None:
        Tournament.objects.filter(pk=tournament.pk, lot_seed__isnull=True).update(
            lot_seed=secrets.randbits(48)
        )
        tournament.refresh_from_db(fields=["lot_seed"])
    return tournament


def recompute_standings(*, tournament_id: int) -> bool:
    """Recompute both scopes if their inputs changed; True when something was rewritten."""
    tournament = _ensure_lot_seed(Tournament.objects.get(pk=tournament_id))
    settings = settings_for(tournament)
    changed = False
    # Both scopes read the same inputs unless results are held: the (1,000-player: ~0.2 s,
    # inside SQLite's write lock) computation runs once for a signature, not once per scope.
    computed: dict[str, list[PlayerLine]] = {}
    for scope in (Scope.LIVE, Scope.PUBLIC):
        hold = scope == Scope.PUBLIC and not tournament.results_public_immediately
        with transaction.atomic():
            version, _ = StandingsVersion.objects.select_for_update().get_or_create(
                tournament=tournament, scope=scope
            )
            # The inputs are read under the lock: two recomputes at once (two results
            # confirmed together) must not let the one that read first write last.
            players = list(
                Player.objects.filter(tournament=tournament).order_by("pk")
                .values_list("pk", flat=True)
            )
            deducted = incidents.deductions(tournament)
            rows = result_rows(tournament, complete_rounds_only=hold)
            # One hash of both: the column holds 64 characters (PostgreSQL enforces it).
            signature = hashlib.sha256(
                (_signature(rows, settings, players) + str(sorted(deducted.items()))).encode()
            ).hexdigest()
            if version.signature == signature:
                continue
            if signature not in computed:
                computed[signature] = compute_standings(
                    players=players, results=rows, settings=settings, deductions=deducted
                )
            lines = computed[signature]
            StandingRow.objects.filter(tournament=tournament, scope=scope).delete()
            StandingRow.objects.bulk_create(
                [
                    StandingRow(
                        tournament=tournament,
                        scope=scope,
                        player_id=line.player,
                        rank=line.rank,
                        position=position,
                        points=line.points,
                        net_worth_sum=line.net_worth_sum,
                        best_net_worth=line.best_net_worth,
                        table_wins=line.table_wins,
                        games=line.games,
                        rounds={str(k): v for k, v in sorted(line.rounds.items())},
                        decided_by=line.decided_by,
                        qualified=line.qualified,
                        final_place=line.final_place,
                        deducted=line.deducted,
                    )
                    for position, line in enumerate(lines, start=1)
                ]
            )
            version.signature = signature
            version.version += 1
            version.through_round = max((row.round for row in rows), default=0)
            version.save()
            changed = True
    if changed:
        transaction.on_commit(lambda: standings_cache.invalidate(tournament.slug))
    return changed


def refresh_running_standings() -> int:
    """Recompute every running tournament whose results changed, and make sure the cache
    serves the stored version (an invalidation may have been lost with Redis); returns how
    many were recomputed."""
    recomputed = 0
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for pk, slug in running.values_list("pk", "slug"):
        recomputed += recompute_standings(tournament_id=pk)
        version = (
            StandingsVersion.objects.filter(tournament_id=pk, scope=Scope.PUBLIC)
            .values_list("version", flat=True)
            .first()
        )
        if version is not None:
            standings_cache.sync_version(slug, version)
    return recomputed
