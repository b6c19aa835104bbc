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
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from config.errors import Conflict, DomainError, PermissionDenied
from config.inputs import clean_note
from referee import errors as referee_errors
from referee import services as referee_services
from referee.models import Game, GameResult
from tournament import roles
from tournament import tournaments as tournament_settings
from tournament.models import Round, Seat, Table, Tournament

from . import exchange, services
from .models import Scope, StandingRow

#: A running game whose banker has not been heard of for longer than this needs a look.
BANKER_OFFLINE_AFTER = dt.timedelta(minutes=2)
POLL = "every 5s [window.deskIdle ? window.deskIdle() : true]"

NOT_ALLOWED = gettext_lazy("Only organizers may do this.")
NOT_ALLOWED_REFEREE = gettext_lazy("Only the head referee or an organizer may do this.")
ALREADY_CONFIRMED = gettext_lazy("The result of table %(table)s is already confirmed.")
RULING_REQUIRED = gettext_lazy(
    "Write down the ruling: a disputed result is confirmed only with the head referee's note."
)

STATE_LABELS = {
    "not_started": gettext_lazy("Not started"),
    "running": gettext_lazy("Running"),
    "paused": gettext_lazy("Paused"),
    "auction_stop": gettext_lazy("Auction stop done"),
    "final_round": gettext_lazy("Final round of turns"),
    "ended": gettext_lazy("Ended, no result counted"),
    "counted": gettext_lazy("Counted, awaiting confirmation"),
    "confirmed": gettext_lazy("Result confirmed"),
    "disputed": gettext_lazy("Disputed"),
}


# --------------------------------------------------------------------------- permissions


