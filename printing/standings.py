"""Standings after a round (public names) and the winners' certificates.

The ranking is the scoring module's own (``scoring.standings.compute.compute_standings`` with the
tournament's format and tie-break chain) over the results of rounds 1…N, so a list printed
after round 2 stays right once round 3 is played (and a deduction of round 3 recorded). Only
confirmed results count; the standings list marks the players whose result in the round is
still provisional.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _

from printing import draw
from printing.base import Context, end_page
from scoring.standings import compute
from scoring.standings import selectors as standings_selectors
from scoring.standings import services as scoring_services
from tournament import incidents
from tournament.models import Player, Round

W, H = draw.PAGE
M = draw.MARGIN
CONTENT = W - 2 * M
ROW = 14.5
TOP = H - M - 62
ROWS_PER_PAGE = int((TOP - M - 24) // ROW)
#: rank, name, club, points, net-worth sum, best, wins, games
COLS = (34, 170, 105, 44, 62, 52, 30, 30)


@dataclass(frozen=True)
class Line:
    rank: int
    name: str
    full_name: str
    club: str
    points: int
    net_worth_sum: int
    best_net_worth: int
    table_wins: int
    games: int  # the games the points and sums come from (a deciding final's apart)
    provisional: bool
    final_place: int | None
    deducted: int = 0  # penalty points (already subtracted), marked on the list
    played: int = 0  # every confirmed game the player played, a deciding final included


def through_round(ctx: Context) -> int:
    """The last round the list includes: the given round, else the latest round."""
    if ctx.round is not None:
        return ctx.round.number
    last = Round.objects.filter(tournament=ctx.tournament).order_by("-number").first()
    return last.number if last else 0


def ranking(ctx: Context, *, public: bool = True) -> list[Line]:
    """Everybody's rank after ``through_round`` (public: as the spectators may see it)."""
    tournament = ctx.tournament
    last = through_round(ctx)
    hold = public and not tournament.results_public_immediately
    rows = [
        row for row in scoring_services.result_rows(tournament, complete_rounds_only=hold)
        if row.round <= last
    ]
    players = {
        player.pk: player
        for player in Player.objects.filter(tournament=tournament).select_related("club")
    }
    lines = compute.compute_standings(
        players=sorted(players), results=rows, settings=scoring_services.settings_for(tournament),
        deductions=incidents.deductions(tournament, through_round=last),  # not a later one's
    )
    out = []
    shown = standings_selectors.listed(
        (line for line in lines if line.player in players),
        taking_part=standings_selectors.taking_part(tournament),
        player=lambda line: line.player, played=lambda line: bool(line.rounds),
        ranked=lambda line: bool(line.rank), name=lambda line: players[line.player].public_name,
    )
    for line in shown:
        player = players[line.player]
        latest = line.rounds.get(last)
        out.append(
            Line(
                rank=line.rank,
                name=player.public_name,
                full_name=player.name,
                club=player.club.label if player.club_id and player.club else "",
                points=line.points,
                net_worth_sum=line.net_worth_sum,
                best_net_worth=line.best_net_worth,
                table_wins=line.table_wins,
                games=line.games,
                provisional=bool(latest) and not latest.get("final", True),
                final_place=line.final_place,
                deducted=line.deducted,
                played=sum(1 for game in line.rounds.values() if game.get("final", True)),
            )
        )
    return out


def _head(canvas, ctx: Context, last: int, page: int, pages: int) -> None:
    top = H - M
    draw.text(canvas, M, top - 17, _("Standings after round %(number)s") % {"number": last}
              if last else _("Standings"), size=17, bold=True, max_width=CONTENT)
    draw.text(canvas, M, top - 32, f"{ctx.tournament.name} · {ctx.tournament_line()}", size=9,
              max_width=CONTENT)
    note = _("Only confirmed results count. * result of round %(number)s not yet confirmed.") % {
        "number": last}
    draw.text(canvas, M, top - 45, note, size=7.5, max_width=CONTENT - 60)
    draw.text(canvas, W - M, top - 45, _("Page %(page)s of %(pages)s") % {
        "page": page, "pages": pages}, size=7.5, align="right")
    heads = (_("Rank"), _("Player"), _("Club"), _("Points"), _("Net worth"), _("Best game"),
             _("Wins"), _("Games"))
    draw.box(canvas, M, TOP, CONTENT, 16, shade=draw.SHADE)
    x = M
    for index, (head, col) in enumerate(zip(heads, COLS, strict=True)):
        if index in (1, 2):
            draw.text(canvas, x + 4, TOP + 5, head, size=7.5, bold=True, max_width=col - 6)
        else:
            draw.text(canvas, x + col - 4, TOP + 5, head, size=7.5, bold=True, align="right",
                      max_width=col - 6)
        x += col


