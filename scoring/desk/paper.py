"""The head referee enters a table's result from its paper score sheet (``referee.paper``),
and anyone at the desk confirms a result with the table's code."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from config.inputs import clean_note
from config.ratelimit import check_confirmation_attempt
from referee import errors, paper, services
from referee.models import Game
from tournament import access
from tournament.access import Action
from tournament.models import Table

END_REASON_LABELS = {
    "time_limit": gettext_lazy("Time limit"),
    "second_bankruptcy": gettext_lazy("Second bankruptcy"),
    "last_player_standing": gettext_lazy("Only one player left"),
    "agreed": gettext_lazy("Ended by agreement"),
}
PARTS = {
    "cash": gettext_lazy("Cash"),
    "deeds": gettext_lazy("Deeds"),
    "mortgaged": gettext_lazy("Mortgaged deeds"),
    "houses": gettext_lazy("Houses"),
    "hotels": gettext_lazy("Hotels"),
}


def _int(value: str | None) -> int | None:
    value = (value or "").strip().replace(".", "").replace(" ", "")
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise errors.BadAmendment(errors.BAD_PAPER, params={"table": "?"}) from None


def _lines(request: HttpRequest, table: Table) -> list[paper.PaperLine]:
    lines = []
    for seat in table.seats.all():
        pid = seat.player_id
        parts = {key: _int(request.POST.get(f"{key}-{pid}")) for key in paper.BREAKDOWN}
        breakdown = {key: value for key, value in parts.items() if value is not None}
        lines.append(
            paper.PaperLine(
                player_id=pid,
                bankrupt_order=_int(request.POST.get(f"bankrupt-{pid}")),
                breakdown=breakdown or None,
                net_worth=_int(request.POST.get(f"net_worth-{pid}")),
            )
        )
    return lines


def _ended_at(text: str | None) -> dt.datetime | None:
    try:
        clock = dt.time.fromisoformat((text or "").strip())
    except ValueError:
        return None
    return timezone.make_aware(dt.datetime.combine(timezone.localdate(), clock))


@access.require(Action.RULE)
@require_http_methods(["GET", "POST"])
def paper_result(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    table = get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=request.tournament, round__number=number, number=table_number,
    )
    if request.method == "POST":
        result = paper.enter_paper_result(
            table=table, lines=_lines(request, table),
            end_reason=request.POST.get("end_reason", ""),
            ended_at=_ended_at(request.POST.get("ended_at")),
            by=request.user, note=clean_note(request.POST.get("note")),
        )
        messages.success(
            request,
            _("The paper result of table %(table)s is stored; it is confirmed with the table's "
              "code or by a second staff member.") % {"table": table.number},
        )
        return redirect("round_desk:result", slug=slug, game_id=result.game_id)
    return render(
        request,
        "scoring/desk/paper.html",
        {
            "tournament": request.tournament,
            "table": table,
            "seats": list(table.seats.select_related("player").order_by("position")),
            "parts": PARTS,
            "end_reasons": END_REASON_LABELS,
        },
    )


@access.require(Action.DESK)
@require_POST
def confirm_with_code(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id, table__round__tournament=request.tournament)
    check_confirmation_attempt(request, game.table_id)  # 4 digits must not be guessable
    services.confirm_result(game_id=game.pk, code=request.POST.get("code", ""), by=request.user)
    messages.success(request, _("The result is confirmed with the table's code."))
    return redirect("round_desk:desk", slug=slug)
