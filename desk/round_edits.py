"""Seat a round again, or delete it, while none of its games has begun: a confirmation page
(GET, or a POST without ``confirm``) that says what will happen, then the write. Thin:
:mod:`desk.rounds` decides (a final only from its qualifiers) and records."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.inputs import clean_note
from desk import rounds as round_writes
from scoring.standings import selectors as standings
from tournament import access, errors
from tournament.access import Action
from tournament.models import Round, Tournament


class ReseatForm(forms.Form):
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**32 - 1)
    min_size = forms.IntegerField(required=False, min_value=2, max_value=8)
    early = forms.BooleanField(required=False)


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )


def _confirmed(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "1"


def _page(request: HttpRequest, round_: Round, what: str, **extra: Any) -> HttpResponse:
    """The question, with what the step does and, once a game has begun, why it cannot."""
    tournament: Tournament = round_.tournament
    final = round_.kind == Round.Kind.FINAL
    qualifiers = []
    if final and what == "reseat":
        qualifiers = standings.qualifiers(tournament)
    context = {
        "tournament": tournament,
        "round": round_,
        "what": what,
        "final": final,
        "begun": round_writes.begun_tables(round_),
        "early": final and round_writes.final_is_early(tournament),
        "closed": round_writes.preliminaries_closed(tournament),
        "qualifiers": qualifiers,
        "started": round_.status in (Round.Status.LOCKED, Round.Status.RUNNING),
        **extra,
    }
    return render(request, "desk/round_edit.html", context)


@access.require(Action.ROUNDS)
@require_http_methods(["GET", "POST"])
@never_cache
def reseat_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat the round again (a final from its qualifiers): asks first."""
    round_ = _round(slug, number)
    if not _confirmed(request):
        return _page(request, round_, "reseat")
    form = ReseatForm(request.POST)
    if not form.is_valid():
        raise errors.InvalidForm(fields=errors.form_fields(form))
    data = form.cleaned_data
    outcome = round_writes.reseat_round(
        round_=round_, by=request.user, seed=data["seed"], min_size=data["min_size"],
        early=data["early"], reason=clean_note(request.POST.get("reason")),
    )
    messages.success(
        request,
        _("Round %(number)s is seated again at %(tables)s tables (seed %(seed)s): print its "
          "lists again, then lock and start it.")
        % {"number": number, "tables": len(outcome.tables), "seed": outcome.seed},
    )
    return redirect(reverse("organizer:round", args=[slug, number]))


@access.require(Action.ROUNDS)
@require_http_methods(["GET", "POST"])
@never_cache
def delete_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Delete the round with its seating: asks first."""
    round_ = _round(slug, number)
    if not _confirmed(request):
        return _page(request, round_, "delete")
    round_writes.delete_round(round_=round_, by=request.user,
                              reason=clean_note(request.POST.get("reason")))
    messages.success(request, _("Round %(number)s is deleted.") % {"number": number})
    return redirect(reverse("round_desk:desk", args=[slug]))
