"""The organizer's pages (staff only). Thin: selectors read, services write."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournament import (
    access,
    lifecycle,
    selectors,
    tournaments,
)
from tournament.access import Action
from tournament.players import services as players


@access.require_login()
@require_GET
def landing(request: HttpRequest) -> HttpResponse:
    """After the login (``LOGIN_REDIRECT_URL``): each role to the page it works on."""
    return redirect(access.landing(request.user))


@access.require_login(access.has_staff_page)
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournaments_with_counts().filter(
        pk__in=access.staffed_tournaments(request.user).values("pk")
    )
    work = access.work_pages(request.user)  # a head referee's link opens the round desk, …
    return render(
        request,
        "tournament/dashboard.html",
        {
            "tournaments": [
                (t, work.get(t.slug) or reverse("organizer:tournament", args=[t.slug]))
                for t in tournaments
            ],
            "may_create": access.may_create_tournaments(request.user),
        },
    )


@access.require(Action.VIEW)
@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(selectors.tournaments_with_counts(), slug=slug)
    rounds = list(tournament.rounds.order_by("number"))
    current = selectors.current_round(tournament)
    tables = list(selectors.tables_with_seats(current)) if current else []
    return render(
        request,
        "tournament/detail.html",
        {
            "tournament": tournament,
            "may": access.permissions(request.user, tournament),
            "rounds": rounds,
            "current_round": current,
            "tables": tables,
            "counts": players.desk_counts(tournament),
            "transitions": lifecycle.allowed_transitions(tournament),
            "effective": tournaments.effective_times(tournament),
            "ruleset_name": dict(tournaments.ruleset_choices()).get(
                tournament.ruleset, tournament.ruleset
            ),
            "board_name": dict(tournaments.board_choices()).get(tournament.board, tournament.board),
        },
    )