def _guard(check, message):
    """Anonymous visitors go to the login page; signed-in users without the role get a 403."""

    def decorator(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            if not request.user.is_authenticated:
                login = redirect_to_login(request.get_full_path())
                if getattr(request, "htmx", False):
                    return HttpResponseClientRedirect(login["Location"])
                return login
            if not check(request.user):
                raise PermissionDenied(message)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def can_resolve(user) -> bool:
    return roles.is_organizer(user) or roles.is_head_referee(user)


organizer_only = _guard(roles.is_organizer, NOT_ALLOWED)
referee_or_organizer = _guard(can_resolve, NOT_ALLOWED_REFEREE)


# --------------------------------------------------------------------------- reads


@dataclass
class Alert:
    kind: str  # no_result / time_up / disputed / banker_offline
    table: int
    minutes: int | None = None
    note: str = ""
    game_id: int | None = None


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

    @property
    def state_label(self) -> Any:
        return STATE_LABELS[self.state]

    @property
    def needs_attention(self) -> bool:
        return bool(self.alerts)


def _result_of(game: Game | None) -> GameResult | None:
    if game is None:
        return None
    try:
        return game.result
    except GameResult.DoesNotExist:
        return None


def desk_state(game: Game | None, result: GameResult | None) -> str:
    if game is None or game.started_at is None:
        return "not_started"
    if result is not None:
        return {
            GameResult.Status.CONFIRMED: "confirmed",
            GameResult.Status.DISPUTED: "disputed",
        }.get(result.status, "counted")
    if game.status == Game.Status.FINISHED:
        return "ended"
    if game.paused_at is not None:
        return "paused"
    if game.status == Game.Status.FINAL_ROUND:
        return "final_round"
    if game.auction_stop_done:
        return "auction_stop"
    return "running"


def _playing(game: Game | None) -> bool:
    """The clock runs: started (the deal counts as play), not paused, not ended."""
    return bool(
        game is not None and game.started_at is not None and game.paused_at is None
        and game.status != Game.Status.FINISHED
    )


def table_alerts(table: Table, game: Game | None, result: GameResult | None, now) -> list[Alert]:
    if game is None or game.started_at is None:
        return []
    alerts = []
    if result is None and game.status == Game.Status.FINISHED:
        alerts.append(Alert("no_result", table.number, game_id=game.pk))
    elif result is None and game.time_up_due is not None and game.time_up_due <= now:
        alerts.append(Alert("time_up", table.number, game_id=game.pk))
    if result is not None and result.status == GameResult.Status.DISPUTED:
        alerts.append(Alert("disputed", table.number, note=result.dispute_note, game_id=game.pk))
    if _playing(game):
        seen = game.banker_seen_at
        if seen is None or now - seen > BANKER_OFFLINE_AFTER:
            minutes = int((now - seen).total_seconds() // 60) if seen else None
            alerts.append(Alert("banker_offline", table.number, minutes=minutes, game_id=game.pk))
    return alerts


ALERT_ORDER = {"disputed": 0, "no_result": 1, "time_up": 2, "banker_offline": 3}


def desk(tournament: Tournament, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """Everything the desk shows; a fixed number of queries whatever the number of tables."""
    now = now or timezone.now()
    rounds = list(tournament.rounds.order_by("number"))
    current = next((r for r in reversed(rounds) if r.status != Round.Status.DRAFT), None)
    draft = next((r for r in rounds if r.status == Round.Status.DRAFT), None)
    lines: list[TableLine] = []
    if current is not None:
        seats = Seat.objects.select_related("player__club").order_by("position")
        tables = (
            Table.objects.filter(round=current)
            .select_related("banker", "game", "game__result")
            .prefetch_related(Prefetch("seats", queryset=seats))
            .order_by("number")
        )
        for table in tables:
            game = getattr(table, "game", None)
            result = _result_of(game)
            state = desk_state(game, result)
            lines.append(
                TableLine(
                    table=table,
                    game=game,
                    result=result,
                    state=state,
                    players=[seat.player.name for seat in table.seats.all()],
                    seconds=game.game_seconds(now) if game else None,
                    running=_playing(game),
                    alerts=table_alerts(table, game, result, now),
                )
            )
    alerts = sorted(
        (alert for line in lines for alert in line.alerts),
        key=lambda alert: (ALERT_ORDER[alert.kind], alert.table),
    )
    missing = [line.table.number for line in lines if line.state != "confirmed"]
    counts: dict[str, int] = {}
    for line in lines:
        counts[line.state] = counts.get(line.state, 0) + 1
    open_round = next((r for r in rounds if r.status != Round.Status.COMPLETE), None)
    final = next((r for r in rounds if r.kind == Round.Kind.FINAL), None)
    preliminaries = [
        r for r in rounds if r.kind == Round.Kind.PRELIMINARY and r.status == Round.Status.COMPLETE
    ]
    running_tournament = tournament.status == Tournament.Status.RUNNING
    can_seat_final = (
        running_tournament and final is None and open_round is None and bool(preliminaries)
    )
    qualifiers = []
    if can_seat_final:
        qualifiers = list(
            StandingRow.objects.filter(tournament=tournament, scope=Scope.LIVE, qualified=True)
            .select_related("player__club")
            .order_by("position")
        )
    times = tournament_settings.effective_times(tournament)
    return {
        "round": current,
        "draft": draft,
        "lines": lines,
        "alerts": alerts,
        "counts": [(STATE_LABELS[state], state, counts[state]) for state in STATE_LABELS
                   if state in counts],
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
        "qualifiers": qualifiers,
        "final": final,
        "time_limit_seconds": (times["time_limit_minutes"] or 0) * 60,
        "auction_stop_seconds": (times["auction_stop_minutes"] or 0) * 60,
        "now": now,
    }


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("winner__club"), slug=slug)


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "desk": desk(tournament),
        "manage": roles.is_organizer(request.user),
        "resolve": can_resolve(request.user),
        "poll": POLL,
    }


# --------------------------------------------------------------------------- pages


@referee_or_organizer
@require_GET
@never_cache
def desk_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return render(request, "scoring/desk/desk.html", _context(request, tournament))


@referee_or_organizer
@require_GET
@never_cache
def desk_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The polled fragment: tables, alerts and the round's actions."""
    tournament = _tournament(slug)
    return render(request, "scoring/desk/_live.html", _context(request, tournament))


def _desk_url(slug: str) -> str:
    return reverse("round_desk:desk", args=[slug])


@organizer_only
@require_POST
def close_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    services.close_round(round_=round_)
    if round_.kind == Round.Kind.FINAL:
        text = _("The final is closed; the champion is crowned.")
    else:
        text = _("Round %(number)s is closed; the standings follow.") % {"number": number}
    messages.success(request, text)
    return redirect(_desk_url(slug))


class SeedForm(forms.Form):
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**32 - 1)


