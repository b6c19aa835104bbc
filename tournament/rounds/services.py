"""Writes of the organizer's domain: explicit keyword arguments, domain errors, transactions.

Rounds move ``draft → seated → locked → running → complete``; every change of a round's seating
or status raises ``Round.version`` inside a transaction that holds the round's row lock
(``select_for_update``). Edits name the version they were based on and are refused with
:class:`~tournament.errors.StaleVersion` (409, "changed meanwhile") when it is no longer
current: two organizers editing one seating never get their changes silently merged.

Closing a round (``running → complete``) needs every table's confirmed game result, which the
referee app records; it is deliberately not implemented here (see :func:`start_round`).
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from tournament import audit, errors, selectors, signals
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.rounds import bankers

logger = logging.getLogger(__name__)

#: The smallest table a game can be played at, whatever ``min_size`` says.
SMALLEST_TABLE = 2

# The bankers' writes (:mod:`tournament.rounds.bankers`) the rounds' API calls here.
assign_banker = bankers.assign_banker
banker_by_name = bankers.banker_by_name
issue_link = bankers.issue_link
revoke_link = bankers.revoke_link


def active_players(*, tournament: Tournament) -> list[Player]:
    """Players who can be seated: checked in and not dropped out."""
    return selectors.active_players(tournament)


def previous_rounds_tables(*, tournament: Tournament, before: int) -> list[list[list[int]]]:
    """Earlier rounds as lists of tables of player ids: the seating history."""
    return selectors.history_tables(tournament, before=before)


# --- Round state machine ---------------------------------------------------------------------


def _locked_round(round_: Round | int) -> Round:
    """The round re-read under its row lock (only the round's row: ``of=("self",)``)."""
    pk = round_.pk if isinstance(round_, Round) else round_
    return (
        Round.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=pk)
    )


def _check_version(round_: Round, version: int | None) -> None:
    if version is not None and version != round_.version:
        raise errors.StaleVersion(
            errors.STALE_VERSION,
            params={"number": round_.number, "yours": version, "current": round_.version},
        )


def _require_status(round_: Round, allowed: set[str], *, refusal) -> None:
    """Refuse with ``refusal`` (a message naming the rule) unless the round is in ``allowed``."""
    if round_.status not in allowed:
        raise errors.InvalidTransition(
            refusal,
            params={"number": round_.number, "status": Round.Status(round_.status).label},
        )


def _seating_changed(round_: Round) -> Round:
    """Tell the apps that build on us (``signals.seating_changed``): the referee creates the
    seated tables' games, or brings untouched ones in step, so that a read never has to."""
    signals.seating_changed.send(sender=Round, round_=round_)
    return round_


def _bump(round_: Round, *fields: str) -> Round:
    round_.version += 1
    round_.save(update_fields=["version", *fields])
    return round_


@transaction.atomic
def create_round(*, tournament: Tournament, kind: str = Round.Kind.PRELIMINARY) -> Round:
    """A new draft round after the last one; refused while an earlier round is not complete."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        raise errors.TournamentClosedForRounds(
            errors.TOURNAMENT_CLOSED_FOR_ROUNDS,
            params={"status": Tournament.Status(tournament.status).label},
        )
    unfinished = tournament.rounds.exclude(status=Round.Status.COMPLETE).order_by("number").first()
    if unfinished is not None:
        raise errors.RoundNotComplete(
            errors.ROUND_NOT_COMPLETE,
            params={"number": unfinished.number, "status": Round.Status(unfinished.status).label},
        )
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    return Round.objects.create(tournament=tournament, number=last + 1, kind=kind)


@dataclass(frozen=True, slots=True)
class SeatingOutcome:
    """What seating a round produced: its tables and the generator's report."""

    round: Round
    tables: list[Table]
    seed: int
    repeated_pairs: int
    same_club_pairs: int


def default_seed(round_: Round) -> int:
    """A seed derived from stored data (tournament, round, version), so a seating can be redone.

    The model has no field for the seed; deriving it from what *is* stored records it.
    """
    key = f"{round_.tournament_id}:{round_.number}:{round_.version}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:4], "big")


def largest_table(tournament: Tournament) -> int:
    """The most players a table of this tournament seats (one more with ``larger_tables``)."""
    return tournament.table_size + (1 if tournament.larger_tables else 0)


def _min_size(tournament: Tournament, min_size: int | None) -> int:
    if min_size is None:
        if tournament.larger_tables:
            return tournament.table_size
        return max(SMALLEST_TABLE, tournament.table_size - 1)
    if not SMALLEST_TABLE <= min_size <= tournament.table_size:
        raise errors.InvalidSeatingEdit(
            errors.INVALID_MIN_SIZE, params={"maximum": tournament.table_size}
        )
    return min_size


