"""The organizer's round desk: every table of the running round at a glance, the alerts that
need someone to walk over, closing the round, seating the final, the head referee's rulings on
disputed results, and the tournament's export and import.

Thin views: the reads are in :func:`desk`, the writes are scoring, referee and exchange
services; domain errors are rendered by ``config.middleware.DomainErrorMiddleware``.
The live part of the page is one fragment the browser polls every 5 s (htmx); clocks tick in
the browser between polls. The fragment costs the same number of queries for 2 or 60 tables.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.errors import DomainError
from config.inputs import clean_note, posted_revision
from desk import rounds as round_writes
from desk.rulings import result_response
from referee import results, rulings
from referee import selectors as referee_selectors
from referee.models import Game, GameResult, Placement
from referee.rules import get_ruleset
from scoring.models import StandingRow
from scoring.standings import selectors as standings
from tournament import access
from tournament import tournaments as tournament_settings
from tournament.access import Action
from tournament.models import (
    Round,
    Seat,
    Table,
    Tournament,
)

#: A running game whose banker has not been heard of for longer than this needs a look.
BANKER_OFFLINE_AFTER = dt.timedelta(minutes=2)
# Not while someone writes a ruling: static/js/desk.js cancels the poll then (a trigger filter
# would need eval, which the Content-Security-Policy forbids).
POLL = "every 5s"


#: The desk's words for a table's state: the public name, and what the staff see besides
#: (``referee.selectors``: one name per state for every page).
STATE_LABELS = referee_selectors.STAFF_STATE_LABELS


# --------------------------------------------------------------------------- permissions


# Every page here asks tournament.access (one module decides permissions).


# --------------------------------------------------------------------------- reads


@dataclass
class Alert:
    kind: str  # no_result / time_up / disputed / banker_offline
    table: int
    minutes: int | None = None
    note: str = ""
    game_id: int | None = None
    note_label: str = ""
    revision: int = 0  # the result's, which the ruling form carries (a stale form is refused)


@dataclass
class TableLine:
    table: Table
    game: Game | None
    result: GameResult | None
    state: str
    players: list[str]
    seconds: float | None
    running: bool
    alerts: list[Alert] = field(default_factory=list)
    #: This game's own auction stop and time limit (seconds of game time; 0: none): what it
    #: started with plus the head referee's extra minutes, not today's tournament setting.
    auction_stop_seconds: int = 0
    time_limit_seconds: int = 0
    #: What the result's head-referee note is (a ruling, a reason, the paper's note)
    note_label: str = ""

    @property
    def state_label(self) -> Any:
        return STATE_LABELS[self.state]

    @property
    def needs_attention(self) -> bool:
        return bool(self.alerts)


@functools.lru_cache(maxsize=256)
def _ruleset_times(ruleset: str, overrides: str) -> tuple[int, int]:
    try:
        rules = get_ruleset(ruleset).with_overrides(json.loads(overrides))
    except (KeyError, ValueError):
        return 0, 0
    return (rules.auction_stop_minute or 0) * 60, (rules.time_limit_minutes or 0) * 60


def game_times(game: Game | None, tournament_times: tuple[int, int]) -> tuple[int, int]:
    """(auction stop, time limit) in seconds of game time for this table's game. A game that
    has begun (or got extra minutes) keeps the times it was created with; one not begun yet
    takes the tournament's times when its first event is posted, so those are shown."""
    if game is None or (not game.event_count and not game.extra_minutes):
        return tournament_times
    return _ruleset_times(game.ruleset, json.dumps(game.overrides or {}, sort_keys=True))


def _playing(game: Game | None) -> bool:
    """The clock runs: started (the deal counts as play), not paused, not ended."""
    return bool(
        game is not None and game.started_at is not None and game.paused_at is None
        and game.status != Game.Status.FINISHED
    )


#: A table whose game has not started this long after the round began needs someone.
NOT_STARTED_AFTER = dt.timedelta(minutes=5)


