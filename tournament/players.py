"""Players of a tournament: add, edit, check in, drop out, and the check-in desk's search.

Writes take keyword arguments and raise :class:`~config.errors.DomainError` subclasses with
stable codes. A dropped-out player keeps their seats in past rounds; ``services.active_players``
leaves them out of future seating.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError

from .models import Club, Player, Round, Seat, Tournament

Status = Tournament.Status

NAME_MAX = Player._meta.get_field("name").max_length
CLUB_MAX = Club._meta.get_field("name").max_length
EMAIL_MAX = Player._meta.get_field("email").max_length

# --------------------------------------------------------------------------- errors


class PlayerInvalid(DomainError):
    """A player's data cannot be saved; ``field`` names the input."""

    code = "player_invalid"

    def __init__(self, message: Any, *, field: str, code: str, params: dict | None = None):
        self.field = field
        super().__init__(message, code=code, params=params)


class PlayerNameTaken(Conflict):
    code = "player_name_taken"


class PlayersLocked(Conflict):
    """The tournament's status does not allow this change to its players."""

    code = "players_locked"


class CheckInRefused(Conflict):
    code = "check_in_refused"


NAME_MISSING = _("The player needs a name.")
NAME_TOO_LONG = _("The name is %(length)s characters long; at most %(max)s are allowed.")
CLUB_TOO_LONG = _("The club name is %(length)s characters long; at most %(max)s are allowed.")
EMAIL_INVALID = _("“%(email)s” is not a valid e-mail address.")
NAME_TAKEN = _("A player named “%(name)s” is already registered in this tournament.")
TOURNAMENT_FINISHED = _("The tournament is finished; its players can no longer change.")
CHECK_IN_NOT_OPEN = _("Check-in opens with registration; the tournament is still a draft.")
CHECK_IN_DROPPED_OUT = _("%(name)s has dropped out; undo the drop-out before checking in.")
ALREADY_PLAYED = _(
    "%(name)s already has a seat in round %(number)s, so the check-in stays; use drop-out instead."
)

#: Rounds in these states have a fixed seating: who sits there has played (or is playing).
PLAYED_ROUND_STATES = (Round.Status.LOCKED, Round.Status.RUNNING, Round.Status.COMPLETE)

# --------------------------------------------------------------------------- normalising


def clean_name(value: str | None) -> str:
    """Trim and collapse inner whitespace ("  Anna   Müller " → "Anna Müller")."""
    return " ".join((value or "").split())


def _check_fields(*, name: str, club_name: str, email: str) -> None:
    if not name:
        raise PlayerInvalid(NAME_MISSING, field="name", code="player_name_missing")
    if len(name) > NAME_MAX:
        raise PlayerInvalid(
            NAME_TOO_LONG,
            field="name",
            code="player_name_too_long",
            params={"length": len(name), "max": NAME_MAX},
        )
    if len(club_name) > CLUB_MAX:
        raise PlayerInvalid(
            CLUB_TOO_LONG,
            field="club",
            code="player_club_too_long",
            params={"length": len(club_name), "max": CLUB_MAX},
        )
    if email:
        try:
            validate_email(email)
            if len(email) > EMAIL_MAX:
                raise ValidationError("too long")
        except ValidationError:
            raise PlayerInvalid(
                EMAIL_INVALID, field="email", code="player_email_invalid", params={"email": email}
            ) from None


def _check_not_finished(tournament: Tournament) -> None:
    if tournament.status == Status.FINISHED:
        raise PlayersLocked(TOURNAMENT_FINISHED, code="tournament_finished")


def _check_name_free(*, tournament: Tournament, name: str, exclude: int | None = None) -> None:
    """Names are unique per tournament, case-insensitively (the database has Lower(name)).

    Compared in Python: SQLite's LOWER() and LIKE only fold ASCII, so "MÜLLER" would slip past.
    """
    others = tournament.players.all()
    if exclude is not None:
        others = others.exclude(pk=exclude)
    lowered = name.lower()
    if any(other.lower() == lowered for other in others.values_list("name", flat=True)):
        raise PlayerNameTaken(NAME_TAKEN, params={"name": name})


def club_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def find_clubs(names: Iterable[str]) -> dict[str, Club]:
    """Existing clubs matching ``names`` by name or short name, case-insensitively (by key)."""
    wanted = {club_key(name) for name in names if name}
    if not wanted:
        return {}
    found: dict[str, Club] = {}
    by_short: dict[str, Club] = {}
    for club in Club.objects.only("id", "name", "short_name"):
        key = club_key(club.name)
        if key in wanted:
            found[key] = club
        if club.short_name and club_key(club.short_name) in wanted:
            by_short.setdefault(club_key(club.short_name), club)
    for key, club in by_short.items():
        found.setdefault(key, club)
    return found


def resolve_club(name: str) -> Club | None:
    """The club called ``name`` (or with that short name); created when there is none."""
    name = " ".join((name or "").split())
    if not name:
        return None
    club = find_clubs([name]).get(club_key(name))
    if club is None:
        club = Club.objects.create(name=name)
    return club


# --------------------------------------------------------------------------- writes


