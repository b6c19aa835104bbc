"""Every write of the sign-up. Keyword-only arguments; refusals are domain errors with stable
codes and words in both languages (``tournament.errors``).

Places are decided under the tournament's row lock (``select_for_update``): two confirmations
at once cannot both take the last place, and the waiting list moves up in order.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format

from config.queue import enqueue
from tournament import audit
from tournament.errors import (
    SIGNUP_CAPACITY_INVALID,
    SIGNUP_CLOSED,
    SIGNUP_EMAIL_INVALID,
    SIGNUP_FULL,
    SIGNUP_LINK_INVALID,
    SIGNUP_NO_FEE,
    SIGNUP_NOT_PENDING,
    SIGNUP_NOT_WAITING,
    SIGNUP_NOT_YET,
    SIGNUP_REASON_MISSING,
    SIGNUP_WINDOW_INVALID,
    SIGNUP_WITHDRAW_STARTED,
    SignupClosed,
    SignupFull,
    SignupLinkInvalid,
    SignupNotAllowed,
)
from tournament.models import (
    Player,
    Signup,
    SignupMail,
    SignupSettings,
    Tournament,
    new_signup_token,
)
from tournament.players import services as players
from tournament.players.errors import NAME_TAKEN
from tournament.signup import mails, selectors
from tournament.signup.outbox import MAX_ATTEMPTS, send_after_commit, send_signup_mail

logger = logging.getLogger("tournament.signup")

Status = Signup.Status
Kind = SignupMail.Kind
MAX_CAPACITY = 10_000
REASON_MAX = 300


def _locked_tournament(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.objects.select_for_update().get(pk=pk)


def _locked_by_token(token: str) -> Signup:
    """The sign-up and its tournament, locked in the one order every write here uses
    (tournament first, then sign-ups): two writers never wait for each other in a circle."""
    tournament_id = (Signup.objects.filter(token=token).values_list("tournament_id", flat=True)
                     .first())
    if tournament_id is None:
        raise SignupLinkInvalid(SIGNUP_LINK_INVALID)
    tournament = _locked_tournament(tournament_id)
    signup = Signup.objects.select_for_update().filter(token=token).first()
    if signup is None:  # erased meanwhile
        raise SignupLinkInvalid(SIGNUP_LINK_INVALID)
    signup.tournament = tournament
    return signup


def _refuse_unless_open(tournament: Tournament) -> None:
    current = selectors.state(tournament)
    if current.open:
        return
    if current.reason == "full":
        raise SignupFull(SIGNUP_FULL)
    if current.reason == "not_yet":
        when = date_format(timezone.localtime(current.settings.opens_at), "DATETIME_FORMAT")
        raise SignupClosed(SIGNUP_NOT_YET, params={"when": when})
    raise SignupClosed(SIGNUP_CLOSED)


def _check_name_free(*, tournament: Tournament, name: str, email_key: str) -> None:
    """As the desk: a name is taken by a player, and here also by another active sign-up."""
    players.check_name_free(tournament=tournament, name=name)
    lowered = name.lower()
    others = (tournament.signups.filter(status__in=selectors.ACTIVE)
              .exclude(email_key=email_key).values_list("name", flat=True))
    if any(other.lower() == lowered for other in others):
        raise players.PlayerNameTaken(NAME_TAKEN, params={"name": name})


@transaction.atomic
def sign_up(
    *, tournament: Tournament, name: str, email: str, club: str = "",
    public_name_consent: bool = False, language: str = "de", base_url: str = "",
) -> Signup:
    """A new sign-up, pending until the link in the confirmation mail is followed.

    The same address again (one sign-up per address and tournament) changes nothing the
    person confirmed: a pending one gets a fresh confirmation, a withdrawn one starts over,
    a registered or waiting one gets a mail with the link to their page. The answer is the
    same either way, so the page tells nobody who else signed up."""
    tournament = _locked_tournament(tournament)
    _refuse_unless_open(tournament)
    name, club, email = players.clean_name(name), players.clean_name(club), (email or "").strip()
    if not email:
        raise players.PlayerInvalid(SIGNUP_EMAIL_INVALID, field="email",
                                    code="signup_email_missing")
    players.check_fields(name=name, club_name=club, email=email)
    key = selectors.email_key(email)
    signup = Signup.objects.select_for_update().filter(tournament=tournament,
                                                       email_key=key).first()
    if signup is not None and signup.status in (Status.REGISTERED, Status.WAITING):
        mails.queue(signup, Kind.STATUS)
        return signup
    _check_name_free(tournament=tournament, name=name, email_key=key)
    now = timezone.now()
    fields = {"name": name, "email": email, "club": club,
              "public_name_consent": public_name_consent, "language": language,
              "base_url": base_url[:200]}
    if signup is None:
        try:
            with transaction.atomic():
                signup = Signup.objects.create(tournament=tournament, email_key=key, **fields)
        except IntegrityError:  # the same address a moment ago, in another request
            signup = Signup.objects.select_for_update().get(tournament=tournament,
                                                            email_key=key)
    else:  # pending again, or withdrawn and back: a fresh 48 hours from now
        for field, value in fields.items():
            setattr(signup, field, value)
        if signup.status == Status.WITHDRAWN:
            signup.token = new_signup_token()
        signup.status = Status.PENDING
        signup.created_at = now
        signup.confirmed_at = signup.withdrawn_at = signup.waiting_since = None
        signup.save()
    mails.queue(signup, Kind.CONFIRM)
    return signup


def _register(signup: Signup, *, moved_up: bool) -> Signup:
    """The sign-up becomes a player of the tournament (the card's personal code comes with
    the player row). Caller holds the tournament's lock."""
    player = players.add_player(
        tournament=signup.tournament, name=signup.name, club=signup.club, email=signup.email,
        public_name_consent=signup.public_name_consent, checked_in=False,
    )
    signup.player = player
    signup.status = Status.REGISTERED
    signup.confirmed_at = signup.confirmed_at or timezone.now()
    signup.waiting_since = None
    signup.save(update_fields=["player", "status", "confirmed_at", "waiting_since"])
    mails.queue(signup, Kind.MOVED_UP if moved_up else Kind.REGISTERED)
    return signup


