"""The registrant's e-mails: rendered from templates in their language when queued, kept in
the outbox, sent by the task queue (``outbox``)."""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tournament.models import Signup, SignupMail
from tournament.signup import selectors
from tournament.signup.outbox import send_after_commit

FALLBACK_BASE_URL = "http://127.0.0.1:8000"


def base_url(signup: Signup) -> str:
    """Where links in mails point: the tournament's public address, else PUBLIC_BASE_URL, else
    the address the registrant signed up at."""
    tournament = signup.tournament
    base = tournament.public_base_url or settings.PUBLIC_BASE_URL or signup.base_url
    return (base or FALLBACK_BASE_URL).rstrip("/")


def links(signup: Signup) -> dict[str, str]:
    base = base_url(signup)
    slug = signup.tournament.slug
    out = {
        "page": base + reverse("public:signup-status", kwargs={"slug": slug,
                                                              "token": signup.token}),
        "confirm": base + reverse("public:signup-confirm", kwargs={"slug": slug,
                                                                  "token": signup.token}),
        "tournament": base + reverse("public:tournament", kwargs={"slug": slug}),
    }
    if signup.player_id:
        out["card"] = base + reverse("me", kwargs={"code": signup.player.pass_code})
    return out


def render(signup: Signup, kind: str) -> tuple[str, str]:
    """Subject and text of one message, in the registrant's language."""
    tournament = signup.tournament
    language = signup.language if signup.language in dict(settings.LANGUAGES) else "de"
    with translation.override(language):
        context = {
            "signup": signup, "tournament": tournament, "links": links(signup),
            "position": selectors.position(signup), "hours": selectors.CONFIRM_HOURS,
            "entry_fee": selectors.settings_of(tournament).entry_fee,
        }
        subject = render_to_string(f"tournament/mail/{kind}_subject.txt", context)
        body = render_to_string(f"tournament/mail/{kind}.txt", context)
    subject = " ".join(subject.split())[:200]
    return subject, body.strip() + "\n"


def queue(signup: Signup, kind: str) -> SignupMail:
    """Put a message into the outbox and have it sent after the commit."""
    subject, body = render(signup, kind)
    mail = SignupMail.objects.create(
        tournament_id=signup.tournament_id, signup=signup, kind=kind, to=signup.email,
        language=signup.language, subject=subject, body=body,
    )
    send_after_commit(mail)
    return mail
