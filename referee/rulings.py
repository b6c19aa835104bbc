"""The head referee's rulings: rule on a dispute, amend the counted figures, reopen a confirmed
result, give a table extra minutes, delay a round's start. Every ruling locks its row, needs a
reason, and is recorded in the audit log (``tournament.audit``) as one staff action.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from config.inputs import whole_amount
from referee import changes, engine_cache, errors, results, services
from referee.models import Game, GameResult
from tournament import audit
from tournament.models import Round, Seat, Table, Tournament
from tournament.rounds import services as tournament_services


def _locked(game_id: int) -> tuple[Game, GameResult | None]:
    # The rows locked as ever (game, table, round); the tournament comes along for the steps
    # after commit (``changes``).
    game = (
        Game.objects.select_for_update(of=("self", "table", "table__round"))
        .select_related("table__round__tournament").get(pk=game_id)
    )
    return game, GameResult.objects.filter(game=game).first()


def _locked_unconfirmed(game_id: int, *, confirmed_message) -> tuple[Game, GameResult]:
    """The game and its counted (or disputed) result, locked; a ruling on a result that is not
    counted yet or already confirmed is refused (``confirmed_message`` says why)."""
    game, result = _locked(game_id)
    if result is None:
        raise errors.ResultNotReady(errors.RESULT_NOT_COUNTED)
    if result.status == GameResult.Status.CONFIRMED:
        raise errors.ResultConfirmed(confirmed_message, params={"table": game.table.number})
    return game, result


def _reason(text: str | None) -> str:
    reason = (text or "").strip()
    if not reason:
        raise errors.ReasonRequired(errors.REASON_REQUIRED)
    return reason


def resolve_dispute(
    *, game_id: int, note: str, by: User | None, revision: int, now: dt.datetime | None = None
) -> GameResult:
    """Confirm a counted or disputed result as head referee; a dispute needs the ruling's note.
    Refused when the result changed since ``revision`` (the page the ruling was made on)."""
    note = (note or "").strip()
    with transaction.atomic():
        game, result = _locked_unconfirmed(game_id, confirmed_message=errors.ALREADY_CONFIRMED)
        if result.status == GameResult.Status.DISPUTED and not note:
            raise errors.ReasonRequired(errors.RULING_REQUIRED, code="ruling_required")
        results.check_revision(game, result, revision)
        tournament_id = game.table.round.tournament_id
        with audit.action(tournament=tournament_id, actor=by, what="result.resolve", reason=note):
            # the note is saved with the confirmation: one entry, one line in the history
            result = results.confirm_result(
                game_id=game.pk, code=None, by=by, head_referee=True, ruling=note,
                revision=result.revision, now=now,
            )
    return result


def _check_not_settled(game: Game) -> None:
    """Refuse reopening what the crowning or a seated final rests on (``reopen_refusal``).
    The tournament's row is locked, so a crowning or a seating waits for this ruling."""
    tournament = Tournament.objects.select_for_update().get(pk=game.table.round.tournament_id)
    refusal = reopen_refusal(game, tournament=tournament)
    if refusal is not None:
        raise refusal


def reopen_refusal(game: Game, *, tournament: Tournament | None = None
                   ) -> errors.ResultSettled | None:
    """Why a confirmed result is not reopened, or None: a result the crowning rests on (any,
    once the tournament is finished), or a preliminary one the seated final rests on — with
    what to do instead. The one check the ruling raises and the result page shows in place
    of its "Reopen" form."""
    round_ = game.table.round
    tournament = tournament or round_.tournament
    params = {"table": game.table.number, "number": round_.number}
    if tournament.status == Tournament.Status.FINISHED:
        return errors.ResultSettled(
            errors.FINAL_CROWNED if round_.kind == Round.Kind.FINAL
            else errors.PRELIMINARY_CROWNED, params=params)
    if round_.kind != Round.Kind.PRELIMINARY:
        return None
    final = (Round.objects.filter(tournament=tournament, kind=Round.Kind.FINAL)
             .values_list("number", flat=True).first())
    if final is not None:
        return errors.ResultSettled(errors.PRELIMINARY_FINAL_SEATED,
                                    params={**params, "final": final})
    return None


