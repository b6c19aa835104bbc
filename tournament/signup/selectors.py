"""Reads of the sign-up: whether it is open now, the places, a registrant's position."""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass

from django.core.cache import cache as django_cache
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from tournament.models import (
    Signup,
    SignupMail,
    SignupSettings,
    Tournament,
)

#: A pending sign-up's confirmation link is valid this long; after it the sweep deletes it.
CONFIRM_HOURS = 48
CONFIRM_WINDOW = dt.timedelta(hours=CONFIRM_HOURS)
#: Statuses that hold a place in the tournament or in the queue for one.
ACTIVE = (Signup.Status.PENDING, Signup.Status.REGISTERED, Signup.Status.WAITING)
#: While the tournament has not begun, places change hands (withdrawals, moving up).
BEFORE_START = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


def email_key(email: str) -> str:
    """The address as compared: trimmed, NFKC and case-folded (Anna@X.de = anna@x.de)."""
    return unicodedata.normalize("NFKC", (email or "").strip()).casefold()


def settings_of(tournament: Tournament) -> SignupSettings:
    """The tournament's sign-up settings; an unsaved closed default when there are none."""
    try:
        return tournament.signup_settings
    except SignupSettings.DoesNotExist:
        return SignupSettings(tournament=tournament)


def places_taken(tournament: Tournament, *, exclude_player: int | None = None) -> int:
    """Every player of the tournament who has not dropped out holds a place (the desk's and
    the import's too, not only those who signed up)."""
    players = tournament.players.filter(dropped_out=False)
    if exclude_player is not None:
        players = players.exclude(pk=exclude_player)
    return players.count()


@dataclass(frozen=True)
class State:
    settings: SignupSettings
    open: bool
    reason: str  # "" when open; else closed, not_yet, ended, full, status
    capacity: int | None
    taken: int
    waiting: int

    @property
    def places_left(self) -> int | None:
        if self.capacity is None:
            return None
        return max(0, self.capacity - self.taken)

    @property
    def full(self) -> bool:
        return self.places_left == 0

    @property
    def closes_at(self) -> dt.datetime | None:
        return self.settings.closes_at


def state(tournament: Tournament, *, now: dt.datetime | None = None) -> State:
    """Whether people may sign up now, and why not."""
    now = now or timezone.now()
    settings = settings_of(tournament)
    taken = places_taken(tournament)
    waiting = tournament.signups.filter(status=Signup.Status.WAITING).count()
    capacity = settings.capacity
    full = capacity is not None and taken >= capacity
    if not settings.is_open:
        reason = "closed"
    elif tournament.status != Tournament.Status.REGISTRATION:
        reason = "status"
    elif settings.opens_at is not None and now < settings.opens_at:
        reason = "not_yet"
    elif settings.closes_at is not None and now >= settings.closes_at:
        reason = "ended"
    elif full and not settings.waiting_list:
        reason = "full"
    else:
        reason = ""
    return State(settings=settings, open=not reason, reason=reason, capacity=capacity,
                 taken=taken, waiting=waiting)


def is_open(tournament: Tournament) -> bool:
    return state(tournament).open


SIGNUP_LINK_SECONDS = 15


def link_shown(slug: str) -> bool:
    """Whether the tournament's public page links to the sign-up: one query at most every
    15 s per tournament (the page is the hall's busiest), the window checked each time."""
    key = f"signup-window:{slug}"
    window = django_cache.get(key)
    if window is None:
        row = (SignupSettings.objects.filter(
            tournament__slug=slug, is_open=True,
            tournament__status=Tournament.Status.REGISTRATION,
        ).values_list("opens_at", "closes_at").first())
        window = row if row is not None else ()
        django_cache.set(key, window, timeout=SIGNUP_LINK_SECONDS)
    if not window:
        return False
    opens_at, closes_at = window
    now = timezone.now()
    return (opens_at is None or opens_at <= now) and (closes_at is None or now < closes_at)


def waiting_list(tournament: Tournament) -> QuerySet[Signup]:
    """The waiting sign-ups, first in line first."""
    return tournament.signups.filter(status=Signup.Status.WAITING).order_by("waiting_since", "pk")


def position(signup: Signup) -> int | None:
    """1 for the first in line; None unless the sign-up waits."""
    if signup.status != Signup.Status.WAITING:
        return None
    ahead = waiting_list(signup.tournament).filter(
        Q(waiting_since__lt=signup.waiting_since)
        | Q(waiting_since=signup.waiting_since, pk__lt=signup.pk)
    )
    return ahead.count() + 1


def expired(signup: Signup, *, now: dt.datetime | None = None) -> bool:
    now = now or timezone.now()
    return signup.status == Signup.Status.PENDING and signup.created_at + CONFIRM_WINDOW <= now


def by_token(token: str) -> Signup | None:
    if not token or len(token) > 64:
        return None
    return Signup.objects.select_related("tournament", "player").filter(token=token).first()


def for_player(player_id: int) -> Signup | None:
    return Signup.objects.filter(player_id=player_id).first()


@dataclass(frozen=True)
class Counts:
    pending: int
    registered: int
    waiting: int
    withdrawn: int
    fee_paid: int


def counts(tournament: Tournament) -> Counts:
    data = tournament.signups.aggregate(
        pending=Count("pk", filter=Q(status=Signup.Status.PENDING)),
        registered=Count("pk", filter=Q(status=Signup.Status.REGISTERED)),
        waiting=Count("pk", filter=Q(status=Signup.Status.WAITING)),
        withdrawn=Count("pk", filter=Q(status=Signup.Status.WITHDRAWN)),
        fee_paid=Count("pk", filter=Q(fee_paid_at__isnull=False)),
    )
    return Counts(**data)


def organizer_rows(tournament: Tournament) -> list[dict]:
    """Every sign-up with its state for the organizer's page: registered, waiting (in line),
    pending, withdrawn."""
    rows = []
    order = {Signup.Status.REGISTERED: 0, Signup.Status.WAITING: 1, Signup.Status.PENDING: 2,
             Signup.Status.WITHDRAWN: 3}
    signups = list(tournament.signups.select_related("player").order_by("created_at", "pk"))
    line = {s.pk: n for n, s in enumerate(waiting_list(tournament), start=1)}
    for signup in signups:
        rows.append({"signup": signup, "position": line.get(signup.pk),
                     "expired": expired(signup)})
    rows.sort(key=lambda row: (order[row["signup"].status], row["position"] or 0,
                               row["signup"].created_at))
    return rows


def outbox(tournament: Tournament) -> QuerySet[SignupMail]:
    return tournament.outbox.select_related("signup").order_by("-created_at", "-pk")
