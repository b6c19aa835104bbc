"""The tournament's state machine: draft → registration → running → finished (writes).

Registration → draft too, while no round exists. Every refusal is a
:class:`TransitionRefused` with a specific code that names the rule and a message in the
organizer's language.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournament.errors import (
    HAS_ROUNDS,
    ROUND_OPEN,
    STATUS_UNCHANGED,
    STATUS_UNKNOWN,
    TOO_FEW_TO_START,
    TRANSITION_FINAL,
    TRANSITION_NOT_ALLOWED,
    TransitionRefused,
)
from tournament.models import Round, Tournament
from tournament.wording import lazy_join

Status = Tournament.Status


# --------------------------------------------------------------------------- the state machine

#: The allowed moves, as data. Guards (rounds, players) are checked in :func:`transition`.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.REGISTRATION,),
    Status.REGISTRATION: (Status.DRAFT, Status.RUNNING),
    Status.RUNNING: (Status.FINISHED,),
    Status.FINISHED: (),
}

#: Rounds in these states are being played (or about to be): the tournament cannot finish.
OPEN_ROUND_STATES = (Round.Status.LOCKED, Round.Status.RUNNING)


def allowed_transitions(tournament: Tournament) -> list[tuple[str, Any, TransitionRefused | None]]:
    """(status, label, refusal) of the moves the state machine allows from the tournament's
    status: the status box shows a move refused now (a round still being played, too few
    players checked in) with its reason instead of a button that could only be refused."""
    return [(to, Status(to).label, refusal(tournament, to))
            for to in TRANSITIONS.get(tournament.status, ())]


def minimum_players(tournament: Tournament) -> int:
    """Fewest checked-in players a round can be seated with (a short table of size - 1)."""
    return max(2, tournament.table_size - 1)


def refusal(tournament: Tournament, to: str) -> TransitionRefused | None:
    """Why ``tournament`` cannot move to status ``to`` now, or None: what :func:`transition`
    raises and the status box shows — one check for both."""
    current = tournament.status
    if to not in Status.values:
        return TransitionRefused(STATUS_UNKNOWN, code="tournament_status_unknown",
                                 params={"to": to})
    if to == current:
        return TransitionRefused(
            STATUS_UNCHANGED,
            code="tournament_status_unchanged",
            params={"status": Status(current).label},
        )
    allowed = TRANSITIONS[current]
    if not allowed:
        return TransitionRefused(TRANSITION_FINAL, code="tournament_finished")
    if to not in allowed:
        return TransitionRefused(
            TRANSITION_NOT_ALLOWED,
            code="tournament_transition_not_allowed",
            params={
                "from": Status(current).label,
                "to": Status(to).label,
                "allowed": lazy_join([Status(s).label for s in allowed], ", "),
            },
        )
    if current == Status.REGISTRATION and to == Status.DRAFT:
        count = tournament.rounds.count()
        if count:
            return TransitionRefused(
                HAS_ROUNDS, code="tournament_has_rounds", params={"count": count}
            )
    if to == Status.RUNNING:
        count = tournament.players.filter(checked_in=True, dropped_out=False).count()
        minimum = minimum_players(tournament)
        if count < minimum:
            return TransitionRefused(
                TOO_FEW_TO_START,
                code="tournament_not_enough_players",
                params={"count": count, "minimum": minimum},
            )
    if to == Status.FINISHED:
        open_round = (
            tournament.rounds.filter(status__in=OPEN_ROUND_STATES).order_by("number").first()
        )
        if open_round is not None:
            return TransitionRefused(
                ROUND_OPEN,
                code="tournament_round_open",
                params={"number": open_round.number,
                        "status": Round.Status(open_round.status).label},
            )
    return None


@transaction.atomic
def transition(*, tournament: Tournament, to: str) -> Tournament:
    """Move the tournament to status ``to`` or raise :class:`TransitionRefused`."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refused = refusal(tournament, to)
    if refused is not None:
        raise refused
    tournament.status = to
    tournament.save(update_fields=["status"])
    return tournament