@transaction.atomic
def add_player(
    *,
    tournament: Tournament,
    name: str,
    club: str = "",
    email: str = "",
    public_name_consent: bool = False,
    private_note: str = "",
    checked_in: bool | None = None,
) -> Player:
    """Register a player. While the tournament runs this is a late entry: checked in at once."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_not_finished(tournament)
    name, club_name, email = clean_name(name), clean_name(club), (email or "").strip()
    _check_fields(name=name, club_name=club_name, email=email)
    if checked_in is None:
        checked_in = tournament.status == Status.RUNNING
    if checked_in and tournament.status == Status.DRAFT:
        raise CheckInRefused(CHECK_IN_NOT_OPEN, code="check_in_not_open")
    _check_name_free(tournament=tournament, name=name)
    try:
        with transaction.atomic():
            return Player.objects.create(
                tournament=tournament,
                name=name,
                club=resolve_club(club_name),
                email=email,
                public_name_consent=public_name_consent,
                private_note=private_note or "",
                checked_in=checked_in,
            )
    except IntegrityError:  # a second desk registered the same name a moment ago
        raise PlayerNameTaken(NAME_TAKEN, params={"name": name}) from None


@transaction.atomic
def update_player(
    *,
    player: Player,
    name: str,
    club: str = "",
    email: str = "",
    public_name_consent: bool = False,
    private_note: str = "",
) -> Player:
    player = (
        Player.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=player.pk)
    )
    _check_not_finished(player.tournament)
    name, club_name, email = clean_name(name), clean_name(club), (email or "").strip()
    _check_fields(name=name, club_name=club_name, email=email)
    _check_name_free(tournament=player.tournament, name=name, exclude=player.pk)
    player.name = name
    player.club = resolve_club(club_name)
    player.email = email
    player.public_name_consent = public_name_consent
    player.private_note = private_note or ""
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise PlayerNameTaken(NAME_TAKEN, params={"name": name}) from None
    return player


def _locked(player: Player) -> Player:
    return (
        Player.objects.select_for_update(of=("self",))
        .select_related("tournament", "club")
        .get(pk=player.pk)
    )


@transaction.atomic
def check_in(*, player: Player) -> Player:
    """Mark the player present. Idempotent; refused for drafts, finished and dropped out."""
    player = _locked(player)
    _check_not_finished(player.tournament)
    if player.tournament.status == Status.DRAFT:
        raise CheckInRefused(CHECK_IN_NOT_OPEN, code="check_in_not_open")
    if player.dropped_out:
        raise CheckInRefused(
            CHECK_IN_DROPPED_OUT, code="player_dropped_out", params={"name": player.name}
        )
    if not player.checked_in:
        player.checked_in = True
        player.save(update_fields=["checked_in"])
    return player


@transaction.atomic
def undo_check_in(*, player: Player) -> Player:
    """Take back a check-in made by mistake; refused once the player sat at a fixed seating."""
    player = _locked(player)
    _check_not_finished(player.tournament)
    if not player.checked_in:
        return player
    seat = (
        Seat.objects.filter(player=player, round__status__in=PLAYED_ROUND_STATES)
        .select_related("round")
        .order_by("round__number")
        .first()
    )
    if seat is not None:
        raise CheckInRefused(
            ALREADY_PLAYED,
            code="player_already_played",
            params={"name": player.name, "number": seat.round.number},
        )
    player.checked_in = False
    player.save(update_fields=["checked_in"])
    return player


@transaction.atomic
def drop_out(*, player: Player) -> Player:
    """The player leaves: kept in past rounds, skipped by future seating. Idempotent."""
    player = _locked(player)
    _check_not_finished(player.tournament)
    if not player.dropped_out:
        player.dropped_out = True
        player.dropped_out_at = timezone.now()
        player.save(update_fields=["dropped_out", "dropped_out_at"])
    return player


@transaction.atomic
def undo_drop_out(*, player: Player) -> Player:
    player = _locked(player)
    _check_not_finished(player.tournament)
    if player.dropped_out:
        player.dropped_out = False
        player.dropped_out_at = None
        player.save(update_fields=["dropped_out", "dropped_out_at"])
    return player


# --------------------------------------------------------------------------- reads


@dataclass(frozen=True)
class DeskCounts:
    registered: int  # not dropped out
    checked_in: int  # checked in and not dropped out
    dropped_out: int

    @property
    def missing(self) -> int:
        return self.registered - self.checked_in


def desk_counts(tournament: Tournament) -> DeskCounts:
    """The desk's counters in one query."""
    data = tournament.players.aggregate(
        registered=Count("pk", filter=Q(dropped_out=False)),
        checked_in=Count("pk", filter=Q(dropped_out=False, checked_in=True)),
        dropped_out=Count("pk", filter=Q(dropped_out=True)),
    )
    return DeskCounts(**data)


SHOW_ALL, SHOW_MISSING, SHOW_CHECKED_IN = "all", "missing", "checked_in"


def search_players(
    tournament: Tournament, query: str = "", *, show: str = SHOW_ALL
) -> QuerySet[Player]:
    """Players whose name or club contains every word of ``query`` (case-insensitive)."""
    players = tournament.players.select_related("club")
    for word in query.split()[:6]:
        players = players.filter(
            Q(name__icontains=word)
            | Q(club__name__icontains=word)
            | Q(club__short_name__icontains=word)
        )
    if show == SHOW_MISSING:
        players = players.filter(checked_in=False, dropped_out=False)
    elif show == SHOW_CHECKED_IN:
        players = players.filter(checked_in=True, dropped_out=False)
    return players.order_by("name", "pk")


def desk_rows(
    tournament: Tournament, query: str = "", *, show: str = SHOW_ALL, limit: int = 100
) -> tuple[list[Player], bool]:
    """At most ``limit`` matching players (one query) and whether there were more."""
    rows = list(search_players(tournament, query, show=show)[: limit + 1])
    return rows[:limit], len(rows) > limit
