"""The public sign-up (issue 30): the form at ``/t/<slug>/signup/`` and the registrant's own
page (status, position on the waiting list, confirm, withdraw), opened by the key in every
e-mail. Thin: the rules are in ``tournament.signup``."""

from __future__ import annotations

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from config.errors import DomainError
from config.ratelimit import check_signup_attempt
from public import fragments
from tournament.models import Signup, Tournament
from tournament.players.services import (
    CLUB_MAX,
    EMAIL_MAX,
    NAME_MAX,
    pass_code_display,
)
from tournament.signup import selectors, services

#: The hidden field people never see and bots fill in (the form's only trap, no outside
#: service): a filled one gets the same answer as a real sign-up and nothing is stored.
HONEYPOT = "website"


class SignupForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX,
                           widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(label=_("E-mail"), max_length=EMAIL_MAX,
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    club = forms.CharField(label=_("Club (optional)"), max_length=CLUB_MAX, required=False)
    public_name_consent = forms.BooleanField(
        label=_("My name may be shown publicly (standings, tables). Without it the public sees "
                "my initials and club only."),
        required=False,
    )
    website = forms.CharField(required=False, max_length=200)


def _private(response: HttpResponse) -> HttpResponse:
    """The key in the address opens the page: no shared caches, no referrer to other sites
    (same-origin, not no-referrer: with that, browsers send ``Origin: null`` on the page's own
    forms and Django's CSRF check refuses them), no indexing."""
    response["Cache-Control"] = "private, no-cache"
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response


def _tournament(slug: str) -> Tournament:
    return fragments.public_tournament(slug)


@require_http_methods(["GET", "HEAD", "POST"])
def signup_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = SignupForm()
    error, status = "", 200
    if request.method == "POST":
        check_signup_attempt(request, tournament.pk)
        form = SignupForm(request.POST)
        if request.POST.get(HONEYPOT):
            return redirect(reverse("public:signup", kwargs={"slug": slug}) + "?sent=1")
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.sign_up(
                    tournament=tournament, name=data["name"], email=data["email"],
                    club=data["club"], public_name_consent=data["public_name_consent"],
                    language=translation.get_language() or "de",
                    base_url=request.build_absolute_uri("/"),
                )
            except DomainError as refusal:
                field = getattr(refusal, "field", None)
                message = refusal.message_in(translation.get_language() or "de")
                if field in form.fields:
                    form.add_error(field, message)
                else:
                    error = message
                status = refusal.http_status
            else:
                return redirect(reverse("public:signup", kwargs={"slug": slug}) + "?sent=1")
        else:
            status = 400
    current = selectors.state(tournament)
    return _private(render(request, "public/signup.html", {
        "tournament": tournament, "form": form, "state": current, "error": error,
        "sent": request.GET.get("sent") == "1" and request.method != "POST",
        "hours": selectors.CONFIRM_HOURS, "noindex": True,
    }, status=status))


def _signup(slug: str, token: str) -> Signup:
    signup = selectors.by_token(token)
    if signup is None or signup.tournament.slug != slug:
        raise Http404
    return signup


def _status_page(request: HttpRequest, signup: Signup, *, error: str = "", status: int = 200,
                 template: str = "public/signup_status.html") -> HttpResponse:
    card = ""
    if signup.player_id:
        card = reverse("me", kwargs={"code": signup.player.pass_code})
    return _private(render(request, template, {
        "tournament": signup.tournament, "signup": signup, "error": error,
        "position": selectors.position(signup), "expired": selectors.expired(signup),
        "card": card, "code": pass_code_display(signup.player.pass_code)
        if signup.player_id else "",
        "may_withdraw": signup.status != Signup.Status.WITHDRAWN, "noindex": True,
    }, status=status))


def _refused(request: HttpRequest, signup: Signup, refusal: DomainError) -> HttpResponse:
    signup.refresh_from_db()
    return _status_page(request, signup, status=refusal.http_status,
                        error=refusal.message_in(translation.get_language() or "de"))


@require_http_methods(["GET", "HEAD"])
def signup_status(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    return _status_page(request, _signup(slug, token))


def _ask_then_act(request: HttpRequest, signup: Signup, *, slug: str, token: str, asked: bool,
                  question: str, act) -> HttpResponse:
    """The links in the mails: the GET only asks (a mail program's link preview must not act,
    and no GET writes), and only while there is something to ask; the button's POST acts. Either
    way the status page follows."""
    if request.method != "POST":
        if not asked:
            return redirect("public:signup-status", slug=slug, token=token)
        return _status_page(request, signup, template=question)
    try:
        act(token=token)
    except DomainError as refusal:
        return _refused(request, signup, refusal)
    return redirect("public:signup-status", slug=slug, token=token)


@require_http_methods(["GET", "HEAD", "POST"])
def signup_confirm(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The link in the confirmation mail: asks while the sign-up awaits its confirmation."""
    signup = _signup(slug, token)
    return _ask_then_act(request, signup, slug=slug, token=token,
                         asked=signup.status == Signup.Status.PENDING,
                         question="public/signup_confirm.html", act=services.confirm)


@require_http_methods(["GET", "HEAD", "POST"])
def signup_withdraw(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Withdraw (the place goes to the waiting list): asks unless already withdrawn."""
    signup = _signup(slug, token)
    return _ask_then_act(request, signup, slug=slug, token=token,
                         asked=signup.status != Signup.Status.WITHDRAWN,
                         question="public/signup_withdraw.html", act=services.withdraw)
