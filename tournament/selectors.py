"""Reads of the organizer's domain, shaped for pages and the API (no N+1 queries)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from tournament.models import (
    BankerLink,
    Player,
    Round,
    Seat,
    StaffRole,
    Table,
    Tournament,
)


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.exclude(status=Tournament.Status.DRAFT).order_by("-date", "name")


def tournaments_with_counts() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        player_count=Count("players", distinct=True),
        checked_in_count=Count("players", filter=Q(players__checked_in=True), distinct=True),
        round_count=Count("rounds", distinct=True),
    ).order_by("-date", "name")


def current_round(tournament: Tournament) -> Round | None:
    """The round the hall is playing or about to play: the newest one that is not a draft."""
    return (
        tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    )


#: Rounds the public sees: seated and locked rounds are the organizers' until they start.
PUBLIC_ROUND_STATUSES = (Round.Status.RUNNING, Round.Status.COMPLETE)


def public_round(tournament: Tournament) -> Round | None:
    """The round the public pages show: the newest that has started (a seated round that has
    not started yet is not public: its tables say nothing yet, and its seating is announced
    in the hall)."""
    return (
        tournament.rounds.filter(status__in=PUBLIC_ROUND_STATUSES).order_by("-number").first()
    )


def round_is_public(round_: Round) -> bool:
    return round_.status in PUBLIC_ROUND_STATUSES


def results_held(round_: Round) -> bool:
    """With “results public at once” off, places, net worth and standings of a round stay
    hidden from the public until the round is closed: on every public page and in the API."""
    return (not round_.tournament.results_public_immediately
            and round_.status != Round.Status.COMPLETE)


def tables_with_seats(round_: Round) -> QuerySet[Table]:
    seats = Seat.objects.select_related("player__club").order_by("position")
    return (
        round_.tables.select_related("banker")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )


def tables_banked_by(user: User) -> QuerySet[Table]:
    seats = Seat.objects.select_related("player__club").order_by("position")
    return (
        Table.objects.filter(banker=user)
        .select_related("round__tournament")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-round__tournament__date", "round__number", "number")
    )


# --- Rounds, seating quality, seating previews, bankers ------------------------------------


def active_players(tournament: Tournament) -> list[Player]:
    """Players who can be seated: checked in, not dropped out, not a standby (alternate)."""
    return list(
        tournament.players.filter(checked_in=True, dropped_out=False, alternate_rank=None)
        .select_related("club")
        .order_by("pk")
    )


def history_tables(tournament: Tournament, *, before: int) -> list[list[list[int]]]:
    """Rounds numbered below ``before`` as lists of tables of player ids (one query)."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
        .values_list("round__number", "table__number", "player_id")
        .order_by("round__number", "table__number", "position")
    )
    for number, table_number, player_id in seats:
        rounds.setdefault(number, {}).setdefault(table_number, []).append(player_id)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.annotate(
        table_count=Count("tables", distinct=True), seat_count=Count("seats", distinct=True)
    ).order_by("number")


def check_move_sizes(
    *, source: int, target: int, table_size: int, min_size: int, smallest: int = 2
) -> tuple[bool, bool]:
    """Whether moving one player keeps the target within ``table_size`` and the source long enough.

    ``source``/``target`` are the sizes before the move. The source may fall below ``min_size``
    only if it stays at least as long as the target was (the move evens tables out; it never
    makes the shortest table shorter); never below ``smallest``. Returns
    ``(target_ok, source_ok)``.
    """
    target_ok = target + 1 <= table_size
    source_after = source - 1
    source_ok = source_after >= smallest and (source_after >= min_size or source_after >= target)
    return target_ok, source_ok


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: Seat
    met_before: list[str]
    club_mates: list[str]

    @property
    def player(self) -> Player:
        return self.seat.player


@dataclass(frozen=True, slots=True)
class TableLine:
    table: Table
    seats: list[SeatLine]
    repeats: int
    same_club: int


