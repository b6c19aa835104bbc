"""The desk's page for the hall screens (``/manage/<slug>/screens/``): add a screen, choose
what it shows (the screen follows within seconds), remove it. Desk, head referee, organizer."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from scoring import screens
from scoring.models import HallScreen
from tournament import access
from tournament.access import Action
from tournament.models import Tournament


def _screen(slug: str, pk: int) -> HallScreen:
    return get_object_or_404(HallScreen.objects.select_related("tournament"),
                             tournament__slug=slug, pk=pk)


@access.require(Action.DESK)
@require_http_methods(["GET", "POST"])
@never_cache
def screens_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if request.method == "POST":
        screen = screens.add_screen(tournament=tournament, name=request.POST.get("name", ""))
        messages.success(request, _("Screen “%(name)s” added: open its address on the "
                                    "screen's browser.") % {"name": screen.name})
        return redirect("round_desk:screens", slug=slug)
    return render(request, "desk/screens.html", {
        "tournament": tournament,
        "screens": list(tournament.hall_screens.all()),
        "modes": HallScreen.Mode.choices,
    })


@access.require(Action.DESK)
@require_POST
def screen_mode(request: HttpRequest, slug: str, screen_id: int) -> HttpResponse:
    screens.set_mode(screen=_screen(slug, screen_id), mode=request.POST.get("mode", ""))
    return redirect("round_desk:screens", slug=slug)


@access.require(Action.DESK)
@require_POST
def screen_remove(request: HttpRequest, slug: str, screen_id: int) -> HttpResponse:
    screens.remove_screen(screen=_screen(slug, screen_id))
    return redirect("round_desk:screens", slug=slug)
