"""Incidents and penalties: the head referee rules on a player's conduct, sees the player's
earlier incidents while doing so, and deductions reach the standings (``scoring`` listens)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, Sum
from django.utils.translation import gettext_lazy as _

from tournament import audit, errors
from tournament.models import Incident, Player, Round, Tournament
from tournament.players import services as players

Level = Incident.Level
MAX_DEDUCTION = 100

# The fields' labels, shared by the form and the refusals that name them.
RULING = _("Ruling")
POINTS = _("Points deducted")
TABLE = _("Table")
NOTE = _("What happened")


@transaction.atomic
def record_incident(
    *,
    player: Player,
    level: str,
    note: str,
    by: User | None,
    points: int = 0,
    round_number: int | None = None,
    table_number: int | None = None,
) -> Incident:
    note = (note or "").strip()
    if not note:
        raise errors.InvalidForm(fields=[NOTE])
    if level not in Level.values:
        raise errors.InvalidForm(fields=[RULING])
    if level == Level.DEDUCTION and not 1 <= (points or 0) <= MAX_DEDUCTION:
        raise errors.InvalidForm(fields=[POINTS])
    if level != Level.DEDUCTION:
        points = 0
    if level in (Level.DEDUCTION, Level.DISQUALIFICATION):
        _check_not_crowned(player, level)
    if round_number is None:  # the round it belongs to: "standings after round N" count it
        round_number = round_of_now(player.tournament_id)
    with audit.action(tournament=player.tournament_id, actor=by, what="incident.record",
                      reason=note):
        incident = Incident.objects.create(
            tournament_id=player.tournament_id, player=player, level=level, points=points,
            note=note, recorded_by=by if by is not None and by.is_authenticated else None,
            round_number=round_number, table_number=table_number,
        )
        if level == Level.DISQUALIFICATION and not player.dropped_out:
            players.drop_out(player=player)
    return incident


def _check_not_crowned(player: Player, level: str) -> None:
    """A deduction or a disqualification changes the standings the crowning rests on: refused
    once the tournament is finished (a note or a warning is still recorded). The tournament's
    row is locked, so a crowning waits for the ruling."""
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.PenaltyAfterCrowning(
            errors.PENALTY_AFTER_CROWNING, params={"level": Level(level).label})


def round_of_now(tournament_id: int) -> int | None:
    """The round an incident recorded now belongs to: the round running, else the last one
    started (None before the first round starts: it then counts in every round's list)."""
    rounds = Round.objects.filter(tournament_id=tournament_id).order_by("-number")
    running = rounds.filter(status=Round.Status.RUNNING).values_list("number", flat=True)
    started = rounds.filter(Q(started_at__isnull=False) | Q(status=Round.Status.COMPLETE))
    return running.first() or started.values_list("number", flat=True).first()


def incidents_of(player: Player) -> list[Incident]:
    return list(player.incidents.select_related("recorded_by").order_by("recorded_at"))


def deductions(tournament: Tournament | int, *, through_round: int | None = None
               ) -> dict[int, int]:
    """Points deducted per player (only players with a deduction); ``through_round``: only
    the deductions of rounds 1…N (the standings after round N; one recorded before any round
    started counts in every round's)."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    incidents = Incident.objects.filter(tournament_id=tournament_id, level=Level.DEDUCTION)
    if through_round is not None:
        incidents = incidents.filter(Q(round_number__isnull=True)
                                     | Q(round_number__lte=through_round))
    rows = (
        incidents
        .values("player_id")
        .annotate(total=Sum("points"))
    )
    return {row["player_id"]: row["total"] for row in rows if row["total"]}


def players_and_deductions(tournament: Tournament) -> tuple[list[int], dict[int, int]]:
    """Every player's id (in id order) and the points deducted per player (only players with
    a deduction), in one read: the standings need both."""
    rows = (
        Player.objects.filter(tournament=tournament).order_by("pk")
        .annotate(total=Sum("incidents__points", filter=Q(
            incidents__tournament=tournament, incidents__level=Level.DEDUCTION)))
        .values_list("pk", "total")
    )
    players, deducted = [], {}
    for pk, total in rows:
        players.append(pk)
        if total:
            deducted[pk] = total
    return players, deducted


def disqualified(tournament: Tournament | int) -> set[int]:
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return set(
        Incident.objects.filter(
            tournament_id=tournament_id, level=Level.DISQUALIFICATION
        ).values_list("player_id", flat=True)
    )