@transaction.atomic
def confirm(*, token: str) -> Signup:
    """Follow the confirmation link: registered while places are left, else on the waiting
    list. Idempotent: a confirmed sign-up stays as it is."""
    signup = _locked_by_token(token)
    if signup.status == Status.WITHDRAWN or selectors.expired(signup):
        raise SignupLinkInvalid(SIGNUP_LINK_INVALID)
    if signup.status != Status.PENDING:
        return signup
    tournament = signup.tournament
    if tournament.status not in selectors.BEFORE_START:
        raise SignupClosed(SIGNUP_CLOSED)
    current = selectors.state(tournament)
    place_free = current.capacity is None or current.taken < current.capacity
    if place_free and not selectors.waiting_list(tournament).exists():
        return _register(signup, moved_up=False)
    if not current.settings.waiting_list:
        raise SignupFull(SIGNUP_FULL)
    now = timezone.now()
    signup.status = Status.WAITING
    signup.confirmed_at = now
    signup.waiting_since = now
    signup.save(update_fields=["status", "confirmed_at", "waiting_since"])
    mails.queue(signup, Kind.WAITING)
    return signup


def fill_places(tournament: Tournament | int, *, exclude_player: int | None = None,
                ) -> list[Signup]:
    """Move the first of the waiting list up while places are free (and the tournament has
    not begun); each gets an e-mail. Returns who moved up."""
    with transaction.atomic():
        tournament = _locked_tournament(tournament)
        if tournament.status not in selectors.BEFORE_START:
            return []
        capacity = selectors.settings_of(tournament).capacity
        taken = selectors.places_taken(tournament, exclude_player=exclude_player)
        moved: list[Signup] = []
        for signup in selectors.waiting_list(tournament).select_for_update():
            if capacity is not None and taken >= capacity:
                break
            signup.tournament = tournament
            try:
                with transaction.atomic():
                    moved.append(_register(signup, moved_up=True))
            except players.PlayerNameTaken:  # the desk entered the same name meanwhile
                logger.warning("sign-up %s kept waiting: its name is taken", signup.pk)
                continue
            taken += 1
        return moved


