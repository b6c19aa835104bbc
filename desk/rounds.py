"""Closing a round, seating the final, crowning the winner: the round desk's writes that
depend on results and standings (drawing and seating rounds is ``tournament.services``)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from desk import errors
from referee import engine_cache
from referee import services as referee_services
from referee.models import Game, GameResult
from scoring import cache
from scoring.models import Scope
from scoring.standings import selectors as standings
from scoring.standings.services import finalists, recompute_standings
from scoring.standings.trigger import standings_changed
from tournament import audit
from tournament.models import (
    Player,
    Round,
    Table,
    Tournament,
)
from tournament.rounds import services as tournament_services
from tournament.wording import lazy_format, lazy_join


def _unconfirmed(tables) -> list[tuple[int, int]]:
    """(round, table) numbers of those tables without a confirmed result (a result reopened
    after its round closed counts as none), in round and table order."""
    confirmed = set(GameResult.objects.filter(
        game__table__in=tables, status=GameResult.Status.CONFIRMED,
    ).values_list("game__table_id", flat=True))
    return [(number, table) for pk, number, table in
            tables.order_by("round__number", "number").values_list("pk", "round__number", "number")
            if pk not in confirmed]


def missing_results(round_: Round) -> list[int]:
    """Numbers of the round's tables without a confirmed result."""
    return [table for _round, table in _unconfirmed(round_.tables.all())]


@transaction.atomic
def close_round(*, round_: Round) -> Round:
    """Close a running round once every table's result is confirmed; standings follow."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.RUNNING:
        raise errors.RoundNotClosable(
            errors.ROUND_NOT_RUNNING,
            params={"number": round_.number, "status": Round.Status(round_.status).label},
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
    """Who reaches the final: ``scoring``'s one rule (``finalists``), which the desk's list and
    the standings' mark show too."""
    ids = finalists(tournament)
    players = Player.objects.in_bulk(ids)
    return [players[pid] for pid in ids]


def unconfirmed_preliminaries(tournament: Tournament) -> list[tuple[int, int]]:
    """(round, table) of every preliminary table without a confirmed result: a result reopened
    after its round closed too (it does not count, so the final would be seated without it)."""
    return _unconfirmed(Table.objects.filter(round__tournament=tournament,
                                             round__kind=Round.Kind.PRELIMINARY))


def _check_confirmed(tournament: Tournament) -> None:
    """The final is seated only from confirmed results: refused, naming the tables, while one
    is reopened (or not confirmed yet)."""
    open_tables = unconfirmed_preliminaries(tournament)
    if open_tables:
        raise errors.FinalNotPossible(
            errors.RESULTS_NOT_CONFIRMED, code="results_not_confirmed", http_status=409,
            params={"tables": lazy_join(
                [lazy_format(errors.ROUND_TABLE, {"round": number, "table": table})
                 for number, table in open_tables], ", ")},
        )


def preliminaries_closed(tournament: Tournament) -> int:
    """How many preliminary rounds are closed (the final may follow the tournament's
    ``preliminary_rounds`` of them)."""
    return tournament.rounds.filter(
        kind=Round.Kind.PRELIMINARY, status=Round.Status.COMPLETE
    ).count()


def final_is_early(tournament: Tournament) -> bool:
    """Fewer preliminary rounds closed than the tournament is set to play."""
    return preliminaries_closed(tournament) < tournament.preliminary_rounds


def _check_early(tournament: Tournament, early: bool) -> None:
    """Seating the final before every planned preliminary round is played is allowed, but only
    on purpose: ``early`` says the organizer ticked it."""
    closed = preliminaries_closed(tournament)
    if closed < tournament.preliminary_rounds and not early:
        raise errors.FinalNotPossible(
            errors.FINAL_EARLY, code="final_early", http_status=409,
            params={"closed": closed, "configured": tournament.preliminary_rounds},
        )


def _finalists(tournament: Tournament) -> list[Player]:
    chosen = qualifiers(tournament=tournament)
    if len(chosen) < min(2, tournament.finalists):
        raise errors.FinalNotPossible(
            errors.TOO_FEW_QUALIFIERS, params={"count": len(chosen), "needed": tournament.finalists}
        )
    return chosen


