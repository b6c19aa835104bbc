"""The organizer's round pages: create, seat, edit (swap/move with preview), lock, start; bankers.

Thin: selectors read, services write, domain errors are rendered by
``config.middleware.DomainErrorMiddleware`` (a stale version answers 409 "changed meanwhile").
Every form that changes a round carries the round's ``version``.

``banker_link_urlpatterns`` holds the private banker link ``/b/<token>/``; it lives at the site
root (mounted in ``config/urls.py``), not under ``/manage/``.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.addresses import public_base_url
from config.errors import DomainError
from tournament import (
    access,
    banker_links,
    errors,
    selectors,
)
from tournament.access import Action
from tournament.models import (
    MAX_ID,
    MAX_TABLE_NUMBER,
    Round,
    Table,
    Tournament,
)
from tournament.qr import qr_svg
from tournament.rounds import bankers, services

# --- Forms (validation of the posted fields; the rules themselves live in the services) ------


class VersionForm(forms.Form):
    version = forms.IntegerField(
        label=gettext_lazy("Version"), min_value=0, max_value=MAX_ID, widget=forms.HiddenInput
    )


class SeatForm(VersionForm):
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"),
        required=False,
        min_value=0,
        max_value=2**32 - 1,
        help_text=gettext_lazy("Empty: derived from the round, so the seating can be redone."),
    )
    min_size = forms.IntegerField(
        label=gettext_lazy("Smallest table"),
        required=False,
        min_value=2,
        max_value=8,
        help_text=gettext_lazy("Empty: one less than the table size."),
    )


class SwapForm(VersionForm):
    a = forms.IntegerField(label=gettext_lazy("Player"), min_value=1, max_value=MAX_ID)
    b = forms.IntegerField(label=gettext_lazy("swaps seats with"), min_value=1, max_value=MAX_ID)


class MoveForm(VersionForm):
    player = forms.IntegerField(label=gettext_lazy("Player"), min_value=1, max_value=MAX_ID)
    to_table = forms.IntegerField(
        label=gettext_lazy("moves to table"), min_value=1, max_value=MAX_TABLE_NUMBER
    )


class AssignBankerForm(forms.Form):
    banker = forms.IntegerField(
        label=gettext_lazy("Banker"), required=False, min_value=1, max_value=MAX_ID
    )
    new_username = forms.CharField(
        label=gettext_lazy("or a new banker (username)"), required=False, max_length=150
    )


def _valid(form: forms.Form) -> dict:
    if not form.is_valid():
        raise errors.InvalidForm(fields=errors.form_fields(form))
    return form.cleaned_data


# --- Lookups -----------------------------------------------------------------------------------


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )


def _round_url(round_: Round) -> str:
    return reverse("organizer:round", args=[round_.tournament.slug, round_.number])


def _bankers_url(round_: Round) -> str:
    return reverse("organizer:round_bankers", args=[round_.tournament.slug, round_.number])


# --- Rounds ------------------------------------------------------------------------------------


@access.require(Action.VIEW)
@require_GET
def round_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    rounds = list(selectors.rounds_of(tournament))
    return render(
        request,
        "tournament/rounds/list.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "active_count": len(selectors.active_players(tournament)),
            "kinds": Round.Kind.choices,
            "may": access.permissions(request.user, tournament),
        },
    )


@access.require(Action.ROUNDS)
@require_POST
def round_create(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    kind = request.POST.get("kind") or Round.Kind.PRELIMINARY
    if kind not in Round.Kind.values:
        raise errors.InvalidForm(fields=[gettext_lazy("Kind")])
    round_ = services.create_round(tournament=tournament, kind=kind)
    messages.success(request, _("Round %(number)s created.") % {"number": round_.number})
    return redirect(_round_url(round_))


@access.require(Action.VIEW)
@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    overview = selectors.seating_overview(round_)
    choices = sorted(
        (
            (line.table.number, seat.seat.position, seat.player.name, seat.player.pk)
            for line in overview.tables
            for seat in line.seats
        ),
    )
    return render(
        request,
        "tournament/rounds/round.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "overview": overview,
            "player_choices": [
                {"id": pid, "name": name, "table": table} for table, _pos, name, pid in choices
            ],
            "editable": round_.status == Round.Status.SEATED,
            "Status": Round.Status,
            "may": access.permissions(request.user, round_.tournament),
        },
    )


@access.require(Action.VIEW)
@require_GET
def round_preview(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """htmx fragment: the seating's repeat/club counts if the chosen swap or move were saved.

    Refusals are shown in the fragment with status 200, so that htmx swaps them in; for htmx
    the fragment also swaps the form's save button out of band, disabled while the preview
    refuses the change (saving it would only be refused again).
    """
    round_ = _round(slug, number)
    action = "move" if request.GET.get("action") == "move" else "swap"
    context: dict = {"round": round_, "action": action, "oob": bool(getattr(request, "htmx", False))}
    try:
        form = (SwapForm if action == "swap" else MoveForm)(request.GET)
        if not form.is_valid():
            return render(request, "tournament/rounds/_preview.html", context)
        data = form.cleaned_data
        if data["version"] != round_.version:
            raise errors.StaleVersion(
                errors.STALE_VERSION,
                params={
                    "number": round_.number,
                    "yours": data["version"],
                    "current": round_.version,
                },
            )
        overview = selectors.seating_overview(round_)
        if action == "swap":
            preview = selectors.preview_swap(overview, a=data["a"], b=data["b"])
        else:
            preview = selectors.preview_move(
                overview, player=data["player"], to_table=data["to_table"]
            )
        context["preview"] = preview
    except DomainError as error:
        context["error"] = error
    return render(request, "tournament/rounds/_preview.html", context)


def _post_round_action(request: HttpRequest, slug: str, number: int, form_class=VersionForm):
    round_ = _round(slug, number)
    return round_, _valid(form_class(request.POST))


@access.require(Action.ROUNDS)
@require_POST
def round_seat(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_, data = _post_round_action(request, slug, number, SeatForm)
    outcome = services.seat_round(
        round_=round_, version=data["version"], seed=data["seed"], min_size=data["min_size"]
    )
    messages.success(
        request,
        _(
            "Round %(number)s seated at %(tables)s tables: %(repeats)s repeated pairs, "
            "%(clubs)s club-mate pairs (seed %(seed)s)."
        )
        % {
            "number": round_.number,
            "tables": len(outcome.tables),
            "repeats": outcome.repeated_pairs,
            "clubs": outcome.same_club_pairs,
            "seed": outcome.seed,
        },
    )
    return redirect(_round_url(round_))


@access.require(Action.ROUNDS)
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_, data = _post_round_action(request, slug, number, SwapForm)
    services.swap_players(round_=round_, a=data["a"], b=data["b"], version=data["version"])
    messages.success(request, _("Seats swapped."))
    return redirect(_round_url(round_))


@access.require(Action.ROUNDS)
@require_POST
def round_move(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_, data = _post_round_action(request, slug, number, MoveForm)
    services.move_player(
        round_=round_, player=data["player"], to_table=data["to_table"], version=data["version"]
    )
    messages.success(
        request, _("Player moved to table %(table)s.") % {"table": data["to_table"]}
    )
    return redirect(_round_url(round_))


def _round_step(name: str, service, done: str):
    """A POST view that moves the round one step on (``service``) and says ``done``."""

    def view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        round_, data = _post_round_action(request, slug, number)
        service(round_=round_, version=data["version"])
        messages.success(request, _(done) % {"number": round_.number})
        return redirect(_round_url(round_))

    view.__name__ = view.__qualname__ = name
    return access.require(Action.ROUNDS)(require_POST(view))


round_lock = _round_step("round_lock", services.lock_round, gettext_noop("Seating locked."))
round_unlock = _round_step(
    "round_unlock", services.unlock_round,
    gettext_noop("Seating unlocked: it can be edited again."),
)
round_start = _round_step(
    "round_start", services.start_round, gettext_noop("Round %(number)s started.")
)


# --- Bankers -----------------------------------------------------------------------------------


@access.require(Action.BANKERS)
@require_GET
@never_cache
def round_bankers(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    # The phones' address (the tournament's public one, else the laptop's on the LAN), never
    # the one this page was opened with: on the laptop that is 127.0.0.1.
    base = public_base_url(request, round_.tournament.public_base_url)
    rows = []
    for table in selectors.tables_with_links(round_):
        link = table.live_links[0] if table.live_links else None
        url = base + banker_links.link_path(link) if link else ""
        rows.append(
            {
                "table": table,
                "link": link,
                "url": url,
                # Our own SVG; qr_svg escapes the title.
                "qr": mark_safe(
                    qr_svg(url, title=_("Table %(number)s") % {"number": table.number})
                )
                if link
                else "",
            }
        )
    return render(
        request,
        "tournament/rounds/bankers.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "rows": rows,
            "candidates": list(selectors.banker_candidates(round_.tournament)),
        },
    )


def _round_table(slug: str, number: int, table_number: int) -> tuple[Round, Table]:
    round_ = _round(slug, number)
    table = get_object_or_404(
        Table.objects.select_related("banker"), round=round_, number=table_number
    )
    return round_, table


@access.require(Action.BANKERS)
@require_POST
def table_assign_banker(
    request: HttpRequest, slug: str, number: int, table_number: int
) -> HttpResponse:
    round_, table = _round_table(slug, number, table_number)
    data = _valid(AssignBankerForm(request.POST))
    if data["new_username"].strip():
        banker = services.banker_by_name(
            tournament=round_.tournament, username=data["new_username"], create=True
        )
    elif data["banker"]:
        banker = bankers.candidate_banker(tournament=round_.tournament, user_id=data["banker"])
    else:
        banker = None
    services.assign_banker(table=table, banker=banker)
    if banker is None:
        text = _("Table %(table)s has no banker now; its link was revoked.")
    else:
        text = _("%(banker)s banks table %(table)s; the table has a new private link.")
    messages.success(
        request,
        text % {"table": table.number, "banker": banker.get_username() if banker else ""},
    )
    return redirect(_bankers_url(round_))


def _link_step(name: str, service, done: str, nothing: str | None = None):
    """A POST view that changes a table's banker link (``service``) and says ``done``, or
    ``nothing`` where the service found nothing to change."""

    def view(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
        round_, table = _round_table(slug, number, table_number)
        if not service(table=table) and nothing is not None:
            messages.error(request, _(nothing))
        else:
            messages.success(request, _(done) % {"table": table.number})
        return redirect(_bankers_url(round_))

    view.__name__ = view.__qualname__ = name
    return access.require(Action.BANKERS)(require_POST(view))


table_issue_link = _link_step(
    "table_issue_link", services.issue_link,
    gettext_noop("Table %(table)s has a new private link; the old one no longer works."),
)
table_revoke_link = _link_step(
    "table_revoke_link", services.revoke_link,
    gettext_noop("The link of table %(table)s was revoked."),
)
table_restore_link = _link_step(
    "table_restore_link", bankers.restore_link,
    gettext_noop("The link of table %(table)s works again."),
    nothing=gettext_noop("There is no revoked link to restore (or a newer one is live)."),
)


# --- The private banker link (site root) -------------------------------------------------------


@require_GET
@never_cache
def open_banker_link(request: HttpRequest, token: str) -> HttpResponse:
    """``/b/<token>/``: a live link grants this session the table's console and redirects there.

    A revoked link, or one whose round is closed, answers 403, a forged or unknown one 404,
    each with a page that says so.
    """
    state, link = banker_links.resolve(token)
    if state is banker_links.LinkState.LIVE:
        banker_links.grant(request.session, link)
        response = redirect(reverse("banker:table", args=[link.table_id]))
    else:
        known = state is not banker_links.LinkState.INVALID
        response = render(
            request,
            "tournament/rounds/link_refused.html",
            {"state": state.value, "revoked": state is banker_links.LinkState.REVOKED},
            status=403 if known else 404,
        )
    # The token must not leak to other sites through the Referer header.
    response["Referrer-Policy"] = "no-referrer"
    return response