@transaction.atomic
def withdraw(*, token: str) -> Signup:
    """The registrant withdraws (their page asks first). A place they held goes to the first
    of the waiting list. Idempotent."""
    signup = _locked_by_token(token)
    if signup.status == Status.WITHDRAWN:
        return signup
    tournament = signup.tournament
    held_place = signup.status == Status.REGISTERED
    if held_place:
        player = signup.player
        if tournament.status not in selectors.BEFORE_START or (
                player is not None and player.seats.exists()):
            raise SignupNotAllowed(SIGNUP_WITHDRAW_STARTED)
        signup.player = None
        signup.save(update_fields=["player"])
        if player is not None:
            with audit.action(tournament=tournament, actor=None, what="signup.withdraw"):
                Player.objects.filter(pk=player.pk).delete()
    was_pending = signup.status == Status.PENDING
    signup.status = Status.WITHDRAWN
    signup.withdrawn_at = timezone.now()
    signup.waiting_since = None
    signup.save(update_fields=["status", "withdrawn_at", "waiting_since"])
    if not was_pending:
        mails.queue(signup, Kind.WITHDRAWN)
    if held_place:
        fill_places(tournament)
    return signup


def release_player(*, player: Player) -> None:
    """A registered player leaves before the start (the organizer deleted them or dropped
    them out): their sign-up is withdrawn and the place moves to the waiting list."""
    if not Signup.objects.filter(player_id=player.pk, status=Status.REGISTERED).exists():
        return
    _locked_tournament(player.tournament_id)  # tournament first, as every write here
    signup = Signup.objects.select_for_update().filter(player_id=player.pk).first()
    if signup is None or signup.status != Status.REGISTERED:
        return
    signup.status = Status.WITHDRAWN
    signup.withdrawn_at = timezone.now()
    signup.player = None
    signup.save(update_fields=["status", "withdrawn_at", "player"])
    fill_places(player.tournament_id, exclude_player=player.pk)


def on_player_removed(sender, *, player: Player, **kwargs) -> None:
    """Receiver of ``tournament.signals.player_removed``."""
    release_player(player=player)


# --- The organizer ---------------------------------------------------------------------------


@transaction.atomic
def move_up(*, signup: Signup, actor: User | None, reason: str) -> Signup:
    """Register someone from the waiting list by hand, out of turn or beyond the places."""
    reason = " ".join((reason or "").split())[:REASON_MAX]
    if not reason:
        raise SignupNotAllowed(SIGNUP_REASON_MISSING, code="signup_reason_missing")
    tournament = _locked_tournament(signup.tournament_id)
    signup = Signup.objects.select_for_update().get(pk=signup.pk)
    signup.tournament = tournament
    if signup.status != Status.WAITING:
        raise SignupNotAllowed(SIGNUP_NOT_WAITING, params={"name": signup.name})
    with audit.action(tournament=tournament, actor=actor, what="signup.move_up", reason=reason):
        _register(signup, moved_up=True)
    return signup


@transaction.atomic
def resend_confirmation(*, signup: Signup, actor: User | None) -> SignupMail:
    """A new confirmation mail, valid 48 hours from now."""
    _locked_tournament(signup.tournament_id)
    signup = Signup.objects.select_for_update().select_related("tournament").get(pk=signup.pk)
    if signup.status != Status.PENDING:
        raise SignupNotAllowed(SIGNUP_NOT_PENDING, params={"name": signup.name})
    signup.created_at = timezone.now()
    signup.save(update_fields=["created_at"])
    return mails.queue(signup, Kind.CONFIRM)


@transaction.atomic
def resend_mail(*, mail: SignupMail, actor: User | None) -> SignupMail:
    """Send an outbox message again (a failed one, or one that did not arrive)."""
    mail = SignupMail.objects.select_for_update().get(pk=mail.pk)
    mail.status = SignupMail.Status.QUEUED
    mail.error = ""
    mail.save(update_fields=["status", "error"])
    send_after_commit(mail)
    return mail


