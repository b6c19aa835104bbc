"""Paper results: when a console failed, the head referee enters a table's outcome from its
paper score sheet. It is stored as the table's result (``from_paper``), counted like any other,
and final only once confirmed with the table's code or by a second staff member.

Every line of the sheet decides its player's place: a bankruptcy order, or the net worth (its
parts, the written total, or both, which must then agree). A sheet with a line that decides
nothing is refused line by line, never stored with zeros. Replacing a result that awaits
confirmation is asked first (``replaces`` names the result the person saw) and needs a reason.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from referee import changes, errors, results, services
from referee.feed import amount
from referee.models import Game, GameResult, Placement
from tournament import audit
from tournament.models import Table

END_REASONS = ("time_limit", "second_bankruptcy", "last_player_standing", "agreed")
BREAKDOWN = ("cash", "deeds", "mortgaged", "houses", "hotels")
MAX_AMOUNT = 10**9

#: What each field of a line is called (the form's column heads, the refusals).
FIELD_LABELS = {
    "bankrupt": _("Bankrupt as no."),
    "cash": _("Cash"),
    "deeds": _("Deeds"),
    "mortgaged": _("Mortgaged (half)"),  # as the console's count says
    "houses": _("Houses"),
    "hotels": _("Hotels"),
    "net_worth": _("Net worth"),
}


@dataclass(frozen=True)
class PaperLine:
    """One player's line of the sheet: bankrupt (and as which one) or a net worth."""

    player_id: int
    bankrupt_order: int | None = None  # 1 = first to go bankrupt
    breakdown: dict[str, int] | None = None  # the parts written on the sheet
    net_worth: int | None = None  # the total written on the sheet

    @property
    def parts_sum(self) -> int | None:
        if not self.breakdown:
            return None
        return sum(int(value) for value in self.breakdown.values())

    @property
    def has_figures(self) -> bool:
        return self.net_worth is not None or bool(self.breakdown)

    @property
    def computed(self) -> bool:
        """The total was not written: it is the sum of the parts."""
        return self.net_worth is None and bool(self.breakdown)

    @property
    def worth(self) -> int:
        """The written total, else the sum of the parts; a bankrupt player's is 0."""
        if self.bankrupt_order is not None:
            return 0
        if self.net_worth is not None:
            return int(self.net_worth)
        return self.parts_sum or 0


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
                  key=lambda line: -(line.bankrupt_order or 0))
    for line in gone:
        out.append((line, len(out) + 1))
    return out


def _line_problems(line: PaperLine, name: str, count: int) -> list[errors.PaperProblem]:
    pid, out = line.player_id, []
    values = {"net_worth": line.net_worth, **(line.breakdown or {})}
    for field, value in values.items():
        if value is not None and not 0 <= int(value) <= MAX_AMOUNT:
            out.append(errors.PaperProblem(
                errors.PAPER_OUT_OF_RANGE, player_id=pid, field=field, player=name,
                label=FIELD_LABELS.get(field, field), value=amount(int(value)),
                max=amount(MAX_AMOUNT),
            ))
    if out:
        return out
    order = line.bankrupt_order
    if order is not None and not 1 <= order <= count:
        return [errors.PaperProblem(errors.PAPER_ORDER_RANGE, player_id=pid, field="bankrupt",
                                    player=name, order=order, count=count)]
    if order is not None and line.has_figures:
        return [errors.PaperProblem(errors.PAPER_BANKRUPT_AND_FIGURES, player_id=pid,
                                    field="bankrupt", player=name, order=order)]
    if order is None and not line.has_figures:
        return [errors.PaperProblem(errors.PAPER_NOTHING, player_id=pid, field="net_worth",
                                    player=name)]
    parts = line.parts_sum
    if parts is not None and line.net_worth is not None and parts != line.net_worth:
        return [errors.PaperProblem(errors.PAPER_SUM_MISMATCH, player_id=pid, field="net_worth",
                                    player=name, parts=amount(parts),
                                    total=amount(int(line.net_worth)))]
    return []


#: A round in these states has not started: the system never saw its games begin.
ENDED_AT_TOLERANCE = dt.timedelta(minutes=1)  # the sheet's clock and the server's may differ


def not_started(table: Table) -> errors.PaperProblem | None:
    """A sheet is entered for a game of a started round (running, or closed and reopened):
    a confirmed result in a round the system never started would stand outside the record
    (its clock, its start, the round's close). Start the round first — it may have been
    played on paper while the Wi-Fi was down."""
    played = table.round
    if played.status not in results.NOT_STARTED:
        return None
    return errors.PaperProblem(errors.PAPER_ROUND_NOT_STARTED, number=played.number,
                               table=table.number)


