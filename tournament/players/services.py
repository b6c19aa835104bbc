"""Players of a tournament: add, edit, check in, drop out, and the check-in desk's search.

Writes take keyword arguments and raise :class:`~config.errors.DomainError` subclasses with
stable codes. A dropped-out player keeps their seats in past rounds; ``services.active_players``
leaves them out of future seating.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, Min, OuterRef, Q, QuerySet
from django.utils import timezone

from config.errors import Conflict
from config.inputs import visible_text
from tournament import audit, names, signals
from tournament.models import (
    PASS_CODE_ALPHABET,
    PASS_CODE_LENGTH,
    PRIVATE_NOTE_MAX,
    Club,
    Player,
    Round,
    Seat,
    Tournament,
    new_pass_code,
)
from tournament.players.errors import (
    ALREADY_PLAYED,
    CHECK_IN_DROPPED_OUT,
    CHECK_IN_NOT_OPEN,
    CLUB_TOO_LONG,
    EMAIL_INVALID,
    NAME_MISSING,
    NAME_TAKEN,
    NAME_TOO_LONG,
    PLAYER_SEATED,
    PRIVATE_NOTE_TOO_LONG,
    TOURNAMENT_FINISHED,
    CheckInRefused,
    PlayerInvalid,
    PlayerNameTaken,
    PlayersLocked,
)

Status = Tournament.Status

NAME_MAX = Player._meta.get_field("name").max_length
CLUB_MAX = Club._meta.get_field("name").max_length
EMAIL_MAX = Player._meta.get_field("email").max_length

#: Rounds in these states have a fixed seating: who sits there has played (or is playing).
PLAYED_ROUND_STATES = (Round.Status.LOCKED, Round.Status.RUNNING, Round.Status.COMPLETE)

# --------------------------------------------------------------------------- normalising


def clean_name(value: str | None) -> str:
    """Trim and collapse inner whitespace ("  Anna   Müller " → "Anna Müller"); control,
    bidi and zero-width characters are dropped (:func:`config.inputs.visible_text`)."""
    return " ".join(visible_text(value).split())


def valid_email(email: str) -> bool:
    """An address Django accepts and the database column holds."""
    try:
        validate_email(email)
    except ValidationError:
        return False
    return len(email) <= EMAIL_MAX


def _check_length(value: str, maximum: int, message: Any, *, field: str, code: str) -> None:
    """A text longer than its column (or bound) is refused, naming the field and both lengths."""
    if len(value) > maximum:
        raise PlayerInvalid(
            message, field=field, code=code, params={"length": len(value), "max": maximum}
        )


def _check_note(private_note: str) -> None:
    """Bounded like an incident's note: a note is kept, copied into the audit log and the
    export, and a megabyte pasted by mistake (or on purpose) would ride along everywhere."""
    _check_length(private_note, PRIVATE_NOTE_MAX, PRIVATE_NOTE_TOO_LONG,
                  field="private_note", code="player_note_too_long")


def _check_fields(*, name: str, club_name: str, email: str) -> None:
    if not name:
        raise PlayerInvalid(NAME_MISSING, field="name", code="player_name_missing")
    _check_length(name, NAME_MAX, NAME_TOO_LONG, field="name", code="player_name_too_long")
    _check_length(club_name, CLUB_MAX, CLUB_TOO_LONG, field="club", code="player_club_too_long")
    if email and not valid_email(email):
        raise PlayerInvalid(
            EMAIL_INVALID, field="email", code="player_email_invalid", params={"email": email}
        )


#: The desk's checks of a player's name, club and e-mail (the public sign-up uses them too).
check_fields = _check_fields


def _cleaned(*, name: str, club: str, email: str, private_note: str) -> tuple[str, str, str]:
    """The desk's form as a registration or an edit stores it: name, club name and e-mail
    cleaned, each checked, and the note bounded (a refusal names the field)."""
    name, club_name, email = clean_name(name), clean_name(club), (email or "").strip()
    _check_fields(name=name, club_name=club_name, email=email)
    _check_note(private_note)
    return name, club_name, email


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


check_name_free = _check_name_free


def look_alikes(player: Player) -> list[Player]:
    """The tournament's other players whose name looks like ``player``'s ("Juergen Weiss"
    beside "Jürgen Weiß", a Cyrillic е, other case): perhaps one person entered twice. A
    read for the desk's warning; two people may share a name, so nothing is refused."""
    key = names.look_alike_key(player.name)
    others = player.tournament.players.exclude(pk=player.pk).only("id", "name").order_by("name")
    return [other for other in others if names.look_alike_key(other.name) == key]


