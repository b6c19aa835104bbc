"""Writes of scoring: recompute stored standings, close a round, seat the final, crown the winner.

Standings are recomputed only when their inputs changed (a signature of every counted result
and the scoring settings), so a repeated or late task changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import secrets

from django.db import transaction
from django.utils import timezone

from referee.models import GameResult, Placement
from tournament import services as tournament_services
from tournament.models import Player, Round, Tournament

from . import cache as standings_cache
from . import errors
from .compute import GameResultRow, Settings, compute_standings, table_winners_qualifiers
from .models import Scope, StandingRow, StandingsVersion


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
    players = list(
        Player.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True)
    )
    changed = False
    for scope in (Scope.LIVE, Scope.PUBLIC):
        hold = scope == Scope.PUBLIC and not tournament.results_public_immediately
        rows = result_rows(tournament, complete_rounds_only=hold)
        signature = _signature(rows, settings, players)
        with transaction.atomic():
            version, _ = StandingsVersion.objects.select_for_update().get_or_create(
                tournament=tournament, scope=scope
            )
            if version.signature == signature:
                continue
            lines = compute_standings(players=players, results=rows, settings=settings)
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


# --------------------------------------------------------------------------- rounds


def missing_results(round_: Round) -> list[int]:
    """Numbers of the round's tables without a confirmed result."""
    confirmed = set(
        GameResult.objects.filter(
            game__table__round=round_, status=GameResult.Status.CONFIRMED
        ).values_list("game__table_id", flat=True)
    )
    return [
        number
        for pk, number in round_.tables.order_by("number").values_list("pk", "number")
        if pk not in confirmed
    ]


@transaction.atomic
def close_round(*, round_: Round) -> Round:
    """Close a running round once every table's result is confirmed; standings follow."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.RUNNING:
        raise errors.RoundNotClosable(
            errors.ROUND_NOT_RUNNING,
            params={"number": round_.number, "status": round_.get_status_display()},
        )
    missing = missing_results(round_)
    if missing:
        raise errors.RoundNotClosable(
            errors.RESULTS_MISSING,
            params={"number": round_.number, "tables": ", ".join(map(str, missing))},
        )
    round_.status = Round.Status.COMPLETE
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    tournament_id = round_.tournament_id
    transaction.on_commit(lambda: recompute_standings(tournament_id=tournament_id))
    if round_.kind == Round.Kind.FINAL:
        transaction.on_commit(lambda: crown_winner(tournament_id=tournament_id))
    return round_


def qualifiers(*, tournament: Tournament) -> list[Player]:
    """Who reaches the final: by the format (knock-out: table winners + best runners-up)."""
    recompute_standings(tournament_id=tournament.pk)
    count = tournament.finalists
    if tournament.format == Tournament.Format.TABLE_WINNERS:
        last = tournament.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("-number").first()
        rows = [
            row for row in result_rows(tournament, complete_rounds_only=True)
            if last is not None and row.round == last.number
        ]
        ids = table_winners_qualifiers(results=rows, seats=count)
    else:
        ids = list(
            StandingRow.objects.filter(tournament=tournament, scope=Scope.LIVE)
            .exclude(player__dropped_out=True)
            .order_by("position")
            .values_list("player_id", flat=True)[:count]
        )
    players = Player.objects.in_bulk(ids)
    return [players[pid] for pid in ids]


@transaction.atomic
def seat_final(*, tournament: Tournament, seed: int | None = None) -> Round:
    """Create the final round and seat the qualifiers (one table when they fit)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    final = tournament.rounds.filter(kind=Round.Kind.FINAL).first()
    if final is not None:
        raise errors.FinalNotPossible(errors.FINAL_EXISTS, params={"number": final.number})
    open_round = tournament.rounds.exclude(status=Round.Status.COMPLETE).order_by("number").first()
    if open_round is not None:
        raise errors.FinalNotPossible(errors.PRELIMINARIES_OPEN, params={"number": open_round.number})
    chosen = qualifiers(tournament=tournament)
    if len(chosen) < min(2, tournament.finalists):
        raise errors.FinalNotPossible(
            errors.TOO_FEW_QUALIFIERS, params={"count": len(chosen), "needed": tournament.finalists}
        )
    final = tournament_services.create_round(tournament=tournament, kind=Round.Kind.FINAL)
    tournament_services.seat_round(round_=final, players=chosen, seed=seed, seconds=2.0)
    return final


def crown_winner(*, tournament_id: int) -> Player | None:
    """After the final is closed: the winner is the first of the standings."""
    recompute_standings(tournament_id=tournament_id)
    first = (
        StandingRow.objects.filter(tournament_id=tournament_id, scope=Scope.LIVE)
        .order_by("position")
        .values_list("player_id", flat=True)
        .first()
    )
    if first is None:
        return None
    Tournament.objects.filter(pk=tournament_id).update(
        winner_id=first, status=Tournament.Status.FINISHED
    )
    return Player.objects.get(pk=first)