def reopen_result(*, game_id: int, reason: str, by: User | None, revision: int) -> GameResult:
    """Take back a confirmation: the result awaits a new confirmation (code or a second person),
    and the console may correct the game meanwhile."""
    reason = _reason(reason)
    with transaction.atomic():
        game, result = _locked(game_id)
        if result is None or result.status != GameResult.Status.CONFIRMED:
            raise errors.ResultNotReady(errors.NOT_CONFIRMED, params={"table": game.table.number})
        results.check_revision(game, result, revision)
        _check_not_settled(game)
        tournament_id = game.table.round.tournament_id
        with audit.action(tournament=tournament_id, actor=by, what="result.reopen", reason=reason):
            result.status = GameResult.Status.COUNTED
            result.confirmed_at = None
            result.confirmed_by = None
            result.confirmed_via = ""
            result.resolved_note = reason
            result.reopened_at = timezone.now()
            result.reopened_by = by
            result.revision += 1
            result.save()
    results.result_changed(game, kind=changes.Kind.REOPENED)
    return result


def amended_places(rows: dict[int, tuple[bool, int, int]]) -> dict[int, int]:
    """Places from the figures, as the engine counts them (``rules.standings``): those still in
    by net worth (equal worth shares a place: 1, 1, 3), then the bankrupt ones in the order of
    their bankruptcies, which an amendment does not change (``rows``: player → (bankrupt,
    net worth, counted place))."""
    standing = sorted((p for p, (out, _w, _pl) in rows.items() if not out),
                      key=lambda p: (-rows[p][1], rows[p][2]))
    places: dict[int, int] = {}
    previous: int | None = None
    place = 0
    for position, player in enumerate(standing, start=1):
        if rows[player][1] != previous:
            place, previous = position, rows[player][1]
        places[player] = place
    gone = sorted((p for p, (out, _w, _pl) in rows.items() if out), key=lambda p: rows[p][2])
    for player in gone:
        places[player] = len(places) + 1
    return places


def amend_result(
    *, game_id: int, figures: dict[int, dict[str, Any]], reason: str, by: User | None,
    revision: int,
) -> GameResult:
    """Correct the counted net worth of players with a reason; the places follow from the
    figures, the same way the engine places a count, so the standings can never give more
    points to a smaller net worth. ``figures`` maps player id → {"net_worth": int, "place":
    int or blank}; a place that is given must be the one the figures give (else refused, with
    the reason). The result stays unconfirmed: a second person confirms the amended count.
    Refused when the result changed since ``revision`` (the figures the form showed)."""
    reason = _reason(reason)
    with transaction.atomic():
        game, result = _locked_unconfirmed(game_id, confirmed_message=errors.RESULT_CONFIRMED)
        results.check_revision(game, result, revision)
        placements = {p.player_id: p for p in
                      result.placements.select_for_update().select_related("player")}
        count = len(placements)
        try:
            typed = {
                int(pid): (whole_amount(v.get("place")), whole_amount(v["net_worth"]))
                for pid, v in figures.items()
            }
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise errors.BadAmendment(errors.BAD_AMENDMENT, params={"count": count}) from exc
        if (
            set(typed) != set(placements)
            or any(worth is None or abs(worth) > 10**9 for _place, worth in typed.values())
            or any(place is not None and not 1 <= place <= count for place, _w in typed.values())
        ):
            raise errors.BadAmendment(errors.BAD_AMENDMENT, params={"count": count})
        for player_id, (_place, worth) in typed.items():
            placement = placements[player_id]
            if placement.bankrupt and worth != placement.net_worth:
                raise errors.BadAmendment(errors.AMEND_BANKRUPT,
                                          params={"player": placement.player.name})
        computed = amended_places({
            pid: (placements[pid].bankrupt, int(worth or 0), placements[pid].place)
            for pid, (_place, worth) in typed.items()
        })
        for player_id, (place, worth) in typed.items():
            if place is not None and place != computed[player_id]:
                raise errors.BadAmendment(errors.AMEND_PLACE, params={
                    "player": placements[player_id].player.name, "worth": worth,
                    "computed": computed[player_id], "given": place,
                })
        tournament_id = game.table.round.tournament_id
        with audit.action(tournament=tournament_id, actor=by, what="result.amend", reason=reason):
            for player_id, (_place, worth) in typed.items():
                placement = placements[player_id]
                place = computed[player_id]
                if (placement.place, placement.net_worth) != (place, worth):
                    counted = placement.breakdown.get("counted_net_worth", placement.net_worth)
                    placement.place, placement.net_worth = place, int(worth or 0)
                    placement.breakdown = {**placement.breakdown, "amended": True,
                                           "counted_net_worth": counted}
                    placement.save()
            result.resolved_note = reason
            result.counted_at = timezone.now()
            result.revision += 1
            result.save()
    results.result_changed(game, kind=changes.Kind.AMENDED)
    return result


MAX_EXTRA_MINUTES = 120