def club_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def find_clubs(names: Iterable[str], *, tournament: Tournament) -> dict[str, Club]:
    """The tournament's clubs matching ``names`` by name or short name, case-insensitively
    (by key); another tournament's clubs are never found."""
    wanted = {club_key(name) for name in names if name}
    if not wanted:
        return {}
    found: dict[str, Club] = {}
    by_short: dict[str, Club] = {}
    for club in Club.objects.filter(tournament=tournament).only("id", "name", "short_name"):
        key = club_key(club.name)
        if key in wanted:
            found[key] = club
        if club.short_name and club_key(club.short_name) in wanted:
            by_short.setdefault(club_key(club.short_name), club)
    for key, club in by_short.items():
        found.setdefault(key, club)
    return found


def resolve_club(name: str, *, tournament: Tournament) -> Club | None:
    """The tournament's club called ``name`` (or with that short name); created when there is
    none."""
    name = " ".join((name or "").split())
    if not name:
        return None
    club = find_clubs([name], tournament=tournament).get(club_key(name))
    if club is None:
        club = Club.objects.create(tournament=tournament, name=name)
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
    name, club_name, email = _cleaned(name=name, club=club, email=email,
                                      private_note=private_note or "")
    if checked_in is None:
        checked_in = tournament.status == Status.RUNNING
    if checked_in and tournament.status == Status.DRAFT:
        raise CheckInRefused(CHECK_IN_NOT_OPEN, code="check_in_not_open")
    _check_name_free(tournament=tournament, name=name)
    with _name_kept(name):
        return Player.objects.create(
            tournament=tournament,
            name=name,
            club=resolve_club(club_name, tournament=tournament),
            email=email,
            public_name_consent=public_name_consent,
            private_note=private_note or "",
            checked_in=checked_in,
        )


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
    player = _changeable(player)
    name, club_name, email = _cleaned(name=name, club=club, email=email,
                                      private_note=private_note or "")
    _check_name_free(tournament=player.tournament, name=name, exclude=player.pk)
    player.name = name
    player.club = resolve_club(club_name, tournament=player.tournament)
    player.email = email
    player.public_name_consent = public_name_consent
    player.private_note = private_note or ""
    with _name_kept(name):
        player.save()
    return player


@contextmanager
def _name_kept(name: str) -> Iterator[None]:
    """A write of a player called ``name``: when a second desk stored the same name a moment
    ago (after the check, before the write: the unique constraint), the refusal the check
    gives."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise PlayerNameTaken(NAME_TAKEN, params={"name": name}) from None


def _locked(player: Player) -> Player:
    return (
        Player.objects.select_for_update(of=("self",))
        .select_related("tournament", "club")
        .get(pk=player.pk)
    )


def _changeable(player: Player) -> Player:
    """The player, locked for a change of their registration; refused once the tournament is
    finished."""
    player = _locked(player)
    _check_not_finished(player.tournament)
    return player


@transaction.atomic
def check_in(*, player: Player) -> Player:
    """Mark the player present. Idempotent; refused for drafts, finished and dropped out."""
    player = _changeable(player)
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
def renew_pass_code(*, player: Player) -> Player:
    """A new personal code: the old one (a lost card, a code seen by someone else) stops
    opening the player's page at once. The desk prints a new card."""
    player = _locked(player)
    player.pass_code = new_pass_code()
    while Player.objects.filter(pass_code=player.pass_code).exists():
        player.pass_code = new_pass_code()
    player.save(update_fields=["pass_code"])
    return player


def normal_pass_code(text: str) -> str:
    """As typed ("km7q-4xpz", "KM7Q 4XPZ") → as stored ("KM7Q4XPZ"); case and dashes ignored."""
    return "".join(char for char in (text or "").upper() if char.isalnum())[:PASS_CODE_LENGTH * 2]


def player_by_pass_code(code: str) -> Player | None:
    """The player a personal code opens (any tournament), or None for an unknown or renewed
    code. A read: never writes."""
    code = normal_pass_code(code)
    if len(code) != PASS_CODE_LENGTH or any(c not in PASS_CODE_ALPHABET for c in code):
        return None
    return (Player.objects.filter(pass_code=code).select_related("tournament", "club")
            .first())


def pass_code_display(code: str) -> str:
    """ "KM7Q4XPZ" → "KM7Q-4XPZ" (printed and shown, easy to read out)."""
    return f"{code[:4]}-{code[4:]}" if len(code) == PASS_CODE_LENGTH else code


@transaction.atomic
def undo_check_in(*, player: Player) -> Player:
    """Take back a check-in made by mistake; refused once the player sat at a fixed seating."""
    player = _changeable(player)
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
    player = _changeable(player)
    if not player.dropped_out:
        with audit.action(tournament=player.tournament_id, actor=None, what="player.drop"):
            player.dropped_out = True
            player.dropped_out_at = timezone.now()
            player.save(update_fields=["dropped_out", "dropped_out_at"])
        _announce_removed(player)
    return player