@transaction.atomic
def seat_round(
    *,
    round_: Round,
    seed: int | None = None,
    seconds: float = 5.0,
    players: Sequence[Player] | None = None,
    min_size: int | None = None,
    version: int | None = None,
) -> SeatingOutcome:
    """Seat (or re-seat) a draft or seated round with the seating generator.

    ``players`` defaults to the checked-in players who have not dropped out (a final passes its
    qualifiers). History = the tournament's earlier rounds; club-mates are kept apart. The
    tables keep their numbers (and bankers) where the new seating has as many; surplus tables
    go. Each table's turn order is shuffled with ``seed`` (default: :func:`default_seed`).
    """
    round_ = _locked_round(round_)
    _check_version(round_, version)
    _require_status(round_, {Round.Status.DRAFT, Round.Status.SEATED}, refusal=errors.CANNOT_SEAT)
    if round_.kind == Round.Kind.FINAL and players is None:
        # Everyone checked in would be seated (18 players at 3 tables, 3 "winners"): the
        # qualifiers are chosen from the standings, which ``scoring`` keeps.
        raise errors.InvalidTransition(
            errors.FINAL_FROM_QUALIFIERS, code="final_from_qualifiers",
            params={"number": round_.number},
        )
    tournament = round_.tournament
    minimum = _min_size(tournament, min_size)
    players = list(players) if players is not None else active_players(tournament=tournament)
    if len(players) < minimum:
        raise errors.NotEnoughPlayers(
            errors.NOT_ENOUGH_PLAYERS, params={"count": len(players), "minimum": minimum}
        )
    seed = default_seed(round_) if seed is None else seed
    result = _generate(round_, players, seed=seed, seconds=seconds, minimum=minimum,
                       larger=tournament.larger_tables and min_size is None)
    tables = _place(round_, result.rounds[0], seed=seed)
    bankers.carry_over_bankers(round_=round_, tables=tables)
    round_.status = Round.Status.SEATED
    _seating_changed(_bump(round_, "status"))
    logger.info(
        "Seated %s: %d tables, seed %d, %d repeated pairs, %d club pairs",
        round_, len(tables), seed, result.repeated_pairs, result.same_club_pairs,
    )
    return SeatingOutcome(
        round=round_,
        tables=tables,
        seed=seed,
        repeated_pairs=result.repeated_pairs,
        same_club_pairs=result.same_club_pairs,
    )


def _generate(round_: Round, players: list[Player], *, seed: int, seconds: float, minimum: int,
              larger: bool):
    """The seating generator's tables for the players: history = the tournament's earlier
    rounds (only these players), club-mates apart; tables of the size or one more (``larger``)
    as long as the numbers allow it (a small final may not)."""
    from tournament.seating import SeatingError, seat_rounds
    from tournament.seating.errors import IMPOSSIBLE_SPLIT

    tournament = round_.tournament
    clubs = {player.pk: player.club_id for player in players if player.club_id}
    known = {player.pk for player in players}
    history = [
        [kept for table in tables if (kept := [pid for pid in table if pid in known])]
        for tables in previous_rounds_tables(tournament=tournament, before=round_.number)
    ]
    if larger and len(players) % tournament.table_size > len(players) // tournament.table_size:
        larger = False
        minimum = max(SMALLEST_TABLE, tournament.table_size - 1)
    try:
        return seat_rounds(
            players=[player.pk for player in players],
            rounds=1,
            table_size=tournament.table_size,
            clubs=clubs,
            history=history,
            seed=seed,
            seconds=seconds,
            min_size=None if larger else minimum,
            larger=larger,
        )
    except SeatingError as exc:
        if exc.code == IMPOSSIBLE_SPLIT:  # the one an organizer meets: in the reader's language
            raise errors.SeatingImpossible(errors.SPLIT_IMPOSSIBLE, params=exc.params) from exc
        raise errors.SeatingImpossible(str(exc)) from exc  # arguments no view sends


def _place(round_: Round, layout: list[list[int]], *, seed: int) -> list[Table]:
    """The round's tables as laid out: numbers (and bankers) kept where there are as many,
    surplus tables gone; each table's turn order shuffled with ``seed``."""
    rng = random.Random(seed)
    Seat.objects.filter(round=round_).delete()
    round_.tables.filter(number__gt=len(layout)).delete()
    existing = {table.number: table for table in round_.tables.all()}
    missing = [
        Table(round=round_, number=number)
        for number in range(1, len(layout) + 1)
        if number not in existing
    ]
    for table in Table.objects.bulk_create(missing):
        existing[table.number] = table
    tables = [existing[number] for number in range(1, len(layout) + 1)]
    seats = []
    for table, members in zip(tables, layout, strict=True):
        order = list(members)
        rng.shuffle(order)  # the turn order: random, but repeatable from the seed
        seats.extend(
            Seat(round=round_, table=table, player_id=player_id, position=position)
            for position, player_id in enumerate(order, start=1)
        )
    Seat.objects.bulk_create(seats)
    return tables