def pages(canvas, ctx: Context) -> Iterator[None]:
    last = through_round(ctx)
    lines = ranking(ctx)
    total = max(1, math.ceil(len(lines) / ROWS_PER_PAGE))
    for page in range(total):
        _head(canvas, ctx, last, page + 1, total)
        y = TOP
        for line in lines[page * ROWS_PER_PAGE:(page + 1) * ROWS_PER_PAGE]:
            y -= ROW
            base = y + 4
            x = M
            values = (
                f"{line.rank}." if line.rank else "–", line.name + (" *" if line.provisional else ""), line.club,
                f"{line.points} (−{line.deducted})" if line.deducted else str(line.points),
                draw.money(line.net_worth_sum), draw.money(line.best_net_worth),
                str(line.table_wins), str(line.games),
            )
            for index, (value, col) in enumerate(zip(values, COLS, strict=True)):
                bold = index in (0, 1, 3)
                if index in (1, 2):
                    if index == 2 and value and value in line.name:
                        value = ""  # the public name already carries the club
                    draw.text(canvas, x + 4, base, value, size=9, bold=bold, max_width=col - 8)
                else:
                    draw.text(canvas, x + col - 4, base, value, size=9, bold=bold, align="right",
                              max_width=col - 6)
                x += col
            draw.hline(canvas, M, M + CONTENT, y, line=0.25)
        if not lines:
            draw.text(canvas, M, TOP - 20, _("No player yet."), size=11)
        end_page(canvas, ctx, _("Standings after round %(number)s") % {"number": last})
        yield


def count(ctx: Context) -> int:
    players = Player.objects.filter(tournament=ctx.tournament).count()
    return max(1, math.ceil(players / ROWS_PER_PAGE))




# --- certificates ------------------------------------------------------------------------------

LW, LH = draw.PAGE_LANDSCAPE


def winners(ctx: Context) -> list[Line]:
    """The first ``ctx.top`` places (shared places included), confirmed results only."""
    return [line for line in ranking(ctx, public=False)
            if line.rank <= ctx.top and (line.games or line.final_place is not None)]


def _certificate(canvas, ctx: Context, line: Line) -> None:
    canvas.setLineWidth(3)
    canvas.rect(M, M, LW - 2 * M, LH - 2 * M, stroke=1, fill=0)
    canvas.setLineWidth(0.8)
    canvas.rect(M + 7, M + 7, LW - 2 * M - 14, LH - 2 * M - 14, stroke=1, fill=0)
    center = LW / 2
    wide = LW - 4 * M - 40
    draw.text(canvas, center, LH - M - 80, _("Certificate"), size=46, bold=True, align="center")
    draw.text(canvas, center, LH - M - 118, ctx.tournament.name, size=18, align="center",
              max_width=wide)
    draw.text(canvas, center, LH - M - 140, ctx.tournament_line(), size=12, align="center",
              max_width=wide)
    draw.text(canvas, center, LH - M - 200, line.full_name, size=36, bold=True,
              align="center", max_width=wide)
    if line.club:
        draw.text(canvas, center, LH - M - 224, line.club, size=14, align="center",
                  max_width=wide)
    draw.text(canvas, center, LH - M - 278, _("Place %(place)s") % {"place": line.rank},
              size=30, bold=True, align="center", max_width=wide)
    below = LH - M - 302
    if line.rank == 1:
        draw.text(canvas, center, below, _("Tournament winner"), size=15, align="center",
                  max_width=wide)
        below -= 22
    figures = {"points": line.points, "worth": draw.money(line.net_worth_sum),
               "games": max(line.played, line.games)}
    if line.played > line.games:  # a deciding final: its place counts, not its points
        detail = _("Games played: %(games)s (final included) · %(points)s points and net "
                   "worth %(worth)s in the preliminary rounds") % figures
    else:
        detail = _("Games played: %(games)s · %(points)s points · net worth %(worth)s") % figures
    draw.text(canvas, center, below, detail, size=11, align="center", max_width=wide)
    y = M + 70
    for x in (M + 60, LW - M - 260):
        draw.hline(canvas, x, x + 200, y, line=0.7)
    draw.text(canvas, M + 160, y - 13, _("Tournament director"), size=9, align="center")
    draw.text(canvas, LW - M - 160, y - 13, _("Head referee"), size=9, align="center")
    draw.text(canvas, center, M + 24, formats.date_format(ctx.tournament.date, "DATE_FORMAT"),
              size=9, align="center")


def certificate_pages(canvas, ctx: Context) -> Iterator[None]:
    lines = winners(ctx)
    for line in sorted(lines, key=lambda item: (item.rank, item.full_name)):
        _certificate(canvas, ctx, line)
        canvas.showPage()
        yield
    if not lines:
        draw.text(canvas, M + 20, LH - M - 60, _("No confirmed result yet: no certificate."),
                  size=14)
        canvas.showPage()
        yield


def certificate_count(ctx: Context) -> int:
    return max(1, ctx.top)