def _clock(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def ended_at_problem(table: Table, ended_at: dt.datetime | None, *,
                     now: dt.datetime | None = None) -> errors.PaperProblem | None:
    """An end time still to come (beyond a minute), or before the game (else its round)
    started, is a mistyped time: refused at its field."""
    if ended_at is None:
        return None
    now = now or timezone.now()
    if ended_at > now + ENDED_AT_TOLERANCE:
        return errors.PaperProblem(errors.PAPER_ENDED_FUTURE, field="ended_at",
                                   value=_clock(ended_at), now=_clock(now))
    started = (Game.objects.filter(table=table).values_list("started_at", flat=True).first()
               or table.round.started_at)
    if started is not None and ended_at < started.replace(second=0, microsecond=0):
        return errors.PaperProblem(errors.PAPER_ENDED_BEFORE_START, field="ended_at",
                                   value=_clock(ended_at), started=_clock(started))
    return None


def problems(
    *, table: Table, lines: list[PaperLine], end_reason: str,
    ended_at: dt.datetime | None = None,
) -> list[errors.PaperProblem]:
    """Everything wrong with a sheet, each named by its line and field (empty: it may be
    stored)."""
    waiting = not_started(table)
    if waiting is not None:
        return [waiting]
    seated = dict(table.seats.values_list("player_id", "player__name"))
    ids = [line.player_id for line in lines]
    if sorted(ids) != sorted(seated) or len(set(ids)) != len(ids):
        return [errors.PaperProblem(errors.PAPER_SEATS, table=table.number)]
    found: list[errors.PaperProblem] = []
    if end_reason not in END_REASONS:
        found.append(errors.PaperProblem(errors.PAPER_END_REASON, field="end_reason"))
    late = ended_at_problem(table, ended_at)
    if late is not None:
        found.append(late)
    for line in lines:
        found += _line_problems(line, seated[line.player_id], len(lines))
    if found:
        return found
    bankrupt = [line for line in lines if line.bankrupt_order is not None]
    first: dict[int, PaperLine] = {}
    for line in bankrupt:
        order = line.bankrupt_order or 0
        if order in first:
            found.append(errors.PaperProblem(
                errors.PAPER_ORDER_TWICE, player_id=line.player_id, field="bankrupt",
                player=seated[line.player_id], order=order,
                other=seated[first[order].player_id],
            ))
        else:
            first[order] = line
        if order > len(bankrupt):
            found.append(errors.PaperProblem(
                errors.PAPER_ORDER_GAP, player_id=line.player_id, field="bankrupt",
                player=seated[line.player_id], order=order, count=len(bankrupt),
            ))
    remaining = len(lines) - len(bankrupt)
    if remaining == 0:
        found.append(errors.PaperProblem(errors.PAPER_NOBODY_LEFT))
    elif end_reason == "last_player_standing" and remaining != 1:
        found.append(errors.PaperProblem(errors.PAPER_ONE_LEFT, field="end_reason",
                                         count=remaining))
    return found


def version(result: GameResult) -> str:
    """Which pending result a replacement was confirmed against: its revision, raised by every
    count, amendment, dispute or ruling (``GameResult.revision``)."""
    return str(result.revision)


def _summary(game: Game, ranked: list[tuple[PaperLine, int]]) -> dict:
    """The game's summary for the overview pages (leader, net worths, bankruptcies) as the
    sheet gives them, not as the interrupted record left them."""
    leader = next((str(line.player_id) for line, _place in ranked
                   if line.bankrupt_order is None), None)
    return {
        **(game.summary or {}),
        "net_worth": {str(line.player_id): line.worth for line, _place in ranked},
        "leader": leader,
        "bankrupt": [str(line.player_id) for line in sorted(
            (line for line, _place in ranked if line.bankrupt_order is not None),
            key=lambda line: line.bankrupt_order or 0)],
        "from_paper": True,
    }


def enter_paper_result(
    *, table: Table, lines: list[PaperLine], end_reason: str, ended_at: dt.datetime | None,
    by: User | None, note: str = "", replaces: str = "",
) -> GameResult:
    """Store the sheet's outcome as the table's result, awaiting confirmation.

    A result already awaiting confirmation is replaced only when ``replaces`` is its
    :func:`version` (the person saw it and confirmed) and a reason is given; otherwise
    :class:`errors.PaperResultPending` asks first."""
    found = problems(table=table, lines=lines, end_reason=end_reason, ended_at=ended_at)
    if found:
        raise errors.PaperSheetRefused(found, table=table.number)
    ended_at = ended_at or timezone.now()
    note = (note or "").strip()
    game = services.ensure_game(table=table)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        result = GameResult.objects.filter(game=game).first()
        if result is not None and result.status == GameResult.Status.CONFIRMED:
            raise errors.ResultConfirmed(errors.RESULT_CONFIRMED, params={"table": table.number})
        if result is not None and replaces != version(result):
            raise errors.PaperResultPending(table=table.number, result=result)
        if result is not None and not note:
            raise errors.ReasonRequired(errors.PAPER_REPLACE_REASON)
        what = "result.paper" if result is None else "result.paper.replace"
        ranked = places(lines)
        tournament_id = table.round.tournament_id
        with audit.action(tournament=tournament_id, actor=by, what=what, reason=note):
            Game.objects.filter(pk=game.pk).update(
                status=Game.Status.FINISHED, end_reason=end_reason, ended_at=ended_at,
                auction_stop_due=None, time_up_due=None, summary=_summary(game, ranked),
            )
            if result is None:
                result = GameResult(game=game, revision=game.result_revision + 1)
            else:
                result.placements.all().delete()
                result.revision += 1
            result.status = GameResult.Status.COUNTED
            result.from_paper = True
            result.counted_by = by if by is not None and by.is_authenticated else None
            result.counted_at = timezone.now()
            result.confirmed_at, result.confirmed_by, result.confirmed_via = None, None, ""
            result.dispute_note, result.disputed_by = "", None
            result.resolved_note = note
            result.save()
            for line, place in ranked:
                Placement.objects.create(
                    result=result, player_id=line.player_id, place=place, net_worth=line.worth,
                    bankrupt=line.bankrupt_order is not None,
                    breakdown={**{k: int(v) for k, v in (line.breakdown or {}).items()},
                               "from_paper": True,
                               **({"computed": True} if line.computed else {}),
                               **({"bankrupt_order": line.bankrupt_order}
                                  if line.bankrupt_order else {})},
                )
    game.table = table  # the steps after commit take its tournament from here
    results.result_changed(game, kind=changes.Kind.PAPER)
    return result
