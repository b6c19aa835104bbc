"""The head referee enters a table's result from its paper score sheet (``referee.paper``),
and anyone at the desk confirms a result with the table's code."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import DomainError
from config.inputs import clean_note, posted_revision, whole_amount
from config.ratelimit import check_confirmation_attempt
from desk.rulings import result_response
from referee import errors, paper, results
from referee.feed import amount
from referee.models import Game, GameResult
from referee.selectors import staff_state_label
from tournament import access
from tournament.access import Action
from tournament.models import Seat, Table

END_REASON_LABELS = {
    "time_limit": gettext_lazy("Time limit"),
    "second_bankruptcy": gettext_lazy("Second bankruptcy"),
    "last_player_standing": gettext_lazy("Only one player left"),
    "agreed": gettext_lazy("Ended by agreement"),
}
PARTS = {key: paper.FIELD_LABELS[key] for key in paper.BREAKDOWN}
FIELDS = ("bankrupt", *paper.BREAKDOWN, "net_worth")
SHEET_KEYS = ("end_reason", "ended_at")  # besides the lines: what the sheet's form posts


@dataclass
class Sheet:
    """The posted sheet, read: its lines, and what could not even be read."""

    lines: list[paper.PaperLine]
    problems: list[errors.PaperProblem]
    end_reason: str
    ended_at: dt.datetime | None


def read_sheet(post, seats: list[Seat]) -> Sheet:
    lines, problems = [], []
    for seat in seats:
        pid, values = seat.player_id, {}
        for key in FIELDS:
            raw = post.get(f"{key}-{pid}", "")
            try:
                values[key] = whole_amount(raw)
            except ValueError:
                values[key] = None
                problems.append(errors.PaperProblem(
                    errors.PAPER_NOT_A_NUMBER, player_id=pid, field=key,
                    player=seat.player.name, label=paper.FIELD_LABELS[key], value=raw[:40],
                ))
        breakdown = {key: values[key] for key in paper.BREAKDOWN if values[key] is not None}
        lines.append(paper.PaperLine(player_id=pid, bankrupt_order=values["bankrupt"],
                                     breakdown=breakdown or None, net_worth=values["net_worth"]))
    text = (post.get("ended_at") or "").strip()
    ended_at = None
    if text:
        try:
            clock = dt.time.fromisoformat(text)
            ended_at = timezone.make_aware(dt.datetime.combine(timezone.localdate(), clock))
        except ValueError:
            problems.append(errors.PaperProblem(errors.PAPER_ENDED_AT, field="ended_at",
                                                value=text[:40]))
    return Sheet(lines, problems, post.get("end_reason", ""), ended_at)


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.select_related("player").order_by("position"))


def _form(request: HttpRequest, table: Table, seats: list[Seat], *,
          problems: list[errors.PaperProblem] = (), status: int = 200) -> HttpResponse:
    """The sheet's form; after a refusal with what was typed and each problem at its line."""
    post = request.POST if request.method == "POST" else {}
    rows = []
    for seat in seats:
        mine = [problem for problem in problems if problem.player_id == seat.player_id]
        bad = {problem.field for problem in mine}
        rows.append({
            "seat": seat,
            "cells": [{"key": key, "name": f"{key}-{seat.player_id}",
                       "label": paper.FIELD_LABELS[key],
                       "value": post.get(f"{key}-{seat.player_id}", "")[:40],
                       "invalid": key in bad} for key in FIELDS],
            "problems": [problem.text() for problem in mine],
        })
    return render(
        request,
        "desk/paper.html",
        {
            "tournament": request.tournament,
            "table": table,
            "rows": rows,
            "parts": PARTS,
            "end_reasons": END_REASON_LABELS,
            "values": {key: post.get(key, "")[:2000] for key in (*SHEET_KEYS, "note")},
            "general": [p.text() for p in problems
                        if p.player_id is None and p.field not in SHEET_KEYS],
            "end_reason_problems": [p.text() for p in problems if p.field == "end_reason"],
            "ended_at_problems": [p.text() for p in problems if p.field == "ended_at"],
            # a round not started takes no sheet: the page says so instead of a form
            "not_started": (not_started := paper.not_started(table)),
            "refused": bool(problems) and not_started is None,
            "pending": GameResult.objects.filter(game__table=table).first(),
        },
        status=status,
    )


