"""Alternates: a ranked list of standbys who replace a no-show before a round starts.

Official tournament rules rank the alternates beforehand; when a seated player does not turn
up, the best-ranked alternate takes the seat — before the round starts, never during a game
(a game's players are fixed once it runs). Every change is a staff action in the audit log.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournament import audit, errors, names
from tournament.models import (
    Player,
    Round,
    Seat,
    Tournament,
)
from tournament.players import errors as player_errors

#: Ranks an organizer can give (the list is short in practice).
MAX_RANK = 999

#: Round statuses in which a seat may still change hands.
BEFORE_START = (Round.Status.DRAFT, Round.Status.SEATED, Round.Status.LOCKED)


def ranked(tournament: Tournament) -> list[Player]:
    """The alternates, best rank first."""
    return list(
        tournament.players.filter(alternate_rank__isnull=False, dropped_out=False)
        .select_related("club")
        .order_by("alternate_rank")
    )


def candidates(tournament: Tournament) -> list[Player]:
    """Who may be put on the list, by name (DIN 5007): not dropped out, not on it yet, and not
    seated in a round that has not started (:func:`set_rank` refuses them: a seated player is
    no standby)."""
    seated = Seat.objects.filter(round__tournament=tournament, round__status__in=BEFORE_START)
    players = (
        tournament.players.filter(alternate_rank__isnull=True, dropped_out=False)
        .exclude(pk__in=seated.values("player_id"))
        .only("pk", "name")
    )
    return sorted(players, key=lambda player: names.sort_key(player.name))


def no_show_seats(round_: Round) -> list[Seat]:
    """The seats of ``round_`` an alternate may take, by their players' names (DIN 5007), those
    not checked in first: the likely no-shows lead, and a name is found where it is looked for,
    not at its table and seat."""
    seats = round_.seats.select_related("player", "table")
    return sorted(seats, key=lambda seat: (seat.player.checked_in, names.sort_key(seat.player.name)))


@transaction.atomic
def set_rank(*, player: Player, rank: int | None, actor: User | None = None) -> Player:
    """Make ``player`` the alternate of ``rank`` (the others from there move one down), or a
    regular player again with ``rank=None``. A player seated in a round that has not started
    yet cannot become an alternate (replace them, or re-seat the round first)."""
    tournament = player.tournament
    player = Player.objects.select_for_update().get(pk=player.pk)
    if rank is not None and (not isinstance(rank, int) or not 1 <= rank <= MAX_RANK):
        raise player_errors.AlternateRefused(player_errors.ALTERNATE_RANK_INVALID, params={"maximum": MAX_RANK})
    if rank is not None:
        open_seat = (
            Seat.objects.filter(player=player, round__status__in=BEFORE_START)
            .select_related("round")
            .first()
        )
        if open_seat is not None:
            raise player_errors.AlternateRefused(
                player_errors.ALTERNATE_SEATED,
                params={"player": player.name, "number": open_seat.round.number},
            )
    with audit.action(tournament=tournament, actor=actor, what="alternate.rank"):
        if player.alternate_rank is not None:
            player.alternate_rank = None
            player.save(update_fields=["alternate_rank"])
            _close_gaps(tournament)
        if rank is not None:
            count = tournament.players.filter(alternate_rank__isnull=False).count()
            rank = min(rank, count + 1)
            # Move the others down from the highest rank, so that the unique rank holds
            # row by row.
            for other in tournament.players.filter(alternate_rank__gte=rank).order_by(
                "-alternate_rank"
            ):
                other.alternate_rank = (other.alternate_rank or 0) + 1
                other.save(update_fields=["alternate_rank"])
            player.alternate_rank = rank
            player.save(update_fields=["alternate_rank"])
    player.refresh_from_db()
    return player


def _close_gaps(tournament: Tournament) -> None:
    for rank, other in enumerate(
        tournament.players.filter(alternate_rank__isnull=False).order_by("alternate_rank"),
        start=1,
    ):
        if other.alternate_rank != rank:
            other.alternate_rank = rank
            other.save(update_fields=["alternate_rank"])


def _standby(tournament, alternate: int | None, *, absent) -> Player:
    """The alternate asked for (locked), else the best-ranked one; refused if there is none."""
    candidates = tournament.players.select_for_update().filter(
        alternate_rank__isnull=False, dropped_out=False
    )
    if alternate is None:
        standby = candidates.order_by("alternate_rank").first()
        if standby is None:
            raise player_errors.AlternateRefused(player_errors.NO_ALTERNATE_LEFT, params={"player": absent.name})
        return standby
    standby = candidates.filter(pk=alternate).first()
    if standby is None:
        name = tournament.players.filter(pk=alternate).values_list("name", flat=True).first()
        raise player_errors.AlternateRefused(
            player_errors.NOT_AN_ALTERNATE, params={"player": name or f"#{alternate}"}
        )
    return standby


@transaction.atomic
def replace_no_show(
    *,
    round_: Round,
    absent: int,
    alternate: int | None = None,
    actor: User | None = None,
    reason: str = "",
) -> Seat:
    """Give the seat of ``absent`` (a player id) in ``round_`` to an alternate.

    ``alternate`` defaults to the best-ranked one. Refused once the round has started. The
    no-show is dropped out (they can be taken back with "undo drop-out"); the alternate
    becomes a regular player, checked in, and is seated in the following rounds as well.
    """
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(
        pk=round_.pk
    )
    tournament = round_.tournament
    if round_.status not in BEFORE_START:
        raise errors.RoundNotEditable(player_errors.REPLACE_TOO_LATE, params={"number": round_.number})
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("player", "table")
        .filter(round=round_, player_id=absent)
        .first()
    )
    if seat is None:
        name = tournament.players.filter(pk=absent).values_list("name", flat=True).first()
        raise errors.InvalidSeatingEdit(
            errors.PLAYER_NOT_SEATED,
            params={"player": name or f"#{absent}", "number": round_.number},
        )
    standby = _standby(tournament, alternate, absent=seat.player)
    no_show = seat.player
    why = reason or f"{no_show.name} → {standby.name}"
    with audit.action(tournament=tournament, actor=actor, what="alternate.replace", reason=why):
        standby.alternate_rank = None
        standby.checked_in = True
        standby.save(update_fields=["alternate_rank", "checked_in"])
        _close_gaps(tournament)
        no_show.dropped_out = True
        no_show.dropped_out_at = timezone.now()
        no_show.save(update_fields=["dropped_out", "dropped_out_at"])
        seat.player = standby
        seat.save(update_fields=["player"])
        round_.version += 1
        round_.save(update_fields=["version"])
    return seat
