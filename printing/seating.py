"""Seating lists: by table (for the hall and the bankers) and by name (for the entrance).

Public names only: these lists hang where anyone can read them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from django.utils.translation import gettext as _

from printing import data, draw
from printing.base import Context, end_page, no_tables
from tournament.models import Seat

W, H = draw.PAGE
M = draw.MARGIN
CONTENT = W - 2 * M
TOP = H - M - 44  # below the page title

# by table: boxes in a grid
BOX_COLUMNS = 3
BOX_GAP = 8
BOX_W = (CONTENT - (BOX_COLUMNS - 1) * BOX_GAP) / BOX_COLUMNS
SEAT_ROW = 12.5
BOX_HEAD = 18

# by name: two columns of rows
NAME_COLUMNS = 2
NAME_GAP = 16
NAME_W = (CONTENT - (NAME_COLUMNS - 1) * NAME_GAP) / NAME_COLUMNS
NAME_ROW = 15.5
NAME_ROWS = int((TOP - M - 14) // NAME_ROW)


def _title(canvas, ctx: Context, title: str, subtitle: str) -> None:
    top = H - M
    draw.text(canvas, M, top - 16, title, size=17, bold=True, max_width=CONTENT)
    draw.text(canvas, M, top - 31, subtitle, size=9, max_width=CONTENT)


def _subtitle(ctx: Context) -> str:
    return " · ".join(part for part in (ctx.tournament.name, ctx.round_label(),
                                        ctx.tournament_line()) if part)


def _box_height(ctx: Context) -> float:
    largest = ctx.tournament.table_size + (1 if ctx.tournament.larger_tables else 0)
    seated = data.largest_table(ctx.round)
    return BOX_HEAD + max(largest, seated) * SEAT_ROW + 6


def _boxes_per_page(ctx: Context) -> int:
    rows = max(1, int((TOP - M - 4 + BOX_GAP) // (_box_height(ctx) + BOX_GAP)))
    return rows * BOX_COLUMNS


def table_pages(canvas, ctx: Context) -> Iterator[None]:
    title = _("Seating by table")
    per_page = _boxes_per_page(ctx)
    height = _box_height(ctx)
    index = 0
    for table in data.seating(ctx.round):
        slot = index % per_page
        if slot == 0 and index:
            end_page(canvas, ctx, title)
            yield
        if slot == 0:
            _title(canvas, ctx, title, _subtitle(ctx))
        column, row = slot % BOX_COLUMNS, slot // BOX_COLUMNS
        x = M + column * (BOX_W + BOX_GAP)
        y = TOP - row * (height + BOX_GAP) - height
        box_h = BOX_HEAD + len(table.seats) * SEAT_ROW + 6
        draw.box(canvas, x, y + height - box_h, BOX_W, box_h, line=0.8)
        draw.box(canvas, x, y + height - BOX_HEAD, BOX_W, BOX_HEAD, line=0.8, shade=draw.SHADE)
        draw.text(canvas, x + 5, y + height - 13, _("Table %(number)s") % {"number": table.number},
                  size=11, bold=True)
        if table.banker:
            draw.text(canvas, x + BOX_W - 4, y + height - 12.5,
                      _("Banker: %(name)s") % {"name": table.banker}, size=6.5, align="right",
                      max_width=BOX_W - 70)
        seat_y = y + height - BOX_HEAD - SEAT_ROW + 3
        for seat in table.seats:
            draw.text(canvas, x + 12, seat_y, f"{seat.position}", size=9, bold=True,
                      align="right")
            draw.text(canvas, x + 17, seat_y, seat.name, size=9, max_width=BOX_W - 22)
            seat_y -= SEAT_ROW
        index += 1
    if index == 0:
        _title(canvas, ctx, title, _subtitle(ctx))
        no_tables(canvas, TOP - 20)
    end_page(canvas, ctx, title)
    yield


def table_count(ctx: Context) -> int:
    return max(1, math.ceil(data.count_seated_tables(ctx.round) / _boxes_per_page(ctx)))


def name_pages(canvas, ctx: Context, *, full_names: bool = False) -> Iterator[None]:
    title = _("Seating by name (staff, full names)") if full_names else _("Seating by name")
    lines = data.seating_by_name(ctx.round, full_names=full_names)
    # rows: ("letter", "A") or ("name", line); a letter never ends a column
    rows: list[tuple[str, object]] = []
    previous = None
    for line in lines:
        letter = line.letter
        if letter != previous:
            rows.append(("letter", letter))
            previous = letter
        rows.append(("name", line))
    per_page = NAME_ROWS * NAME_COLUMNS
    position = 0
    started = False
    for kind, value in rows:
        slot = position % per_page
        if kind == "letter" and slot % NAME_ROWS == NAME_ROWS - 1:
            position += 1  # keep the letter with its first name
            slot = position % per_page
        if slot == 0:
            if started:
                end_page(canvas, ctx, title)
                yield
            _title(canvas, ctx, title, _subtitle(ctx))
            for column in range(NAME_COLUMNS):
                x = M + column * (NAME_W + NAME_GAP)
                draw.text(canvas, x + NAME_W - 44, TOP - 2, _("Table"), size=7.5, bold=True,
                          align="right")
                draw.text(canvas, x + NAME_W - 4, TOP - 2, _("Seat"), size=7.5, bold=True,
                          align="right")
            started = True
        column, row = divmod(slot, NAME_ROWS)
        x = M + column * (NAME_W + NAME_GAP)
        y = TOP - 14 - (row + 1) * NAME_ROW + 4
        if kind == "letter":
            draw.text(canvas, x, y, str(value), size=11, bold=True)
            draw.hline(canvas, x + 14, x + NAME_W, y + 3.5, line=0.4)
        else:
            line = value
            name_w = NAME_W - 60
            if line.code:  # the staff copy: the personal code, for a player without a card
                name_w -= 50
                draw.text(canvas, x + NAME_W - 62, y, line.code, size=7, align="right")
            draw.text(canvas, x + 4, y, line.name, size=10, max_width=name_w * 0.72)
            used = min(draw.width(line.name, 10), name_w * 0.72)
            if line.club and line.club not in line.name:
                draw.text(canvas, x + 10 + used, y, line.club, size=7,
                          max_width=name_w - used - 8)
            draw.text(canvas, x + NAME_W - 44, y, str(line.table), size=11, bold=True,
                      align="right")
            draw.text(canvas, x + NAME_W - 4, y, str(line.seat), size=10, align="right")
            draw.hline(canvas, x, x + NAME_W, y - 4, line=0.2)
        position += 1
    if not started:
        _title(canvas, ctx, title, _subtitle(ctx))
        no_tables(canvas, TOP - 20)
    end_page(canvas, ctx, title)
    yield


def name_count(ctx: Context) -> int:
    seats = Seat.objects.filter(round=ctx.round).count()
    # names plus letter rows (at most 30) over the rows of a page
    return max(1, math.ceil((seats + min(seats, 30)) / (NAME_ROWS * NAME_COLUMNS)))


def staff_name_pages(canvas, ctx: Context) -> Iterator[None]:
    return name_pages(canvas, ctx, full_names=True)