@dataclass(frozen=True)
class SeatingOverview:
    """A round's seating with its quality: per-table and total repeats and club-mate pairs.

    Repeats count pairs who already met in an earlier round of the tournament (a pair's extra
    meeting, as the seating spec's ``repeated_pairs``); built with a constant number of queries.
    """

    round: Round
    tables: list[TableLine]
    repeats: int
    same_club: int
    layout: list[list[int]]
    history: list[list[list[int]]]
    meetings: Counter
    clubs: dict[int, int]
    players: dict[int, Player]
    unseated: list[Player]
    dropped: list[Player]

    @property
    def numbers(self) -> list[int]:
        return [line.table.number for line in self.tables]

    def table_index(self, number: int) -> int | None:
        try:
            return self.numbers.index(number)
        except ValueError:
            return None

    def table_index_of(self, player_id: int) -> int | None:
        for index, members in enumerate(self.layout):
            if player_id in members:
                return index
        return None


def seating_overview(round_: Round, *, tables: Sequence[Table] | None = None) -> SeatingOverview:
    from tournament.seating import count_repeats, count_same_club, pair_meetings

    tables = list(tables) if tables is not None else list(tables_with_seats(round_))
    tournament = round_.tournament
    history = history_tables(tournament, before=round_.number)
    meetings = pair_meetings(rounds=history)
    players: dict[int, Player] = {}
    layout: list[list[int]] = []
    for table in tables:
        members = []
        for seat in table.seats.all():
            players[seat.player_id] = seat.player
            members.append(seat.player_id)
        layout.append(members)
    clubs = {pid: player.club_id for pid, player in players.items() if player.club_id}
    lines = []
    for table, members in zip(tables, layout, strict=True):
        seat_lines = []
        repeats = same_club = 0
        for seat in table.seats.all():
            met = [
                players[other].name
                for other in members
                if other != seat.player_id and meetings.get(frozenset((seat.player_id, other)))
            ]
            club = clubs.get(seat.player_id)
            mates = [
                players[other].name
                for other in members
                if other != seat.player_id and club is not None and clubs.get(other) == club
            ]
            repeats += len(met)
            same_club += len(mates)
            seat_lines.append(SeatLine(seat=seat, met_before=met, club_mates=mates))
        lines.append(
            TableLine(table=table, seats=seat_lines, repeats=repeats // 2, same_club=same_club // 2)
        )
    seated = set(players)
    unseated = []
    # the final seats its finalists only: the others are not "missing" from it
    if round_.kind != Round.Kind.FINAL and round_.status in (
            Round.Status.DRAFT, Round.Status.SEATED, Round.Status.LOCKED):
        unseated = [p for p in active_players(tournament) if p.pk not in seated]
    dropped = [player for player in players.values() if player.dropped_out]
    return SeatingOverview(
        round=round_,
        tables=lines,
        repeats=count_repeats(rounds=[layout], history=history),
        same_club=count_same_club(rounds=[layout], clubs=clubs),
        layout=layout,
        history=history,
        meetings=meetings,
        clubs=clubs,
        players=players,
        unseated=unseated,
        dropped=dropped,
    )


@dataclass(frozen=True, slots=True)
class TableChange:
    number: int
    repeats_before: int
    repeats_after: int
    same_club_before: int
    same_club_after: int
    size_before: int
    size_after: int


@dataclass(frozen=True, slots=True)
class SeatingPreview:
    """The seating's quality if an edit were saved (nothing is saved)."""

    action: str
    repeats_before: int
    repeats_after: int
    same_club_before: int
    same_club_after: int
    tables: list[TableChange]

    @property
    def repeats_delta(self) -> int:
        return self.repeats_after - self.repeats_before

    @property
    def same_club_delta(self) -> int:
        return self.same_club_after - self.same_club_before


def _seated_index(overview: SeatingOverview, player_id: int) -> int:
    from tournament import errors

    index = overview.table_index_of(player_id)
    if index is None:
        name = overview.players[player_id].name if player_id in overview.players else player_id
        raise errors.InvalidSeatingEdit(
            errors.PLAYER_NOT_SEATED, params={"player": name, "number": overview.round.number}
        )
    return index


def _preview(overview, action, delta, changed: dict[int, list[int]]) -> SeatingPreview:
    from tournament.seating import table_club_pairs, table_repeats

    meetings = overview.meetings
    rows = []
    for index, after in sorted(changed.items()):
        line, before = overview.tables[index], overview.layout[index]
        rows.append(
            TableChange(
                number=line.table.number,
                repeats_before=line.repeats,
                repeats_after=table_repeats(table=after, meetings=meetings),
                same_club_before=line.same_club,
                same_club_after=table_club_pairs(table=after, clubs=overview.clubs),
                size_before=len(before),
                size_after=len(after),
            )
        )
    return SeatingPreview(
        action=action,
        repeats_before=overview.repeats,
        repeats_after=overview.repeats + delta.repeats,
        same_club_before=overview.same_club,
        same_club_after=overview.same_club + delta.same_club,
        tables=rows,
    )


def preview_swap(overview: SeatingOverview, *, a: int, b: int) -> SeatingPreview:
    """Quality after swapping players ``a`` and ``b`` (ids), by ``evaluate_swap``."""
    from tournament import errors
    from tournament.seating import evaluate_swap

    if a == b:
        raise errors.InvalidSeatingEdit(errors.SAME_PLAYER)
    ta, tb = _seated_index(overview, a), _seated_index(overview, b)
    if ta == tb:
        raise errors.InvalidSeatingEdit(
            errors.SAME_TABLE,
            params={"a": overview.players[a].name, "b": overview.players[b].name},
        )
    delta = evaluate_swap(
        tables=overview.layout, a=a, b=b, meetings=overview.meetings, clubs=overview.clubs
    )
    after_a = [b if p == a else p for p in overview.layout[ta]]
    after_b = [a if p == b else p for p in overview.layout[tb]]
    return _preview(overview, "swap", delta, {ta: after_a, tb: after_b})


def preview_move(
    overview: SeatingOverview, *, player: int, to_table: int, min_size: int | None = None
) -> SeatingPreview:
    """Quality after moving ``player`` (id) to table number ``to_table``, by ``evaluate_move``.

    Refused as the save would be: unknown table, same table, or table sizes out of range.
    """
    from tournament import errors
    from tournament.seating import evaluate_move

    tournament = overview.round.tournament
    minimum = max(2, tournament.table_size - 1) if min_size is None else min_size
    source = _seated_index(overview, player)
    target = overview.table_index(to_table)
    if target is None:
        raise errors.InvalidSeatingEdit(
            errors.NO_SUCH_TABLE, params={"number": overview.round.number, "table": to_table}
        )
    if target == source:
        raise errors.InvalidSeatingEdit(
            errors.ALREADY_AT_TABLE,
            params={"player": overview.players[player].name, "table": to_table},
        )
    source_size, target_size = len(overview.layout[source]), len(overview.layout[target])
    target_ok, source_ok = check_move_sizes(
        source=source_size, target=target_size, table_size=tournament.table_size, min_size=minimum
    )
    if not target_ok:
        raise errors.TableSizeViolation(
            errors.TABLE_TOO_FULL,
            params={"table": to_table, "size": target_size + 1, "maximum": tournament.table_size},
        )
    if not source_ok:
        raise errors.TableSizeViolation(
            errors.TABLE_TOO_SHORT,
            params={
                "table": overview.numbers[source],
                "size": source_size - 1,
                "minimum": minimum,
            },
        )
    delta = evaluate_move(
        tables=overview.layout,
        player=player,
        to_table=target,
        meetings=overview.meetings,
        clubs=overview.clubs,
    )
    after_source = [p for p in overview.layout[source] if p != player]
    after_target = [*overview.layout[target], player]
    return _preview(overview, "move", delta, {source: after_source, target: after_target})


def tables_with_links(round_: Round) -> QuerySet[Table]:
    """The round's tables with seats, banker, (as ``live_links``) the live banker link and
    (``has_revoked_link``) whether a revoked one exists that could be restored."""
    live = BankerLink.objects.filter(revoked_at__isnull=True).select_related("banker")
    revoked = BankerLink.objects.filter(table=OuterRef("pk"), revoked_at__isnull=False)
    return (
        tables_with_seats(round_)
        .annotate(has_revoked_link=Exists(revoked))
        .prefetch_related(Prefetch("banker_links", queryset=live, to_attr="live_links"))
    )


def banker_candidates(tournament: Tournament) -> QuerySet[User]:
    """Accounts that may bank in this tournament: its bankers and those banking one of its tables."""
    return (
        User.objects.filter(is_active=True)
        .filter(
            Q(staff_roles__tournament=tournament, staff_roles__role=StaffRole.Role.BANKER)
            | Q(banked_tables__round__tournament=tournament)
        )
        .distinct()
        .order_by("username")
    )
