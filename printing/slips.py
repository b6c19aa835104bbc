"""Confirmation-code slips: the second person's half of the result.

A table's 4-digit code confirms its count. Printed on the score sheet it lay at the banker's
place, so the banker alone could confirm. The code is now printed only here: eight slips to an
A4 page, cut apart and handed folded to a player of each table (not the banker) when the round
starts. After the count, that player types it into the console: the result is confirmed by a
second person. Organizers only, like the table cards.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext as _

from printing import data, draw
from printing.base import Context, end_page, no_tables

W, H = draw.PAGE
M = draw.MARGIN
COLUMNS, ROWS = 2, 4
SLIP_W = (W - 2 * M) / COLUMNS
SLIP_H = (H - 2 * M - 14) / ROWS


def _slip(canvas, ctx: Context, slip: data.SlipData, x: float, y: float) -> None:
    """One slip with its lower-left corner at (x, y); dashed cut lines around it."""
    canvas.saveState()
    canvas.setDash(4, 3)
    canvas.setLineWidth(0.5)
    canvas.rect(x, y, SLIP_W, SLIP_H)
    canvas.restoreState()
    inner = SLIP_W - 24
    top = y + SLIP_H - 16
    table = _("Table %(table)s") % {"table": slip.table}
    # The tournament name and the round share the top lines with the table's number: they
    # stop short of it (shrunk, then cut with …) instead of running under it.
    beside = inner - min(draw.width(table, 16, bold=True), inner / 2) - 10
    draw.text(canvas, x + 12, top, ctx.tournament.name, size=8, bold=True, max_width=beside)
    draw.text(canvas, x + 12, top - 12, ctx.round_label(), size=8, max_width=beside)
    draw.text(canvas, x + SLIP_W - 12, top - 6, table, size=16, bold=True, align="right",
              max_width=inner / 2)
    draw.text(canvas, x + 12, top - 34, _("Confirmation code for the players"), size=9,
              bold=True, max_width=inner)
    if slip.code:
        draw.text(canvas, x + SLIP_W / 2, top - 78, slip.code, size=40, bold=True,
                  align="center")
    else:  # no game yet (seated before this release, a moved player): a print creates none
        draw.paragraph(canvas, x + 12, top - 58,
                       _("No code yet: codes are issued when the round is seated."),
                       size=9, leading=11, max_width=inner, max_lines=2)
    draw.paragraph(
        canvas, x + 12, top - 100,
        _("Keep this slip folded; the banker must not see it. After the count one of you "
          "checks the result in the banker's console and types this code to confirm it."),
        size=7.5, leading=9.5, max_width=inner, max_lines=4)


def pages(canvas, ctx: Context) -> Iterator[None]:
    label = _("Code slips")
    slips = data.code_slips(ctx.round)
    per_page = COLUMNS * ROWS
    for start in range(0, max(len(slips), 1), per_page):
        chunk = slips[start:start + per_page]
        draw.text(canvas, M, H - M - 8,
                  _("Cut apart; give each table's slip to one of its players, not the banker."),
                  size=8, bold=True, max_width=W - 2 * M)
        for index, slip in enumerate(chunk):
            column, row = index % COLUMNS, index // COLUMNS
            _slip(canvas, ctx, slip, M + column * SLIP_W, H - M - 14 - (row + 1) * SLIP_H)
        if not chunk:
            no_tables(canvas, H - M - 40)
        end_page(canvas, ctx, label)
        yield


def count(ctx: Context) -> int:
    tables = data.count_seated_tables(ctx.round)
    return max(1, -(-tables // (COLUMNS * ROWS)))