def extra_time(*, game_id: int, minutes: int, reason: str, by: User | None) -> Game:
    """Give one table extra minutes: its auction stop (if still ahead) and time limit move.

    The minutes go into the game's ruleset overrides, so the engine, the deadlines, the clock
    on the console and public pages, and an exported record all agree.
    """
    reason = _reason(reason)
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_EXTRA_MINUTES:
        raise errors.BadAmendment(errors.BAD_EXTRA_MINUTES, params={"maximum": MAX_EXTRA_MINUTES})
    with transaction.atomic():
        game, result = _locked(game_id)
        if game.status == Game.Status.FINISHED or result is not None:
            raise errors.GameNotReady(errors.GAME_ENDED_NO_TIME, params={"table": game.table.number})
        engine = engine_cache.engine_for(game)
        before = dict(game.overrides)
        overrides = dict(game.overrides)
        if engine.ruleset.time_limit_minutes:
            overrides["time_limit_minutes"] = engine.ruleset.time_limit_minutes + minutes
        if engine.ruleset.auction_stop_minute and not engine.state.auction_stop:
            overrides["auction_stop_minute"] = engine.ruleset.auction_stop_minute + minutes
        game.overrides = overrides
        game.extra_minutes += minutes
        engine_cache.forget(game.pk)
        services.plan_deadlines(game, engine_cache.engine_for(game))
        game.save()
        audit.note(
            tournament=game.table.round.tournament_id, actor=by, what="time.extra",
            reason=reason, obj=game.table,
            changes={"extra_minutes": [game.extra_minutes - minutes, game.extra_minutes],
                     "overrides": [str(before), str(overrides)]},
        )
    services.times_changed(game)
    return game


def delay_round_start(*, round_id: int, minutes: int, reason: str, by: User | None) -> Round:
    """A delayed start for the whole round: the round's start moves (the desk's "not started"
    alert and the public pages follow); the tables' clocks start with their own start."""
    reason = _reason(reason)
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_EXTRA_MINUTES:
        raise errors.BadAmendment(errors.BAD_EXTRA_MINUTES, params={"maximum": MAX_EXTRA_MINUTES})
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.status != Round.Status.RUNNING:  # start_round would overwrite the delay
            raise errors.RoundNotRunning(errors.DELAY_NOT_RUNNING,
                                         params={"number": round_.number})
        start = round_.started_at or timezone.now()
        with audit.action(tournament=round_.tournament_id, actor=by, what="time.delay",
                          reason=reason):
            round_.started_at = start + dt.timedelta(minutes=minutes)
            round_.save(update_fields=["started_at"])
    return round_


def move_player(
    *, round_id: int, player_id: int, to_table: int, reason: str, by: User | None
) -> Round:
    """The head referee moves a player to another table, also once the round is locked or
    running (a latecomer, a missing player), with a reason for the audit log. Refused once
    either table's game has begun (its record names its players) or has a result."""
    reason = _reason(reason)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        seat = Seat.objects.filter(round=round_, player_id=player_id).first()
        target = Table.objects.filter(round=round_, number=to_table).first()
        tables = [t for t in (seat.table_id if seat else None, target.pk if target else None) if t]
        _refuse_begun_games(tables)
        with audit.action(tournament=round_.tournament_id, actor=by, what="seat.move",
                          reason=reason):
            round_ = tournament_services.move_player_with_ruling(
                round_=round_, player=player_id, to_table=to_table
            )
        _follow_seating(tables)
    return round_


def swap_players(*, round_id: int, a: int, b: int, reason: str, by: User | None) -> Round:
    """The head referee exchanges two players' seats (a latecomer's friend, a club-mate pair):
    at full tables the move cannot succeed, the swap keeps every table's size. Refused once
    either table's game has begun or has a result; the reason goes to the audit log."""
    reason = _reason(reason)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        tables = list(Seat.objects.filter(round=round_, player_id__in=[a, b])
                      .values_list("table_id", flat=True))
        _refuse_begun_games(tables)
        with audit.action(tournament=round_.tournament_id, actor=by, what="seat.swap",
                          reason=reason):
            round_ = tournament_services.swap_players_with_ruling(round_=round_, a=a, b=b)
        _follow_seating(tables)
    return round_


def _refuse_begun_games(table_ids: list[int]) -> None:
    """A game's record names its players: no seat changes at a table whose game has begun."""
    for game in Game.objects.select_for_update().filter(table_id__in=table_ids).select_related(
        "table"
    ):
        if game.event_count or GameResult.objects.filter(game=game).exists():
            raise errors.GameBegun(errors.MOVE_GAME_BEGUN, params={"table": game.table.number})


def _follow_seating(table_ids: list[int]) -> None:
    for table in Table.objects.filter(pk__in=table_ids):
        if Game.objects.filter(table=table).exists():
            services.ensure_game(table=table)  # an untouched game follows the new seating