def _undoable_round(round_: Round | int) -> Round:
    """The round under its row lock, if it may still be seated again or deleted: not closed,
    and no later round. Whether its games have begun the caller (``scoring``) checks."""
    round_ = _locked_round(round_)
    later = Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number)
    if round_.status == Round.Status.COMPLETE or later.exists():
        raise errors.InvalidTransition(
            errors.CANNOT_DELETE, code="round_not_undoable",
            params={"number": round_.number, "status": Round.Status(round_.status).label},
        )
    return round_


@transaction.atomic
def back_to_seated(*, round_: Round) -> Round:
    """A locked or running round goes back to seated (not started), to be seated again; the
    caller has checked that none of its games has begun."""
    round_ = _undoable_round(round_)
    if round_.status in (Round.Status.LOCKED, Round.Status.RUNNING):
        round_.status = Round.Status.SEATED
        round_.started_at = None
        _bump(round_, "status", "started_at")
    return round_


@transaction.atomic
def delete_round(*, round_: Round) -> int:
    """Delete a round that is not closed, with its tables, seats and banker links; returns its
    number. The caller has checked that none of its games has begun (their rows go too)."""
    round_ = _undoable_round(round_)
    number = round_.number
    round_.delete()  # row by row (the audit log's receivers): each table, seat and link is logged
    return number


@transaction.atomic
def lock_round(*, round_: Round, version: int | None = None) -> Round:
    """Freeze the seating: no more swaps, moves or re-seating (unless unlocked before start)."""
    return _seating_changed(_seating_status(round_, version, Round.Status.SEATED,
                                            Round.Status.LOCKED, refusal=errors.CANNOT_LOCK))


@transaction.atomic
def unlock_round(*, round_: Round, version: int | None = None) -> Round:
    """Back to seated, for a correction the organizer notices before the round starts."""
    return _seating_status(round_, version, Round.Status.LOCKED, Round.Status.SEATED,
                           refusal=errors.CANNOT_UNLOCK)


def _seating_status(round_: Round, version: int | None, current: str, new: str, *,
                    refusal) -> Round:
    round_ = _locked_round(round_)
    _check_version(round_, version)
    _require_status(round_, {current}, refusal=refusal)
    round_.status = new
    return _bump(round_, "status")


@transaction.atomic
def start_round(*, round_: Round, version: int | None = None) -> Round:
    """Locked → running, with ``started_at``; the tournament must be running.

    There is no ``close_round`` here on purpose: closing (running → complete, ``closed_at``)
    needs every table's confirmed result, which the referee app records; it belongs with it.
    """
    round_ = _locked_round(round_)
    _check_version(round_, version)
    _require_status(round_, {Round.Status.LOCKED}, refusal=errors.CANNOT_START)
    tournament = round_.tournament
    if tournament.status != Tournament.Status.RUNNING:
        raise errors.TournamentNotRunning(
            errors.TOURNAMENT_NOT_RUNNING,
            params={"status": Tournament.Status(tournament.status).label},
        )
    running = (
        tournament.rounds.filter(status=Round.Status.RUNNING).exclude(pk=round_.pk).first()
    )
    if running is not None:
        raise errors.InvalidTransition(
            errors.ANOTHER_ROUND_RUNNING, params={"number": running.number}
        )
    round_.status = Round.Status.RUNNING
    round_.started_at = timezone.now()
    # Again at the start: a table whose game is missing gets it (idempotent).
    return _seating_changed(_bump(round_, "status", "started_at"))


# --- Seating edits ---------------------------------------------------------------------------


def _editable_round(round_: Round, version: int) -> Round:
    round_ = _locked_round(round_)
    _check_version(round_, version)
    _require_status(round_, {Round.Status.SEATED}, refusal=errors.CANNOT_EDIT)
    return round_


def _player_label(player_id: int) -> str:
    return Player.objects.filter(pk=player_id).values_list("name", flat=True).first() or str(
        player_id
    )


def _seat_of(round_: Round, player_id: int) -> Seat:
    seat = Seat.objects.filter(round=round_, player_id=player_id).select_related("table").first()
    if seat is None:
        raise errors.InvalidSeatingEdit(
            errors.PLAYER_NOT_SEATED,
            params={"player": _player_label(player_id), "number": round_.number},
        )
    return seat


@transaction.atomic
def swap_players(*, round_: Round, a: int, b: int, version: int) -> Round:
    """Exchange the seats (table and turn position) of players ``a`` and ``b`` (player ids)."""
    round_ = _editable_round(round_, version)
    return _swap_seats(round_, a=a, b=b)


