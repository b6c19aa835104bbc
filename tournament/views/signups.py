"""The organizer's side of the public sign-up: its settings, the sign-ups with their state,
counts against the places, resend, move up by hand, close early, the outbox; and the desk's
"entry fee paid" at check-in. Thin: ``tournament.signup`` decides."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournament import access, privacy
from tournament.access import Action
from tournament.models import Player, Signup, SignupMail
from tournament.signup import selectors, services

LOCAL = {"type": "datetime-local"}


class SettingsForm(forms.Form):
    is_open = forms.BooleanField(label=gettext_lazy("Sign-up open"), required=False)
    opens_at = forms.DateTimeField(label=gettext_lazy("Opens at"), required=False,
                                   widget=forms.DateTimeInput(LOCAL, format="%Y-%m-%dT%H:%M"))
    closes_at = forms.DateTimeField(label=gettext_lazy("Closes at"), required=False,
                                    widget=forms.DateTimeInput(LOCAL, format="%Y-%m-%dT%H:%M"))
    capacity = forms.IntegerField(label=gettext_lazy("Places"), required=False, min_value=2,
                                  max_value=services.MAX_CAPACITY)
    waiting_list = forms.BooleanField(label=gettext_lazy("Waiting list"), required=False)
    entry_fee = forms.CharField(label=gettext_lazy("Entry fee (shown, not collected)"),
                                required=False, max_length=200)


class MoveUpForm(forms.Form):
    reason = forms.CharField(max_length=services.REASON_MAX)


def _signup(request: HttpRequest, signup_id: int) -> Signup:
    return get_object_or_404(Signup, pk=signup_id, tournament=request.tournament)


@access.require(Action.SIGNUPS)
@require_GET
def signup_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    current = selectors.state(tournament)
    settings = current.settings
    form = SettingsForm(initial={
        "is_open": settings.is_open, "opens_at": settings.opens_at,
        "closes_at": settings.closes_at, "capacity": settings.capacity,
        "waiting_list": settings.waiting_list, "entry_fee": settings.entry_fee,
    })
    return _page(request, form)


def _page(request: HttpRequest, form: SettingsForm, *, status: int = 200) -> HttpResponse:
    tournament = request.tournament
    return render(request, "tournament/signups.html", {
        "tournament": tournament, "form": form, "state": selectors.state(tournament),
        "counts": selectors.counts(tournament), "rows": selectors.organizer_rows(tournament),
        "public_url": request.build_absolute_uri(f"/t/{tournament.slug}/signup/"),
        "registration": tournament.status == tournament.Status.REGISTRATION,
    }, status=status)


@access.require(Action.SIGNUPS)
@require_POST
def signup_settings(request: HttpRequest, slug: str) -> HttpResponse:
    form = SettingsForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    services.save_settings(tournament=request.tournament, actor=request.user, **form.cleaned_data)
    messages.success(request, _("Sign-up settings saved."))
    return redirect("organizer:signups", slug=slug)


@access.require(Action.SIGNUPS)
@require_POST
def signup_close(request: HttpRequest, slug: str) -> HttpResponse:
    services.close_early(tournament=request.tournament, actor=request.user)
    messages.success(request, _("The sign-up is closed."))
    return redirect("organizer:signups", slug=slug)


@access.require(Action.SIGNUPS)
@require_POST
def signup_resend(request: HttpRequest, slug: str, signup_id: int) -> HttpResponse:
    signup = _signup(request, signup_id)
    services.resend_confirmation(signup=signup, actor=request.user)
    messages.success(request, _("Confirmation sent again to %(email)s.") % {"email": signup.email})
    return redirect("organizer:signups", slug=slug)


@access.require(Action.SIGNUPS)
@require_POST
def signup_move_up(request: HttpRequest, slug: str, signup_id: int) -> HttpResponse:
    signup = _signup(request, signup_id)
    form = MoveUpForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    services.move_up(signup=signup, actor=request.user, reason=reason)
    messages.success(request, _("%(name)s is registered.") % {"name": signup.name})
    return redirect("organizer:signups", slug=slug)


@access.require(Action.SIGNUPS)
@require_POST
def signup_erase(request: HttpRequest, slug: str, signup_id: int) -> HttpResponse:
    signup = _signup(request, signup_id)
    privacy.erase_signup(signup=signup, actor=request.user, reason="request")
    messages.success(request, _("The sign-up and its e-mails are erased."))
    return redirect("organizer:signups", slug=slug)


@access.require(Action.SIGNUPS)
@require_GET
def outbox(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    return render(request, "tournament/outbox.html", {
        "tournament": tournament, "mails": selectors.outbox(tournament)[:500],
    })


@access.require(Action.SIGNUPS)
@require_POST
def outbox_resend(request: HttpRequest, slug: str, mail_id: int) -> HttpResponse:
    mail = get_object_or_404(SignupMail, pk=mail_id, tournament=request.tournament)
    services.resend_mail(mail=mail, actor=request.user)
    messages.success(request, _("The e-mail to %(email)s is queued again.") % {"email": mail.to})
    return redirect("organizer:outbox", slug=slug)


@access.require(Action.CHECK_IN)
@require_POST
def fee_paid(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The desk: the entry fee was paid (``paid=0`` takes the mark back)."""
    player = get_object_or_404(Player, pk=pk, tournament=request.tournament)
    paid = request.POST.get("paid", "1") != "0"
    services.mark_fee_paid(player=player, paid=paid, actor=request.user)
    if paid:
        messages.success(request, _("Entry fee of %(name)s marked as paid.") % {"name": player.name})
    else:
        messages.success(request, _("Entry fee of %(name)s marked as not paid.")
                         % {"name": player.name})
    back = request.POST.get("next", "")
    if back.startswith(f"/manage/{slug}/") and "//" not in back:
        return redirect(back)
    return redirect("organizer:desk", slug=slug)