@organizer_only
@require_POST
def seat_final(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = SeedForm(request.POST)
    seed = form.cleaned_data["seed"] if form.is_valid() else None
    final = services.seat_final(tournament=tournament, seed=seed)
    messages.success(
        request,
        _("The final (round %(number)s) is seated with %(count)s players: assign its banker, "
          "lock and start it.") % {"number": final.number, "count": final.seats.count()},
    )
    return redirect(reverse("organizer:round", args=[slug, final.number]))


@referee_or_organizer
@require_POST
def resolve_result(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """The head referee's ruling: confirm a disputed (or counted) result with a note."""
    game = get_object_or_404(
        Game.objects.select_related("table"), pk=game_id, table__round__tournament__slug=slug
    )
    note = clean_note(request.POST.get("note"))  # no NUL (PostgreSQL), at most 2000 characters
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).get()
        result = GameResult.objects.filter(game=game).first()
        if result is None:
            raise referee_errors.ResultNotReady(referee_errors.RESULT_NOT_COUNTED)
        if result.status == GameResult.Status.CONFIRMED:
            raise Conflict(ALREADY_CONFIRMED, params={"table": game.table.number})
        if result.status == GameResult.Status.DISPUTED and not note:
            raise DomainError(RULING_REQUIRED, code="ruling_required")
        referee_services.confirm_result(
            game_id=game.pk, code=None, by=request.user, head_referee=True
        )
        GameResult.objects.filter(pk=result.pk).update(resolved_note=note)
    messages.success(
        request,
        _("The result of table %(table)s is confirmed by the head referee.")
        % {"table": game.table.number},
    )
    return redirect(_desk_url(slug))


# --------------------------------------------------------------------------- export / import


@organizer_only
@require_GET
@never_cache
def export_download(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    response = HttpResponse(exchange.export_json(tournament), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{export_filename(tournament)}"'
    return response


def export_filename(tournament: Tournament) -> str:
    return f"{tournament.slug}-{timezone.localdate():%Y-%m-%d}.json"


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Export file (JSON)"))
    slug = forms.SlugField(
        label=gettext_lazy("New short name"),
        required=False,
        max_length=60,
        help_text=gettext_lazy("Empty: the short name in the file (it must not be taken here)."),
    )


@organizer_only
@require_http_methods(["GET", "POST"])
def import_upload(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    error = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > exchange.MAX_BYTES:
                raise exchange.ImportRefused(
                    exchange.TOO_BIG, params={"megabytes": exchange.MAX_BYTES // (1024 * 1024)}
                )
            outcome = exchange.import_document(
                upload.read(), slug=form.cleaned_data["slug"] or None
            )
        except DomainError as refusal:
            error = refusal
        else:
            tournament = outcome.tournament
            for warning in outcome.warnings:
                messages.warning(request, warning)
            messages.success(
                request,
                _("“%(name)s” was imported with %(players)s players and %(rounds)s rounds.")
                % {
                    "name": tournament.name,
                    "players": tournament.players.count(),
                    "rounds": tournament.rounds.count(),
                },
            )
            return redirect(reverse("organizer:tournament", args=[tournament.slug]))
    status = 400 if request.method == "POST" else 200
    return render(
        request, "scoring/desk/import.html", {"form": form, "error": error}, status=status
    )