@transaction.atomic
def seat_final(
    *, tournament: Tournament, seed: int | None = None, early: bool = False,
    by: User | None = None,
) -> Round:
    """Create the final round and seat the qualifiers (one table when they fit); before every
    planned preliminary round is closed only with ``early``."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    final = tournament.rounds.filter(kind=Round.Kind.FINAL).first()
    if final is not None:
        raise errors.FinalNotPossible(errors.FINAL_EXISTS, params={"number": final.number})
    open_round = tournament.rounds.exclude(status=Round.Status.COMPLETE).order_by("number").first()
    if open_round is not None:
        raise errors.FinalNotPossible(errors.PRELIMINARIES_OPEN, params={"number": open_round.number})
    _check_early(tournament, early)
    _check_confirmed(tournament)
    chosen = _finalists(tournament)
    reason = _("seated early") if final_is_early(tournament) else ""
    with audit.action(tournament=tournament.pk, actor=by, what="final.seat", reason=str(reason)):
        final = tournament_services.create_round(tournament=tournament, kind=Round.Kind.FINAL)
        tournament_services.seat_round(round_=final, players=chosen, seed=seed, seconds=2.0)
    return final


# --------------------------------------------------------------- undoing a seated round


def begun_tables(round_: Round) -> list[int]:
    """Numbers of the round's tables whose game has begun: an event recorded, or a result
    (also one from the paper sheet). Such a round keeps its seating: the records name their
    players."""
    return sorted(set(
        Game.objects.filter(table__round=round_)
        .filter(Q(event_count__gt=0) | Q(result__isnull=False))
        .values_list("table__number", flat=True)
    ))


def _lock_unbegun(round_: Round) -> Round:
    """The round under its row lock, its games locked too (a first event waits for us and then
    finds the round changed), refused once one of them has begun."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    list(Game.objects.select_for_update(of=("self",)).filter(table__round=round_)
         .values_list("pk"))
    begun = begun_tables(round_)
    if begun:
        raise errors.RoundBegun(
            errors.ROUND_BEGUN,
            params={"number": round_.number, "tables": ", ".join(map(str, begun))},
        )
    return round_


@transaction.atomic
def reseat_round(
    *, round_: Round, by: User | None = None, seed: int | None = None,
    min_size: int | None = None, early: bool = False, reason: str = "",
) -> tournament_services.SeatingOutcome:
    """Seat a round again whose games have not begun (also once it is locked or running: it
    goes back to seated, to be locked and started again). A final is seated from the
    qualifiers only, the same selection as :func:`seat_final`; a preliminary round from every
    checked-in player. Untouched games follow their table's new seating."""
    round_ = _lock_unbegun(round_)
    tournament = round_.tournament
    players = None
    if round_.kind == Round.Kind.FINAL:
        _check_early(tournament, early)
        _check_confirmed(tournament)
        players = _finalists(tournament)
    with audit.action(tournament=tournament.pk, actor=by, what="round.reseat", reason=reason):
        tournament_services.back_to_seated(round_=round_)
        outcome = tournament_services.seat_round(
            round_=round_, players=players, seed=seed, min_size=min_size,
            seconds=2.0 if players is not None else 5.0,
        )
    for table in Table.objects.filter(round=round_, game__isnull=False):
        referee_services.ensure_game(table=table)
    return outcome


@transaction.atomic
def delete_round(*, round_: Round, by: User | None = None, reason: str = "") -> int:
    """Delete a round whose games have not begun (a final seated too early, a round created by
    mistake): its tables, seats, banker links and untouched games go. Returns its number."""
    round_ = _lock_unbegun(round_)
    slug = round_.tournament.slug
    games = list(Game.objects.filter(table__round=round_).values_list("pk", flat=True))
    with audit.action(tournament=round_.tournament_id, actor=by, what="round.delete",
                      reason=reason):
        number = tournament_services.delete_round(round_=round_)

    def after() -> None:
        cache.invalidate(slug)  # a deletion saves no round row (the receivers' cue)
        for pk in games:  # SQLite may hand a deleted row's key to the next game
            engine_cache.forget(pk)

    transaction.on_commit(after)
    return number


def crown_winner(*, tournament_id: int) -> Player | None:
    """After the final is closed: the winner is the first of the standings."""
    recompute_standings(tournament_id=tournament_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    rows = standings.placed_rows(tournament, scope=Scope.LIVE)
    if not rows:
        return None
    first = rows[0].player_id
    with audit.action(tournament=tournament_id, actor=None, what="crown"):
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
