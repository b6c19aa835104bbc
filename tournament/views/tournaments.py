"""Create a tournament, edit its settings, move it through its states (staff only)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament import (
    access,
    lifecycle,
    staff,
    tournaments,
)
from tournament.access import Action
from tournament.forms import TournamentForm, TransitionForm, new_tournament_initial
from tournament.models import Round, Tournament


@access.require_login(access.may_create_tournaments)
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, initial=new_tournament_initial())
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournaments.create_tournament(**form.settings())
        except tournaments.SettingsInvalid as error:
            form.add_problems(error)
        else:
            staff.ensure_role(
                tournament=tournament, user=request.user, role=staff.Role.ORGANIZER
            )
            messages.success(
                request, _("Tournament “%(name)s” created.") % {"name": tournament.name}
            )
            return redirect("organizer:tournament", slug=tournament.slug)
    return render(
        request,
        "tournament/settings.html",
        {"form": form, "tournament": None, "defaults": _defaults_table()},
    )


@access.require(Action.SETTINGS)
@require_http_methods(["GET", "POST"])
def tournament_settings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = TournamentForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        times_before = tournaments.effective_times(tournament)
        try:
            tournament = tournaments.update_tournament(tournament=tournament, **form.settings())
        except tournaments.SettingsInvalid as error:
            form.add_problems(error)
        else:
            messages.success(request, _("Settings saved."))
            if (tournaments.effective_times(tournament) != times_before
                    and tournament.rounds.filter(status=Round.Status.RUNNING).exists()):
                messages.warning(request, _(
                    "The new times apply to games that begin from now on; the games already "
                    "running keep the times they started with."
                ))
            return redirect("organizer:tournament", slug=tournament.slug)
    return render(
        request,
        "tournament/settings.html",
        {
            "form": form,
            "tournament": tournament,
            "defaults": _defaults_table(),
            "effective": tournaments.effective_times(tournament),
            "frozen": tournament.status in tournaments.FROZEN_STATES,
        },
    )


@access.require(Action.SETTINGS)
@require_POST
def tournament_transition(request: HttpRequest, slug: str) -> HttpResponse:
    """Change the status; a refused move raises TransitionRefused (shown by the middleware)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    form = TransitionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the status to move to."))
        return redirect("organizer:tournament", slug=slug)
    tournament = lifecycle.transition(tournament=tournament, to=form.cleaned_data["to"])
    messages.success(
        request,
        _("The tournament is now: %(status)s.") % {"status": tournament.get_status_display()},
    )
    return redirect("organizer:tournament", slug=tournament.slug)


def _defaults_table() -> list[dict]:
    """What each ruleset sets when the tournament leaves a time setting empty (for the page)."""
    rows = []
    for key, name in tournaments.ruleset_choices():
        defaults = tournaments.ruleset_defaults(key) or {}
        rows.append({"key": key, "name": name, **defaults})
    return rows