@transaction.atomic
def save_settings(
    *, tournament: Tournament, actor: User | None, is_open: bool,
    opens_at: dt.datetime | None, closes_at: dt.datetime | None, capacity: int | None,
    waiting_list: bool, entry_fee: str,
) -> SignupSettings:
    if capacity is not None and not 2 <= capacity <= MAX_CAPACITY:
        raise SignupNotAllowed(SIGNUP_CAPACITY_INVALID, code="signup_capacity_invalid")
    if opens_at and closes_at and closes_at <= opens_at:
        raise SignupNotAllowed(SIGNUP_WINDOW_INVALID, code="signup_window_invalid")
    tournament = _locked_tournament(tournament)
    with audit.action(tournament=tournament, actor=actor, what="signup.settings"):
        settings, _created = SignupSettings.objects.update_or_create(
            tournament=tournament,
            defaults={"is_open": is_open, "opens_at": opens_at, "closes_at": closes_at,
                      "capacity": capacity, "waiting_list": waiting_list,
                      "entry_fee": " ".join((entry_fee or "").split())[:200]},
        )
    fill_places(tournament)  # more places: the waiting list moves up
    return settings


@transaction.atomic
def close_early(*, tournament: Tournament, actor: User | None) -> SignupSettings:
    tournament = _locked_tournament(tournament)
    settings = selectors.settings_of(tournament)
    with audit.action(tournament=tournament, actor=actor, what="signup.close"):
        settings.is_open = False
        settings.save()
    return settings


@transaction.atomic
def mark_fee_paid(*, player: Player, paid: bool, actor: User | None) -> Signup:
    """The desk takes the entry fee at check-in (or takes the mark back)."""
    signup = Signup.objects.select_for_update().filter(player_id=player.pk).first()
    if signup is None:
        raise SignupNotAllowed(SIGNUP_NO_FEE, code="signup_no_fee", params={"name": player.name})
    with audit.action(tournament=player.tournament_id, actor=actor, what="signup.fee"):
        signup.fee_paid_at = timezone.now() if paid else None
        signup.save(update_fields=["fee_paid_at"])
    return signup


# --- The periodic sweep ------------------------------------------------------------------------


def expire_pending(*, now: dt.datetime | None = None) -> int:
    """Delete sign-ups not confirmed within 48 hours (their mails go with them)."""
    now = now or timezone.now()
    stale = Signup.objects.filter(status=Status.PENDING,
                                  created_at__lte=now - selectors.CONFIRM_WINDOW)
    return stale.delete()[1].get(Signup._meta.label, 0)


def send_reminders(*, today: dt.date | None = None) -> int:
    """The day before the tournament each registered player gets a reminder (once)."""
    today = today or timezone.localdate()
    sent = 0
    due = Signup.objects.filter(
        status=Status.REGISTERED, tournament__date=today + dt.timedelta(days=1),
    ).exclude(mails__kind=Kind.REMINDER).select_related("tournament", "player")
    for signup in due:
        try:
            with transaction.atomic():
                mails.queue(signup, Kind.REMINDER)
        except IntegrityError:  # another sweep queued it a moment ago
            continue
        sent += 1
    return sent


def retry_outbox(*, now: dt.datetime | None = None) -> int:
    """Queue again what the broker never took (queued for over 5 minutes) and what failed
    fewer than MAX_ATTEMPTS times."""
    now = now or timezone.now()
    again = list(
        SignupMail.objects.filter(
            status=SignupMail.Status.QUEUED, created_at__lte=now - dt.timedelta(minutes=5),
            attempts__lt=MAX_ATTEMPTS,
        ).values_list("pk", flat=True)
    ) + list(
        SignupMail.objects.filter(status=SignupMail.Status.FAILED, attempts__lt=MAX_ATTEMPTS)
        .values_list("pk", flat=True)
    )
    for mail_id in again:
        enqueue(send_signup_mail, mail_id)
    return len(again)


def sweep(*, now: dt.datetime | None = None) -> dict[str, int]:
    """The periodic task: expire, remind, retry. Idempotent."""
    now = now or timezone.now()
    return {"expired": expire_pending(now=now),
            "reminded": send_reminders(today=timezone.localdate(now)),
            "retried": retry_outbox(now=now)}