@transaction.atomic
def swap_players_with_ruling(*, round_: Round, a: int, b: int) -> Round:
    """The head referee's swap, also in a locked or running round (at full tables the only
    way to change who sits where); the caller (``referee``) has checked that neither table's
    game has begun and records the reason."""
    round_ = _locked_round(round_)
    _require_status(
        round_, {Round.Status.SEATED, Round.Status.LOCKED, Round.Status.RUNNING},
        refusal=errors.CANNOT_EDIT,
    )
    return _swap_seats(round_, a=a, b=b)


def _swap_seats(round_: Round, *, a: int, b: int) -> Round:
    if a == b:
        raise errors.InvalidSeatingEdit(errors.SAME_PLAYER)
    seat_a, seat_b = _seat_of(round_, a), _seat_of(round_, b)
    if seat_a.table_id == seat_b.table_id:
        raise errors.InvalidSeatingEdit(
            errors.SAME_TABLE, params={"a": _player_label(a), "b": _player_label(b)}
        )
    (table_a, position_a), (table_b, position_b) = (
        (seat_a.table_id, seat_a.position),
        (seat_b.table_id, seat_b.position),
    )
    # Unique (table, position) is checked row by row: park one seat at position 0 first.
    Seat.objects.filter(pk=seat_a.pk).update(position=0)
    Seat.objects.filter(pk=seat_b.pk).update(table_id=table_a, position=position_a)
    Seat.objects.filter(pk=seat_a.pk).update(table_id=table_b, position=position_b)
    number_a, number_b = seat_a.table.number, seat_b.table.number
    audit.note(
        tournament=round_.tournament_id, actor=None, what="seating.swap", obj=round_,
        fallback=True, changes={_player_label(a): [f"T{number_a}", f"T{number_b}"],
                                _player_label(b): [f"T{number_b}", f"T{number_a}"]},
    )
    return _seating_changed(_bump(round_))


@transaction.atomic
def move_player(
    *, round_: Round, player: int, to_table: int, version: int, min_size: int | None = None
) -> Round:
    """Move ``player`` (id) to table number ``to_table``, last in its turn order.

    Table sizes stay between ``min_size`` (default ``table_size - 1``) and ``table_size``.
    """
    round_ = _editable_round(round_, version)
    return _move_seat(round_, player=player, to_table=to_table, min_size=min_size)


@transaction.atomic
def move_player_with_ruling(*, round_: Round, player: int, to_table: int) -> Round:
    """The head referee's move, also in a locked or running round; the caller (``referee``)
    has checked that neither table's game has begun and records the reason."""
    round_ = _locked_round(round_)
    _require_status(
        round_, {Round.Status.SEATED, Round.Status.LOCKED, Round.Status.RUNNING},
        refusal=errors.CANNOT_EDIT,
    )
    return _move_seat(round_, player=player, to_table=to_table, min_size=None)


def _move_seat(round_: Round, *, player: int, to_table: int, min_size: int | None) -> Round:
    tournament = round_.tournament
    minimum = _min_size(tournament, min_size)
    seat = _seat_of(round_, player)
    target = round_.tables.filter(number=to_table).first()
    if target is None:
        raise errors.InvalidSeatingEdit(
            errors.NO_SUCH_TABLE, params={"number": round_.number, "table": to_table}
        )
    source = seat.table
    if target.pk == source.pk:
        raise errors.InvalidSeatingEdit(
            errors.ALREADY_AT_TABLE, params={"player": _player_label(player), "table": to_table}
        )
    source_seats = list(Seat.objects.filter(table=source).order_by("position"))
    target_positions = list(
        Seat.objects.filter(table=target).values_list("position", flat=True)
    )
    target_ok, source_ok = selectors.check_move_sizes(
        source=len(source_seats),
        target=len(target_positions),
        table_size=largest_table(tournament),
        min_size=minimum,
        smallest=SMALLEST_TABLE,
    )
    if not target_ok:
        raise errors.TableSizeViolation(
            errors.TABLE_TOO_FULL,
            params={
                "table": target.number,
                "size": len(target_positions) + 1,
                "maximum": largest_table(tournament),
            },
        )
    if not source_ok:
        raise errors.TableSizeViolation(
            errors.TABLE_TOO_SHORT,
            params={"table": source.number, "size": len(source_seats) - 1, "minimum": minimum},
        )
    Seat.objects.filter(pk=seat.pk).update(
        table=target, position=max(target_positions, default=0) + 1
    )
    # Close the gap in the source's turn order, lowest first (unique positions row by row).
    for rest in source_seats:
        if rest.position > seat.position:
            Seat.objects.filter(pk=rest.pk).update(position=rest.position - 1)
    audit.note(
        tournament=round_.tournament_id, actor=None, what="seating.move", obj=round_,
        fallback=True, changes={_player_label(player): [f"T{source.number}", f"T{target.number}"]},
    )
    return _seating_changed(_bump(round_))
