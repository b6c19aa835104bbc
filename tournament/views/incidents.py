"""A player's incidents: the head referee sees the earlier ones while recording a new one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament import access, errors, incidents
from tournament.access import Action
from tournament.models import Incident, Player


class IncidentForm(forms.Form):
    level = forms.ChoiceField(label=incidents.RULING, choices=Incident.Level.choices)
    points = forms.IntegerField(
        label=incidents.POINTS, required=False, min_value=1, max_value=incidents.MAX_DEDUCTION,
    )
    table_number = forms.IntegerField(
        label=incidents.TABLE, required=False, min_value=1, max_value=32767
    )
    note = forms.CharField(label=incidents.NOTE, max_length=2000, widget=forms.Textarea)

    def clean(self) -> dict:
        """A deduction needs its points: said at the field, so the head referee fixes just that
        (the service refuses it too, for every other way in)."""
        data = super().clean()
        deduction = data.get("level") == Incident.Level.DEDUCTION
        if deduction and not data.get("points") and "points" not in self.errors:
            self.add_error("points", gettext_lazy("Please give the points."))
        return data


@access.require(Action.RULE)
@require_http_methods(["GET", "POST"])
def player_incidents(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk, tournament=request.tournament)
    form = IncidentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            incident = incidents.record_incident(
                player=player, level=data["level"], points=data["points"] or 0,
                note=data["note"], table_number=data["table_number"], by=request.user,
            )
        except (errors.InvalidForm, errors.PenaltyAfterCrowning) as refused:
            # back on the form, the typed values kept
            form.add_error(None, str(refused.message_in(get_language() or "de")))
            return _page(request, player, form)
        messages.success(
            request,
            _("%(level)s for %(name)s recorded.")
            % {"level": incident.get_level_display(), "name": player.name},
        )
        return redirect("organizer:player-incidents", slug=slug, pk=player.pk)
    return _page(request, player, form)


def _page(request: HttpRequest, player: Player, form: IncidentForm) -> HttpResponse:
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