def table_alerts(
    table: Table, game: Game | None, result: GameResult | None, now, *,
    round_started_at: dt.datetime | None = None,
) -> list[Alert]:
    if result is None and (
        game is None or (game.started_at is None and game.status != Game.Status.FINISHED)
    ):
        # A table with a result (a paper sheet entered, its game never started on a console)
        # has not "not started": only its result's own alerts are left.
        if round_started_at is not None and now - round_started_at >= NOT_STARTED_AFTER:
            minutes = int((now - round_started_at).total_seconds() // 60)
            return [Alert("not_started", table.number, minutes=minutes,
                          game_id=game.pk if game else None)]
        return []
    if game is None:
        return []
    alerts = []
    if result is None and game.status == Game.Status.FINISHED:
        alerts.append(Alert("no_result", table.number, game_id=game.pk))
    elif result is None and game.time_up_due is not None and game.time_up_due <= now:
        alerts.append(Alert("time_up", table.number, game_id=game.pk))
    if result is not None and result.status == GameResult.Status.DISPUTED:
        alerts.append(Alert(
            "disputed", table.number, note=result.dispute_note, game_id=game.pk,
            note_label=referee_selectors.dispute_note_label(result, table.banker_id),
            revision=result.revision,
        ))
    if _playing(game):
        seen = game.banker_seen_at
        if seen is None or now - seen > BANKER_OFFLINE_AFTER:
            minutes = int((now - seen).total_seconds() // 60) if seen else None
            alerts.append(Alert("banker_offline", table.number, minutes=minutes, game_id=game.pk))
    return alerts


ALERT_ORDER = {"disputed": 0, "no_result": 1, "time_up": 2, "not_started": 3, "banker_offline": 4}


def _table_lines(
    current: Round, tournament_times: tuple[int, int], now: dt.datetime
) -> list[TableLine]:
    """One line per table of the round: state, players, clock, alerts, the game's times."""
    lines: list[TableLine] = []
    seats = Seat.objects.select_related("player__club").order_by("position")
    tables = (
        Table.objects.filter(round=current)
        .select_related("banker", "game", "game__result", "game__result__disputed_by")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    for table in tables:
        game = getattr(table, "game", None)
        result = referee_selectors.result_of(game)
        state = referee_selectors.table_state(game, result)  # the finest word: the staff's
        stop_seconds, limit_seconds = game_times(game, tournament_times)
        lines.append(
            TableLine(
                table=table,
                game=game,
                result=result,
                state=state,
                players=[seat.player.name for seat in table.seats.all()],
                seconds=game.game_seconds(now) if game else None,
                running=_playing(game),
                alerts=table_alerts(
                    table, game, result, now,
                    round_started_at=(
                        current.started_at if current.status == Round.Status.RUNNING else None
                    ),
                ),
                auction_stop_seconds=stop_seconds,
                time_limit_seconds=limit_seconds,
            )
        )
    _name_notes(lines)
    return lines


def _name_notes(lines: list[TableLine]) -> None:
    """Each result note named by what it is (``results.note_label``); the amended figures of
    the results with a note read in one query."""
    noted = [line for line in lines if line.result is not None and line.result.resolved_note]
    if not noted:
        return
    amended = set(Placement.objects.filter(
        result_id__in=[line.result.pk for line in noted], breakdown__amended=True,
    ).values_list("result_id", flat=True))
    for line in noted:
        line.note_label = results.note_label(line.result, amended=line.result.pk in amended)


def _state_counts(lines: list[TableLine]) -> list[tuple[Any, str, int]]:
    """(label, state, how many tables) of each state some table is in, in the states' order."""
    counts: dict[str, int] = {}
    for line in lines:
        counts[line.state] = counts.get(line.state, 0) + 1
    return [(STATE_LABELS[state], state, counts[state]) for state in STATE_LABELS
            if state in counts]


def _qualifiers(tournament: Tournament) -> list[StandingRow]:
    """The players the live standings qualify for the final, in their order."""
    return standings.qualifiers(tournament)


def desk(tournament: Tournament, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """Everything the desk shows; a fixed number of queries whatever the number of tables."""
    now = now or timezone.now()
    rounds = list(tournament.rounds.order_by("number"))
    current = next((r for r in reversed(rounds) if r.status != Round.Status.DRAFT), None)
    draft = next((r for r in rounds if r.status == Round.Status.DRAFT), None)
    times = tournament_settings.effective_times(tournament)
    tournament_times = ((times["auction_stop_minutes"] or 0) * 60,
                        (times["time_limit_minutes"] or 0) * 60)
    lines = _table_lines(current, tournament_times, now) if current is not None else []
    alerts = sorted(
        (alert for line in lines for alert in line.alerts),
        key=lambda alert: (ALERT_ORDER[alert.kind], alert.table),
    )
    missing = [line.table.number for line in lines if line.state != "confirmed"]
    open_round = next((r for r in rounds if r.status != Round.Status.COMPLETE), None)
    final = next((r for r in rounds if r.kind == Round.Kind.FINAL), None)
    preliminaries = [
        r for r in rounds if r.kind == Round.Kind.PRELIMINARY and r.status == Round.Status.COMPLETE
    ]
    running_tournament = tournament.status == Tournament.Status.RUNNING
    can_seat_final = (
        running_tournament and final is None and open_round is None and bool(preliminaries)
    )
    closed = len(preliminaries)
    return {
        "round": current,
        "draft": draft,
        "lines": lines,
        "alerts": alerts,
        "counts": _state_counts(lines),
        "missing": missing,
        "closable": bool(
            current is not None and current.status == Round.Status.RUNNING and lines
            and not missing
        ),
        "can_create_round": (
            running_tournament and open_round is None and final is None
            and len(preliminaries) < tournament.preliminary_rounds
        ),
        "next_number": (rounds[-1].number + 1) if rounds else 1,
        "can_seat_final": can_seat_final,
        # Fewer preliminary rounds closed than set: seating the final needs a tick.
        "final_early": closed < tournament.preliminary_rounds,
        "preliminaries_closed": closed,
        # Seated, locked or running, and no game begun: it can be seated again or deleted.
        "undoable": bool(
            current is not None and current.status != Round.Status.COMPLETE
            and not any(line.game is not None and (line.game.event_count or line.result)
                        for line in lines)
        ),
        # The head referee's swap: the players of the tables whose games have not begun.
        "swap_choices": _swap_choices(current, lines),
        "qualifiers": _qualifiers(tournament) if can_seat_final else [],
        # Preliminary tables whose result is not confirmed (reopened after its round closed):
        # the final waits for them (``rounds.seat_final`` refuses, naming them too).
        "final_waits_for": (
            round_writes.unconfirmed_preliminaries(tournament) if can_seat_final else []
        ),
        "final": final,
        # The tournament's setting: for games that begin from now on (each line has its own).
        "time_limit_seconds": tournament_times[1],
        "auction_stop_seconds": tournament_times[0],
        "now": now,
    }


def _swap_choices(current: Round | None, lines: list[TableLine]) -> list[dict[str, Any]]:
    """(player id, table number, name) of every player at an untouched table, when at least
    two tables are untouched; empty otherwise (nothing to swap)."""
    if current is None or current.status == Round.Status.COMPLETE:
        return []
    untouched = [line for line in lines if line.result is None
                 and not (line.game is not None and line.game.event_count)]
    if len(untouched) < 2:
        return []
    return [{"id": seat.player_id, "table": line.table.number, "name": seat.player.name}
            for line in untouched for seat in line.table.seats.all()]


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("winner__club"), slug=slug)


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "desk": desk(tournament),
        "manage": access.can(request.user, Action.ROUNDS, tournament),
        "resolve": access.can(request.user, Action.RULE, tournament),
        "may_import": access.may_create_tournaments(request.user),
        "poll": POLL,
    }


# --------------------------------------------------------------------------- pages


@access.require(Action.DESK)
@require_GET
@never_cache
def desk_page(request: HttpRequest, slug: str, *, fragment: bool = False) -> HttpResponse:
    """The round desk; with ``fragment`` (its own URL) only the polled part: tables, alerts and
    the round's actions."""
    template = "desk/_live.html" if fragment else "desk/desk.html"
    return render(request, template, _context(request, _tournament(slug)))


def _desk_url(slug: str) -> str:
    return reverse("round_desk:desk", args=[slug])


@access.require(Action.ROUNDS)
@require_POST
def close_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    round_writes.close_round(round_=round_)
    if round_.kind == Round.Kind.FINAL:
        text = _("The final is closed; the champion is crowned.")
    else:
        text = _("Round %(number)s is closed; the standings follow.") % {"number": number}
    messages.success(request, text)
    return redirect(_desk_url(slug))


class SeedForm(forms.Form):
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**32 - 1)
    early = forms.BooleanField(required=False)


@access.require(Action.ROUNDS)
@require_POST
def reopen_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Undo a close (and a crowning) until the next round has been seated."""
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    round_writes.reopen_round(round_=round_, reason=clean_note(request.POST.get("reason")),
                        by=request.user)
    messages.success(request, _("Round %(number)s is running again.") % {"number": number})
    return redirect(_desk_url(slug))


@access.require(Action.ROUNDS)
@require_POST
def seat_final(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = SeedForm(request.POST)
    valid = form.is_valid()
    seed = form.cleaned_data["seed"] if valid else None
    early = bool(form.cleaned_data["early"]) if valid else False
    final = round_writes.seat_final(tournament=tournament, seed=seed, early=early,
                                    by=request.user)
    messages.success(
        request,
        _("The final (round %(number)s) is seated with %(count)s players: assign its banker, "
          "lock and start it.") % {"number": final.number, "count": final.seats.count()},
    )
    return redirect(reverse("organizer:round", args=[slug, final.number]))


@access.require(Action.RULE)
@require_POST
def resolve_result(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """The head referee's ruling: confirm a disputed (or counted) result with a note."""
    game = get_object_or_404(
        Game.objects.select_related("table"), pk=game_id, table__round__tournament__slug=slug
    )
    note = clean_note(request.POST.get("note"))  # no NUL (PostgreSQL), at most 2000 characters
    try:
        rulings.resolve_dispute(game_id=game.pk, note=note, by=request.user,
                                revision=posted_revision(request))
    except DomainError as refused:
        # From the result page: back there, the refusal beside the ruling, the note kept. The
        # desk's inline forms get the refusal page.
        if request.POST.get("page") != "result" or not GameResult.objects.filter(
                game=game).exists():
            raise
        return result_response(request, game, refused=refused, form="resolve",
                               typed={"note": note})
    messages.success(
        request,
        _("The result of table %(table)s is confirmed by the head referee.")
        % {"table": game.table.number},
    )
    return redirect(_desk_url(slug))
