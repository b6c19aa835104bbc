"""Players sign themselves up (issue 30): the public sign-up's settings, each sign-up and the
mails to send."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.base import InTournament, tournament_reference
from tournament.models.players import Player
from tournament.models.tournament import Tournament


class SignupSettings(InTournament, models.Model):
    """A tournament's public sign-up: whether and when it is open, how many places, the
    waiting list and the entry fee's words (shown, never collected here)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="signup_settings",
        verbose_name=_("tournament"),
    )
    is_open = models.BooleanField(
        _("sign-up open"), default=False,
        help_text=_("Players sign themselves up at the public sign-up page while this is on "
                    "and the tournament is in registration."),
    )
    opens_at = models.DateTimeField(_("opens at"), null=True, blank=True)
    closes_at = models.DateTimeField(_("closes at"), null=True, blank=True)
    capacity = models.PositiveIntegerField(
        _("places"), null=True, blank=True,
        help_text=_("Players the tournament takes (every registered player counts). Empty: no "
                    "limit."),
    )
    waiting_list = models.BooleanField(
        _("waiting list"), default=True,
        help_text=_("Once the places are taken, further sign-ups wait and move up in order when "
                    "a place becomes free."),
    )
    entry_fee = models.CharField(
        _("entry fee"), max_length=200, blank=True,
        help_text=_("Shown on the sign-up page, e.g. “10 €, paid at the check-in desk”."),
    )

    class Meta:
        verbose_name = _("sign-up settings")
        verbose_name_plural = _("sign-up settings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(opens_at__isnull=True) | models.Q(closes_at__isnull=True)
                | models.Q(closes_at__gt=models.F("opens_at")),
                name="signup_settings_closes_after_opening",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('sign-up')}"


def new_signup_token() -> str:
    """The key of a registrant's own page and confirmation link (never guessed: 192 bits)."""
    return secrets.token_urlsafe(24)


class Signup(InTournament, models.Model):
    """One person's sign-up for one tournament: pending until the e-mail link is followed,
    then registered (a player of the tournament) or waiting, until withdrawn."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending confirmation")
        REGISTERED = "registered", _("Registered")
        WAITING = "waiting", _("Waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = tournament_reference("signups")
    name = models.CharField(_("name"), max_length=120)
    email = models.EmailField(_("e-mail"))
    #: The address as compared: trimmed, NFKC, case-folded (one sign-up per address).
    email_key = models.CharField(_("e-mail (compared)"), max_length=254, editable=False)
    club = models.CharField(_("club"), max_length=120, blank=True)
    public_name_consent = models.BooleanField(_("name may be shown publicly"), default=False)
    language = models.CharField(_("language"), max_length=8, default="de")
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PENDING
    )
    token = models.CharField(
        _("key"), max_length=64, unique=True, default=new_signup_token, editable=False
    )
    #: The address the registrant used (links in mails, when the tournament names none).
    base_url = models.CharField(_("site address"), max_length=200, blank=True)
    player = models.OneToOneField(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="signup",
        verbose_name=_("player"),
    )
    created_at = models.DateTimeField(_("signed up"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    waiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    fee_paid_at = models.DateTimeField(_("entry fee paid"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "created_at", "pk"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "email_key"], name="signup_one_per_email"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["pending", "registered", "waiting", "withdrawn"]),
                name="signup_status_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="waiting") | models.Q(waiting_since__isnull=False),
                name="signup_waiting_has_since",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status", "waiting_since"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"


class SignupMail(InTournament, models.Model):
    """The outbox: every message to a registrant, rendered once in their language, then sent
    by the task queue (sent, failed, resent by the organizer)."""

    class Kind(models.TextChoices):
        CONFIRM = "confirm", _("Confirm your sign-up")
        REGISTERED = "registered", _("Registered")
        WAITING = "waiting", _("On the waiting list")
        MOVED_UP = "moved_up", _("Moved up")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        STATUS = "status", _("Already signed up")
        REMINDER = "reminder", _("Reminder")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    tournament = tournament_reference("outbox")
    signup = models.ForeignKey(
        Signup, on_delete=models.CASCADE, related_name="mails", verbose_name=_("sign-up")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    to = models.EmailField(_("to"))
    language = models.CharField(_("language"), max_length=8, default="de")
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("text"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.CharField(_("last error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("e-mail")
        verbose_name_plural = _("outbox")
        constraints = [
            # One reminder per registrant: a second sweep finds it and sends nothing.
            models.UniqueConstraint(
                fields=["signup", "kind"], condition=models.Q(kind="reminder"),
                name="signup_mail_one_reminder",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.to}: {self.subject}"