def _announce_removed(player: Player) -> None:
    """Before the tournament begins a player who leaves frees a place (the sign-up's waiting
    list moves up: ``tournament.signup``)."""
    if player.tournament.status in (Status.DRAFT, Status.REGISTRATION):
        signals.player_removed.send(sender=Player, player=player)


@transaction.atomic
def undo_drop_out(*, player: Player) -> Player:
    player = _changeable(player)
    if player.dropped_out:
        with audit.action(tournament=player.tournament_id, actor=None, what="player.undo_drop"):
            player.dropped_out = False
            player.dropped_out_at = None
            player.save(update_fields=["dropped_out", "dropped_out_at"])
    return player


@transaction.atomic
def delete_player(*, player: Player) -> str:
    """A player entered by mistake goes, as long as they were never seated; returns the name."""
    player = _locked(player)
    if player.seats.exists():
        raise Conflict(PLAYER_SEATED, code="player_seated", params={"name": player.name})
    name = player.name
    _announce_removed(player)
    with audit.action(tournament=player.tournament_id, actor=None, what="player.delete"):
        player.delete()
    return name


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


def _shown(tournament: Tournament, show: str) -> QuerySet[Player]:
    players = tournament.players.all()
    if show == SHOW_MISSING:
        players = players.filter(checked_in=False, dropped_out=False)
    elif show == SHOW_CHECKED_IN:
        players = players.filter(checked_in=True, dropped_out=False)
    return players


def _matching(players: QuerySet[Player], query: str) -> list[tuple[int, str]]:
    """(pk, name) of the players whose name or club contains every word of ``query``,
    German-folded ("weiss" finds Weiß, "Mueller" Müller). SQL's LIKE cannot fold ß or umlauts,
    so the match runs in Python over four short columns (1,200 players: a few ms)."""
    words = " ".join(query.split()[:6])
    rows = players.values_list("pk", "name", "club__name", "club__short_name")
    return [
        (pk, name)
        for pk, name, club, short in rows
        if not words or names.matches(words, name, club or "", short or "")
    ]


def search_players(
    tournament: Tournament, query: str = "", *, show: str = SHOW_ALL
) -> QuerySet[Player]:
    """Players whose name or club contains every word of ``query`` (German-folded)."""
    players = _shown(tournament, show)
    found = [pk for pk, _name in _matching(players, query)]
    return players.filter(pk__in=found).select_related("club")


def desk_rows(
    tournament: Tournament, query: str = "", *, show: str = SHOW_ALL, limit: int = 100
) -> tuple[list[Player], bool]:
    """At most ``limit`` matching players in German order (DIN 5007), and whether there were
    more. Two queries: the names to match and sort, then the rows shown."""
    found = sorted(_matching(_shown(tournament, show), query),
                   key=lambda row: names.sort_key(row[1]))
    shown = [pk for pk, _name in found[:limit]]
    by_pk = _as_the_desk_shows().in_bulk(shown)
    return [by_pk[pk] for pk in shown if pk in by_pk], len(found) > limit


def desk_row(player_id: int) -> Player:
    """One player as the desk shows them (the row a desk action answers with)."""
    return _as_the_desk_shows().get(pk=player_id)


def _as_the_desk_shows() -> QuerySet[Player]:
    """Players with their club and sign-up, and ``check_in_kept``: seated in a round that has
    begun, their check-in can no longer be taken back (:func:`undo_check_in`), so the desk
    offers no button that could only be refused — a drop-out takes them out then."""
    played = Seat.objects.filter(player=OuterRef("pk"), round__status__in=PLAYED_ROUND_STATES)
    return Player.objects.select_related("club", "signup").annotate(check_in_kept=Exists(played))


def next_open_round(tournament: Tournament) -> int:
    """The first round whose seating is not made yet: where a player entering now sits first."""
    seated = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    return seated.number + 1 if seated else 1


def mark_seated_from(tournament: Tournament, rows: list[Player]) -> list[Player]:
    """Sets ``seated_from`` on each row: the round the player sits first (their first seat, or
    the next open round for a present player without one); ``None`` for round 1 regulars."""
    first = dict(
        Seat.objects.filter(player__in=rows)
        .values("player")
        .annotate(first=Min("round__number"))
        .values_list("player", "first")
    )
    opening = next_open_round(tournament)
    for player in rows:
        number = first.get(player.pk)
        if number is None and player.checked_in and not player.dropped_out and opening > 1:
            number = opening
        player.seated_from = number if number and number > 1 else None
    return rows
