"""A player's incidents: the head referee sees the earlier ones while recording a new one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournament import access, incidents
from tournament.access import Action
from tournament.models import Incident, Player


class IncidentForm(forms.Form):
    level = forms.ChoiceField(label=gettext_lazy("Ruling"), choices=Incident.Level.choices)
    points = forms.IntegerField(
        label=gettext_lazy("Points deducted"), required=False, min_value=1,
        max_value=incidents.MAX_DEDUCTION,
    )
    table_number = forms.IntegerField(
        label=gettext_lazy("Table"), required=False, min_value=1, max_value=32767
    )
    note = forms.CharField(
        label=gettext_lazy("What happened"), max_length=2000, widget=forms.Textarea
    )


@access.require(Action.RULE)
@require_http_methods(["GET", "POST"])
def player_incidents(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk, tournament=request.tournament)
    form = IncidentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        incident = incidents.record_incident(
            player=player, level=data["level"], points=data["points"] or 0, note=data["note"],
            table_number=data["table_number"], by=request.user,
        )
        messages.success(
            request,
            _("%(level)s for %(name)s recorded.")
            % {"level": incident.get_level_display(), "name": player.name},
        )
        return redirect("organizer:player-incidents", slug=slug, pk=player.pk)
    return render(
        request,
        "tournament/players/incidents.html",
        {
            "tournament": request.tournament,
            "player": player,
            "incidents": incidents.incidents_of(player),
            "form": form,
        },
        status=400 if request.method == "POST" else 200,
    )


urlpatterns = [
    path("<slug:slug>/players/<int:pk>/incidents/", player_incidents, name="player-incidents"),
]
