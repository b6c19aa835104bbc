"""Closing a round, seating the final, crowning the winner: the round desk's writes that
depend on results and standings (drawing and seating rounds is ``tournament.services``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from referee.models import GameResult
from scoring import errors
from scoring.models import Scope, StandingRow
from scoring.standings.compute import table_winners_qualifiers
from scoring.standings.services import recompute_standings, result_rows
from scoring.standings.trigger import standings_changed
from tournament import audit
from tournament import services as tournament_services
from tournament.models import Player, Round, Tournament


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
    with audit.action(tournament=round_.tournament_id, actor=None, what="round.close"):
        round_.status = Round.Status.COMPLETE
        round_.closed_at = timezone.now()
        round_.save(update_fields=["status", "closed_at"])
    tournament_id = round_.tournament_id
    standings_changed(tournament_id=tournament_id)
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
    with audit.action(tournament=tournament_id, actor=None, what="crown"):
        tournament = Tournament.objects.get(pk=tournament_id)
        tournament.winner_id, tournament.status = first, Tournament.Status.FINISHED
        tournament.save(update_fields=["winner", "status"])  # saved, so the audit log has it
    return Player.objects.get(pk=first)


@transaction.atomic
def reopen_round(*, round_: Round, reason: str, by=None) -> Round:
    """Undo a close (and the crowning after a final) until the next round has been seated."""
    reason = (reason or "").strip()
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.COMPLETE:
        raise errors.RoundNotClosable(
            errors.ROUND_NOT_COMPLETE, params={"number": round_.number}
        )
    later = Round.objects.filter(tournament=round_.tournament, number__gt=round_.number).exclude(
        status=Round.Status.DRAFT
    )
    if later.exists():
        raise errors.RoundNotClosable(errors.NEXT_ROUND_SEATED, params={"number": round_.number})
    if not reason:
        raise errors.RoundNotClosable(errors.REOPEN_REASON, code="reason_required",
                                      http_status=400)
    with audit.action(tournament=round_.tournament_id, actor=by, what="round.reopen",
                      reason=reason):
        round_.status = Round.Status.RUNNING
        round_.closed_at = None
        round_.save(update_fields=["status", "closed_at"])
        if round_.kind == Round.Kind.FINAL:
            audit.note(tournament=round_.tournament_id, actor=by, what="crown.undo",
                       reason=reason)
            tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
            tournament.winner = None
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["winner", "status"])
    standings_changed(tournament_id=round_.tournament_id)
    return round_
