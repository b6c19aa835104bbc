"""Paper results: when a console failed, the head referee enters a table's outcome from its
paper score sheet. It is stored as the table's result (``from_paper``), counted like any other,
and final only once confirmed with the table's code or by a second staff member."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournament import audit
from tournament.models import Table

from . import errors, services
from .models import Game, GameResult, Placement

END_REASONS = ("time_limit", "second_bankruptcy", "last_player_standing", "agreed")
BREAKDOWN = ("cash", "deeds", "mortgaged", "houses", "hotels")


@dataclass(frozen=True)
class PaperLine:
    """One player's line of the sheet: bankrupt (and as which one) or a net worth."""

    player_id: int
    bankrupt_order: int | None = None  # 1 = first to go bankrupt
    breakdown: dict[str, int] | None = None
    net_worth: int | None = None  # without a breakdown

    @property
    def worth(self) -> int:
        if self.breakdown:
            return sum(int(self.breakdown.get(key, 0)) for key in BREAKDOWN)
        return int(self.net_worth or 0)


def places(lines: list[PaperLine]) -> list[tuple[PaperLine, int]]:
    """Those still in by net worth (equal worth shares a place), then the bankrupt ones, the
    last to go bankrupt first."""
    standing = sorted((line for line in lines if line.bankrupt_order is None),
                      key=lambda line: -line.worth)
    out: list[tuple[PaperLine, int]] = []
    for index, line in enumerate(standing):
        place = out[-1][1] if index and standing[index - 1].worth == line.worth else index + 1
        out.append((line, place))
    gone = sorted((line for line in lines if line.bankrupt_order is not None),
                  key=lambda line: -line.bankrupt_order)
    for line in gone:
        out.append((line, len(out) + 1))
    return out


def _check(table: Table, lines: list[PaperLine], end_reason: str) -> None:
    seated = set(table.seats.values_list("player_id", flat=True))
    orders = [line.bankrupt_order for line in lines if line.bankrupt_order is not None]
    if (
        {line.player_id for line in lines} != seated
        or len(lines) != len(seated)
        or end_reason not in END_REASONS
        or len(orders) != len(set(orders))
        or any(order < 1 for order in orders)
        or any(line.worth < 0 or line.worth > 10**9 for line in lines)
        or any(int(v) < 0 for line in lines for v in (line.breakdown or {}).values())
    ):
        raise errors.BadAmendment(errors.BAD_PAPER, params={"table": table.number})


def enter_paper_result(
    *, table: Table, lines: list[PaperLine], end_reason: str, ended_at: dt.datetime | None,
    by: User | None, note: str = "",
) -> GameResult:
    """Store the sheet's outcome as the table's result, awaiting confirmation."""
    _check(table, lines, end_reason)
    ended_at = ended_at or timezone.now()
    game = services.ensure_game(table=table)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        result = GameResult.objects.filter(game=game).first()
        if result is not None and result.status == GameResult.Status.CONFIRMED:
            raise errors.ResultConfirmed(errors.RESULT_CONFIRMED, params={"table": table.number})
        tournament_id = table.round.tournament_id
        with audit.action(tournament=tournament_id, actor=by, what="result.paper", reason=note):
            Game.objects.filter(pk=game.pk).update(
                status=Game.Status.FINISHED, end_reason=end_reason, ended_at=ended_at,
                auction_stop_due=None, time_up_due=None,
            )
            if result is None:
                result = GameResult(game=game)
            else:
                result.placements.all().delete()
            result.status = GameResult.Status.COUNTED
            result.from_paper = True
            result.counted_by = by if by is not None and by.is_authenticated else None
            result.counted_at = timezone.now()
            result.confirmed_at, result.confirmed_by, result.confirmed_via = None, None, ""
            result.resolved_note = note
            result.save()
            for line, place in places(lines):
                Placement.objects.create(
                    result=result, player_id=line.player_id, place=place, net_worth=line.worth,
                    bankrupt=line.bankrupt_order is not None,
                    breakdown={**{k: int(v) for k, v in (line.breakdown or {}).items()},
                               "from_paper": True,
                               **({"bankrupt_order": line.bankrupt_order}
                                  if line.bankrupt_order else {})},
                )
    services.result_changed(game)
    return result
