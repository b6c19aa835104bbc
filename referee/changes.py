"""What follows a changed result: the steps of ``settings.RESULT_STEPS``, in their order, once
the change is committed (README "Flows: a result").

The referee announces; the apps that follow (the standings, the public pages, the laptop's
copy) list their step in the settings, not here: the referee imports none of them. Each step
is a function taking one :class:`ResultChange`, which carries the game's tournament as read
with the change, so no step looks it up again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from django.conf import settings
from django.core import checks
from django.db import transaction
from django.utils.module_loading import import_string

from referee.models import Game
from tournament.models import Round, Table, Tournament

logger = logging.getLogger("referee.changes")


class Kind(StrEnum):
    """What happened to the result."""

    COUNTED = "counted"  # at the table: placements await confirmation
    COUNT_REOPENED = "count_reopened"  # the count taken back before confirmation (no result)
    CONFIRMED = "confirmed"  # final: a player's code or the head referee
    DISPUTED = "disputed"
    REOPENED = "reopened"  # the head referee took a confirmation back
    AMENDED = "amended"  # the head referee corrected counted figures
    PAPER = "paper"  # entered from the paper sheet


@dataclass(frozen=True, kw_only=True)
class ResultChange:
    """One committed change of one game's result, as every step is told it."""

    game_id: int
    kind: Kind
    tournament_id: int
    tournament_slug: str
    round_id: int
    #: The tournament's row as read with the change (its scoring settings): the standings
    #: recompute reads it not again.
    tournament: Tournament = field(repr=False, compare=False)
    #: The game's table (its console's follow poll, ``referee.follow``), when known.
    table_id: int | None = field(default=None, compare=False)

    @property
    def confirmed(self) -> bool:
        """The result is final now (the only change that leaves it confirmed)."""
        return self.kind == Kind.CONFIRMED


def change_of(game: Game, *, kind: Kind) -> ResultChange:
    """The change of ``game``'s result; its table, round and tournament are taken from the
    game when it was read with them (every locked read of a result path), else read once."""
    table = game.table if Game.table.is_cached(game) else None
    if (table is None or not Table.round.is_cached(table)
            or not Round.tournament.is_cached(table.round)):
        table = Table.objects.select_related("round__tournament").get(pk=game.table_id)
    tournament = table.round.tournament
    return ResultChange(game_id=game.pk, kind=kind, tournament_id=tournament.pk,
                        tournament_slug=tournament.slug, round_id=table.round_id,
                        tournament=tournament, table_id=game.table_id)


def announce(change: ResultChange) -> None:
    """After commit (at once outside a transaction): run the steps."""
    transaction.on_commit(lambda: follow(change))


def check_steps(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """System check (``manage.py check``, every start): each step of ``RESULT_STEPS`` exists,
    found before any result depends on it."""
    problems = []
    for path in settings.RESULT_STEPS:
        try:
            import_string(path)
        except ImportError as error:
            problems.append(checks.Error(f"RESULT_STEPS: {path} cannot be imported ({error})",
                                         id="referee.E001"))
    return problems


def follow(change: ResultChange) -> None:
    """Run every step in order. The result is committed whatever a step does: one that fails
    is logged and the next one runs (each step has its own way to catch up: the standings
    are queued for the worker, a missing copy shows on every staff page)."""
    for path in settings.RESULT_STEPS:
        try:
            step: Callable[[ResultChange], None] = import_string(path)
            step(change)
        except Exception:  # noqa: BLE001 - the next step must run all the same
            logger.exception("%s failed after the %s result of game %s",
                             path, change.kind, change.game_id)
