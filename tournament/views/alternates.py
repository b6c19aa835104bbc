"""Alternates: rank the standbys; give a no-show's seat to one before the round starts."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournament import access
from tournament.access import Action
from tournament.models import MAX_ID, Player, Round
from tournament.players import alternates


class RankForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=MAX_ID)
    rank = forms.IntegerField(
        label=gettext_lazy("Rank"), required=False, min_value=1, max_value=alternates.MAX_RANK
    )


class ReplaceForm(forms.Form):
    absent = forms.IntegerField(min_value=1, max_value=MAX_ID)
    alternate = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)


def _next_round(tournament) -> Round | None:
    """The round whose seats can still change hands (the earliest not started)."""
    return (
        tournament.rounds.filter(status__in=alternates.BEFORE_START).order_by("number").first()
    )


@access.require(Action.VIEW)
@require_GET
def alternate_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    round_ = _next_round(tournament)
    seats = alternates.no_show_seats(round_) if round_ is not None else []
    ranked = alternates.ranked(tournament)
    others = alternates.candidates(tournament)
    return render(
        request,
        "tournament/players/alternates.html",
        {
            "tournament": tournament,
            "alternates": ranked,
            "others": others,
            "round": round_,
            "seats": seats,
            "may_edit": access.can(request.user, Action.PLAYERS, tournament),
            "may_replace": access.can(request.user, Action.ROUNDS, tournament),
        },
    )


@access.require(Action.PLAYERS)
@require_POST
def alternate_rank(request: HttpRequest, slug: str) -> HttpResponse:
    form = RankForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please choose a player and a rank from 1."))
        return redirect("organizer:alternates", slug=slug)
    player = get_object_or_404(
        Player, pk=form.cleaned_data["player"], tournament=request.tournament
    )
    player = alternates.set_rank(player=player, rank=form.cleaned_data["rank"], actor=request.user)
    if player.alternate_rank is None:
        messages.success(request, _("%(name)s is no longer an alternate.") % {"name": player.name})
    else:
        messages.success(
            request,
            _("%(name)s is alternate no. %(rank)s.")
            % {"name": player.name, "rank": player.alternate_rank},
        )
    return redirect("organizer:alternates", slug=slug)


@access.require(Action.ROUNDS)
@require_POST
def alternate_replace(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament=request.tournament, number=number)
    form = ReplaceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please choose the player who did not turn up."))
        return redirect("organizer:alternates", slug=slug)
    seat = alternates.replace_no_show(
        round_=round_,
        absent=form.cleaned_data["absent"],
        alternate=form.cleaned_data["alternate"],
        actor=request.user,
    )
    messages.success(
        request,
        _("%(name)s takes the seat at table %(table)s.")
        % {"name": seat.player.name, "table": seat.table.number},
    )
    return redirect("organizer:alternates", slug=slug)