def _compared(ranked, pending_lines, names: dict[int, str]) -> list[dict]:
    """The sheet's lines beside the pending result's: per player whether the place and the
    net worth (or bankruptcy) changed, and what they were (the replace step marks them)."""
    before = {placement.player_id: placement for placement in pending_lines}
    rows = []
    for line, place in ranked:
        old = before.get(line.player_id)
        bankrupt = line.bankrupt_order is not None
        place_changed = old is None or old.place != place
        worth_changed = old is None or old.bankrupt != bankrupt or (
            not bankrupt and old.net_worth != line.worth)
        was_worth = "" if old is None else (
            _("bankrupt") if old.bankrupt else amount(old.net_worth))
        rows.append({"place": place, "name": names[line.player_id], "line": line,
                     "place_changed": place_changed,
                     "was_place": None if old is None else old.place,
                     "worth_changed": worth_changed, "was_worth": was_worth,
                     "changed": place_changed or worth_changed})
    return rows


def _replace_page(request: HttpRequest, table: Table, seats: list[Seat], sheet: Sheet,
                  pending, *, reason_problem: str = "", status: int = 200) -> HttpResponse:
    """The step before replacing a result that awaits confirmation: both side by side."""
    names = {seat.player_id: seat.player.name for seat in seats}
    pending_lines = list(pending.placements.select_related("player").order_by(
        "place", "player__name"))
    new_lines = _compared(paper.places(sheet.lines), pending_lines, names)
    fields = [(f"{key}-{seat.player_id}", request.POST.get(f"{key}-{seat.player_id}", "")[:40])
              for seat in seats for key in FIELDS]
    fields += [(key, request.POST.get(key, "")[:40]) for key in SHEET_KEYS]
    return render(
        request,
        "desk/paper_replace.html",
        {
            "tournament": request.tournament,
            "table": table,
            "pending": pending,
            # the state by the one name the desk and the result page give it
            "pending_state": staff_state_label(pending.status),
            "pending_lines": pending_lines,
            "new_lines": new_lines,
            "changed_names": [row["name"] for row in new_lines if row["changed"]],
            "fields": fields,
            "replaces": paper.version(pending),
            "note": request.POST.get("note", "")[:2000],
            "reason_problem": reason_problem,
            "end_reason": END_REASON_LABELS.get(sheet.end_reason, ""),
        },
        status=status,
    )


@access.require(Action.RULE)
@require_http_methods(["GET", "POST"])
def paper_result(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    table = get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=request.tournament, round__number=number, number=table_number,
    )
    seats = _seats(table)
    if request.method == "GET" or "edit" in request.POST:  # "edit": back from the replace step
        return _form(request, table, seats)
    sheet = read_sheet(request.POST, seats)
    try:
        if sheet.problems:  # unreadable fields; say what else is wrong on the other lines
            unread = {problem.player_id for problem in sheet.problems}
            found = [problem for problem in paper.problems(
                table=table, lines=sheet.lines, end_reason=sheet.end_reason,
            ) if problem.player_id is not None and problem.player_id not in unread]
            raise errors.PaperSheetRefused(sheet.problems + found, table=table.number)
        result = paper.enter_paper_result(
            table=table, lines=sheet.lines, end_reason=sheet.end_reason,
            ended_at=sheet.ended_at, by=request.user, note=clean_note(request.POST.get("note")),
            replaces=request.POST.get("replaces", ""),
        )
    except errors.PaperSheetRefused as refused:
        return _form(request, table, seats, problems=refused.problems, status=400)
    except errors.PaperResultPending as asked:
        return _replace_page(request, table, seats, sheet, asked.result)
    except errors.ReasonRequired as refused:
        pending = GameResult.objects.get(game__table=table)
        return _replace_page(request, table, seats, sheet, pending,
                             reason_problem=refused.message_in(get_language() or "de"),
                             status=400)
    names = {seat.player_id: seat.player.name for seat in seats}
    computed = [f"{names[line.player_id]} {amount(line.worth)}"
                for line in sheet.lines if line.computed and line.bankrupt_order is None]
    text = _("The paper result of table %(table)s is stored; it is confirmed with the table's "
             "code or by a second staff member.") % {"table": table.number}
    if computed:
        text += " " + _("Net worth computed from the parts: %(list)s.") % {
            "list": ", ".join(computed)}
    messages.success(request, text)
    return redirect("round_desk:result", slug=slug, game_id=result.game_id)


@access.require(Action.DESK)
@require_POST
def confirm_with_code(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id, table__round__tournament=request.tournament)
    code = request.POST.get("code", "")
    try:
        check_confirmation_attempt(request, game.table_id)  # 4 digits must not be guessable
        results.confirm_result(game_id=game.pk, code=code, by=request.user,
                               revision=posted_revision(request))
    except DomainError as refused:
        if not access.can(request.user, Action.RULE, request.tournament):
            raise  # the result page is the head referee's: others get the refusal page
        # Back on the result page, the refusal beside the code field, the typed code kept.
        return result_response(request, game, code_refused=refused, code=code[:4])
    messages.success(request, _("The result is confirmed with the table's code."))
    return redirect("round_desk:desk", slug=slug)
