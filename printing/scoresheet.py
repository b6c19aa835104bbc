"""The score sheet: one A4 page per table and round, the paper record the players sign.

Top: tournament, round, table, banker, where the confirmation code is (on the players' slip,
``slips.py``: not here, where the banker alone could read it) and a QR code to the table's public
page. Then the clock (start written in by hand, auction stop and limit), the deed checklist of
the whole board grouped by colour (owner = seat number, houses, hotel, mortgaged), the net-worth
count per player (cash, deeds, mortgaged deeds at half, houses, hotels, total, place, signature),
notes and the banker's signature. A finished game prints pre-filled from its record.

The parts that are the same on every sheet of a board (the checklist grid with deed names and
prices, the column heads) are drawn once per document as PDF form objects and placed on each
page: smaller files, and 200 sheets in well under the 3 seconds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.utils import formats, timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from printing import data, draw
from printing.base import Context, end_page
from referee import rules
from referee.feed import ordinal

W, H = draw.PAGE
M = draw.MARGIN
CONTENT = W - 2 * M
QR_SIZE = 78  # points, quiet zone included: about 27 mm


def _mortgaged_heading() -> str:
    """One word for a mortgaged deed on console, sheet and form ("mit Hypothek")."""
    return capfirst(_("mortgaged"))


# The checklist: two columns of groups side by side.
CHECK_TOP = 666
ROW = 12.6
CHECK_ROWS = 19  # the classic board: 28 deeds in 10 groups
GUTTER = 10
COL_W = (CONTENT - GUTTER) / 2
#: name, price, owner, houses, hotel, mortgaged (widths add up to COL_W)
CHECK_COLS = (80, 28, 38, 36, 26, COL_W - 208)
CHECK_HEAD = 19

# The net-worth count: one row per seat.
WORTH_COLS = (20, 102, 48, 54, 60, 42, 42, 52, 28)  # + the signature column
WORTH_HEAD = 22
WORTH_SPACE = 162

GROUP_LABELS = {
    "braun": gettext_lazy("Brown"),
    "hellblau": gettext_lazy("Light blue"),
    "pink": gettext_lazy("Pink"),
    "violett": gettext_lazy("Purple"),
    "orange": gettext_lazy("Orange"),
    "rot": gettext_lazy("Red"),
    "gelb": gettext_lazy("Yellow"),
    "gruen": gettext_lazy("Green"),
    "dunkelblau": gettext_lazy("Dark blue"),
    "bahnhof": gettext_lazy("Stations"),
    "werk": gettext_lazy("Utilities"),
}


def group_label(key: str) -> str:
    label = GROUP_LABELS.get(key)
    return str(label) if label is not None else key.replace("-", " ").replace("_", " ").title()


def split_groups(board: rules.Board) -> tuple[list[str], list[str]]:
    """The board's groups (streets in board order, then stations, then utilities), cut into two
    columns of about equal height."""
    kinds = {"street": 0, "station": 1, "utility": 2}
    first = {}
    for deed in board.deeds:
        first.setdefault(deed.group, (kinds.get(deed.kind, 3), deed.position))
    order = sorted(first, key=first.__getitem__)  # colour groups, then stations, utilities
    heights = [len(board.groups[group]) + 1 for group in order]  # + the group's title row
    total = sum(heights)
    cut = min(range(len(order) + 1),
              key=lambda index: max(sum(heights[:index]), total - sum(heights[:index])))
    return order[:cut], order[cut:]


def row_height(board: rules.Board) -> float:
    """Rows of the taller column share the checklist's height (12.6 pt for the classic board)."""
    left, right = split_groups(board)
    rows = max(sum(len(board.groups[group]) + 1 for group in column) for column in (left, right))
    return min(ROW, CHECK_ROWS * ROW / max(rows, 1))


def _clock(moment: dt.datetime | None) -> str:
    if moment is None:
        return ""
    return formats.time_format(timezone.localtime(moment), "H:i")


# --- static parts (form objects) ----------------------------------------------------------------


def _checklist_form(canvas, board: rules.Board, max_houses: int, name: str) -> None:
    canvas.beginForm(name)
    left, right = split_groups(board)
    row = row_height(board)
    heads = (
        (_("Deed"),), (_("Price"),), (_("Owner"), _("seat no.")),
        (_("Houses"), _("max. %(count)s") % {"count": max_houses}), (_("Hotel"),),
        (_mortgaged_heading(),),
    )
    for column, groups in enumerate((left, right)):
        x0 = M + column * (COL_W + GUTTER)
        y = CHECK_TOP
        draw.box(canvas, x0, y - CHECK_HEAD, COL_W, CHECK_HEAD, shade=draw.SHADE)
        x = x0
        for index, (lines, col) in enumerate(zip(heads, CHECK_COLS, strict=True)):
            first_y = y - 8 if len(lines) == 2 else y - 12
            for line_no, line in enumerate(lines):
                if index == 0:
                    draw.text(canvas, x + 2, first_y, line, size=6.5, bold=True)
                else:
                    draw.text(canvas, x + col / 2, first_y - line_no * 7, line,
                              size=5.8 if line_no else 6.5, bold=not line_no, align="center",
                              max_width=col - 3)
            x += col
        y -= CHECK_HEAD
        for group in groups:
            y -= row
            canvas.setFillGray(0.94)
            canvas.rect(x0, y, COL_W, row, stroke=0, fill=1)
            canvas.setFillGray(0)
            draw.text(canvas, x0 + 2, y + row / 2 - 2.5, group_label(group), size=7, bold=True)
            for key in board.groups[group]:
                deed = board.deed(key)
                y -= row
                draw.text(canvas, x0 + 2, y + row / 2 - 2.7, deed.name, size=7.5,
                          max_width=CHECK_COLS[0] - 4)
                draw.text(canvas, x0 + CHECK_COLS[0] + CHECK_COLS[1] - 3, y + row / 2 - 2.5,
                          draw.money(deed.price), size=7, align="right")
                if deed.kind != "street":  # no buildings on stations and utilities
                    cx = x0 + sum(CHECK_COLS[:3])
                    canvas.setFillGray(0.8)
                    canvas.rect(cx, y, CHECK_COLS[3] + CHECK_COLS[4], row, stroke=0, fill=1)
                    canvas.setFillGray(0)
                draw.hline(canvas, x0, x0 + COL_W, y, line=0.3)
        # the grid
        canvas.setLineWidth(0.6)
        canvas.rect(x0, y, COL_W, CHECK_TOP - y, stroke=1, fill=0)
        x = x0
        canvas.setLineWidth(0.3)
        for col in CHECK_COLS[:-1]:
            x += col
            canvas.line(x, y, x, CHECK_TOP)
    canvas.endForm()


def _worth_form(canvas, ruleset: rules.Ruleset, seats: int, name: str) -> None:
    canvas.beginForm(name)
    top = _worth_top()
    heads = (
        (_("Seat"),), (_("Player"),), (_("Cash"),), (_("Properties"), _("at price")),
        (_mortgaged_heading(), _("at half price")), (_("Houses"),), (_("Hotels"),),
        (_("Net worth"), _("total")), (_("Place"),), (_("Signature"),),
    )
    widths = [*WORTH_COLS, CONTENT - sum(WORTH_COLS)]
    row = _worth_row(seats)
    bottom = top - WORTH_HEAD - seats * row
    draw.box(canvas, M, top - WORTH_HEAD, CONTENT, WORTH_HEAD, shade=draw.SHADE)
    x = M
    for lines, col in zip(heads, widths, strict=True):
        first_y = top - 9 if len(lines) == 2 else top - 13.5
        for index, line in enumerate(lines):
            draw.text(canvas, x + col / 2, first_y - index * 8, line, size=6.5 if index else 7,
                      bold=not index, align="center", max_width=col - 3)
        x += col
    canvas.setLineWidth(0.6)
    canvas.rect(M, bottom, CONTENT, top - bottom, stroke=1, fill=0)
    canvas.setLineWidth(0.3)
    for index in range(1, seats):
        canvas.line(M, top - WORTH_HEAD - index * row, M + CONTENT, top - WORTH_HEAD - index * row)
    x = M
    for col in widths[:-1]:
        x += col
        canvas.line(x, bottom, x, top)
    # what counts, in one line under the table
    rule = _(
        "Net worth = cash + deeds at their printed price + mortgaged deeds at half price + "
        "houses at building price + hotels at %(houses)s × building price."
    ) % {"houses": ruleset.hotel_value_in_houses}
    draw.text(canvas, M, bottom - 9, rule, size=6.5, max_width=CONTENT)
    canvas.endForm()


def _worth_top() -> float:
    return CHECK_TOP - CHECK_HEAD - CHECK_ROWS * ROW - 30


def _worth_row(seats: int) -> float:
    return min(24.0, (WORTH_SPACE - WORTH_HEAD) / max(seats, 1))


# --- the frame: everything that is the same on each sheet of a document --------------------

CODE_W = 110
STATUS_Y = H - M - QR_SIZE - 17
CLOCK_Y = STATUS_Y - 30
BLANK = 38


def _clock_fields(ruleset: rules.Ruleset) -> list[tuple[str, str]]:
    """(key, label) of the clock line: start, auction stop, limit (if the rules have them), end."""
    fields = [("start", _("Start"))]
    if ruleset.auction_stop_minute:
        fields.append(("stop", _("Auction stop (%(minutes)s min)") % {
            "minutes": ruleset.auction_stop_minute}))
    if ruleset.time_limit_minutes:
        fields.append(("limit", _("Time limit (%(minutes)s min)") % {
            "minutes": ruleset.time_limit_minutes}))
    fields.append(("end", _("End")))
    return fields


def _field_width(label: str) -> float:
    return draw.width(label, 7.5, bold=True) + 4 + BLANK + 2 + draw.width(_("o'clock"), 6.5)


def _clock_slots(ruleset: rules.Ruleset) -> list[tuple[str, str, float]]:
    """(key, label, x of the blank) per clock field, spread over the line."""
    fields = _clock_fields(ruleset)
    gap = (CONTENT - sum(_field_width(label) for _key, label in fields)) / max(len(fields) - 1, 1)
    slots, x = [], M
    for key, label in fields:
        slots.append((key, label, x + draw.width(label, 7.5, bold=True) + 4))
        x += _field_width(label) + gap
    return slots


def _frame_form(canvas, ctx: Context, ruleset: rules.Ruleset, name: str) -> None:
    canvas.beginForm(name)
    top = H - M
    draw.text(canvas, M, top - 14, _("Score sheet"), size=16, bold=True)
    draw.text(canvas, M, top - 29, ctx.tournament.name, size=10, bold=True, max_width=300)
    draw.text(canvas, M, top - 41, ctx.tournament_line(), size=8, max_width=300)
    # the confirmation code's box
    code_x = W - M - QR_SIZE - 8 - CODE_W
    draw.box(canvas, code_x, top - QR_SIZE + 6, CODE_W, QR_SIZE - 6, line=1.2)
    middle = code_x + CODE_W / 2
    draw.text(canvas, middle, top - 14, _("Confirmation code"), size=7, bold=True,
              align="center", max_width=CODE_W - 6)
    draw.paragraph(canvas, middle, top - 30,
                   _("On the players' slip, not on this sheet: a player of the table types it "
                     "to confirm the result."), size=5.8,
                   leading=7, align="center", max_width=CODE_W - 8, max_lines=5)
    draw.text(canvas, W - M - QR_SIZE / 2, top - QR_SIZE - 6, _("Live: this table"), size=6,
              align="center", max_width=QR_SIZE)
    draw.text(canvas, M + 255, STATUS_Y, _("Rules: %(name)s") % {"name": ruleset.name},
              size=7.5, max_width=CONTENT - 255)
    # the clock line: labels and blanks
    for _key, label, line_x in _clock_slots(ruleset):
        draw.text(canvas, line_x - 4 - draw.width(label, 7.5, bold=True), CLOCK_Y, label,
                  size=7.5, bold=True)
        draw.hline(canvas, line_x, line_x + BLANK, CLOCK_Y - 1.5, line=0.5)
        draw.text(canvas, line_x + BLANK + 2, CLOCK_Y, _("o'clock"), size=6.5)
    draw.text(canvas, M, CHECK_TOP + 5,
              _("Deeds at the end: owner as seat number, houses as a number, hotel and "
                "mortgage with a cross"), size=7.5, bold=True, max_width=CONTENT)
    draw.text(canvas, M, _worth_top() + 5, _("Count at the end"), size=7.5, bold=True)
    # notes and signatures
    notes_top = _worth_top() - WORTH_SPACE - 22
    notes_h = 62
    draw.box(canvas, M, notes_top - notes_h, CONTENT, notes_h)
    draw.text(canvas, M + 3, notes_top - 9, _("Notes (disputes, corrections, time penalties)"),
              size=7, bold=True)
    y = _signature_y()
    half = CONTENT / 2
    draw.hline(canvas, M, M + half - 20, y)
    draw.text(canvas, M, y - 9, _("Signature of the banker"), size=7, max_width=half - 20)
    draw.hline(canvas, M + half + 20, M + CONTENT, y)
    draw.text(canvas, M + half + 20, y - 9, _("Signature of the head referee (if disputed)"),
              size=7, max_width=half - 20)
    canvas.endForm()


def _signature_y() -> float:
    return _worth_top() - WORTH_SPACE - 22 - 62 - 34


# --- one sheet: what differs from table to table ----------------------------------------------


def _header(canvas, ctx: Context, sheet: data.SheetData) -> None:
    top = H - M
    title = _("%(round)s · Table %(table)s") % {"round": ctx.round_label(), "table": sheet.table}
    draw.text(canvas, M, top - 64, title, size=19, bold=True, max_width=320)
    draw.draw_qr(canvas, W - M - QR_SIZE, top - QR_SIZE, QR_SIZE,
                 ctx.public_table_url(sheet.table))
    banker = sheet.banker or "________________"
    draw.text(canvas, M, STATUS_Y, _("Banker: %(name)s") % {"name": banker}, size=9,
              max_width=250)
    if sheet.prefilled:
        state = {
            "confirmed": _("result confirmed"),
            "counted": _("result counted, not yet confirmed"),
            "disputed": _("result disputed"),
        }.get(sheet.result or "", _("game ended, not yet counted"))
        source = (_("Pre-filled from the paper sheet (entered by the head referee): %(state)s.")
                  if sheet.from_paper else _("Pre-filled from the game record: %(state)s."))
        draw.text(canvas, M, STATUS_Y - 11, source % {"state": state}, size=7.5, bold=True,
                  max_width=CONTENT)
    if sheet.banker:
        label_w = draw.width(_("Signature of the banker"), 7)
        draw.text(canvas, M + label_w + 4, _signature_y() - 9, f"({sheet.banker})", size=7,
                  max_width=CONTENT / 2 - 24 - label_w)


def _clock_values(canvas, sheet: data.SheetData) -> None:
    start = sheet.started_at
    if start is None:
        return
    paused = dt.timedelta(seconds=sheet.paused_seconds or 0)
    ruleset = sheet.ruleset
    values = {
        "start": _clock(start),
        "end": _clock(sheet.ended_at) if sheet.finished else "",
    }
    if ruleset.auction_stop_minute:
        values["stop"] = _clock(start + paused + dt.timedelta(minutes=ruleset.auction_stop_minute))
    if ruleset.time_limit_minutes:
        values["limit"] = _clock(start + paused + dt.timedelta(minutes=ruleset.time_limit_minutes))
    for key, _label, line_x in _clock_slots(ruleset):
        if values.get(key):
            draw.text(canvas, line_x + BLANK / 2, CLOCK_Y + 1, values[key], size=9, bold=True,
                      align="center")


def _checklist_values(canvas, sheet: data.SheetData) -> None:
    left, right = split_groups(sheet.board)
    row = row_height(sheet.board)
    for column, groups in enumerate((left, right)):
        x0 = M + column * (COL_W + GUTTER)
        y = CHECK_TOP - CHECK_HEAD
        for group in groups:
            y -= row
            for key in sheet.board.groups[group]:
                y -= row
                mark = sheet.deeds.get(key)
                if mark is None or mark.owner is None:
                    continue
                base = y + row / 2 - 2.8
                marks = (str(mark.owner), str(mark.houses) if mark.houses else "",
                         "X" if mark.hotel else "", "X" if mark.mortgaged else "")
                x = x0 + sum(CHECK_COLS[:2])
                for value, col in zip(marks, CHECK_COLS[2:], strict=True):
                    if value:
                        draw.text(canvas, x + col / 2, base, value, size=8, bold=True,
                                  align="center")
                    x += col


def _worth_values(canvas, sheet: data.SheetData) -> None:
    top = _worth_top() - WORTH_HEAD
    row = _worth_row(len(sheet.seats))
    for index, seat in enumerate(sheet.seats):
        y = top - (index + 1) * row
        base = y + row / 2 - 3
        x = M
        draw.text(canvas, x + WORTH_COLS[0] / 2, base, str(seat.position), size=9, bold=True,
                  align="center")
        x += WORTH_COLS[0]
        draw.text(canvas, x + 3, base, seat.name, size=8.5, max_width=WORTH_COLS[1] - 6)
        x += WORTH_COLS[1]
        worth = sheet.worth.get(seat.key)
        if worth is None:
            continue
        if worth.bankrupt:
            span = sum(WORTH_COLS[2:8])
            canvas.setFillGray(1)  # one cell across the amounts
            canvas.rect(x + 0.4, y + 0.4, span - 0.8, row - 0.8, stroke=0, fill=1)
            canvas.setFillGray(0)
            label = (_("bankrupt as no. %(order)s") % {"order": worth.bankrupt_order}
                     if worth.bankrupt_order else _("bankrupt"))
            draw.text(canvas, x + span / 2, base, label, size=8, bold=True, align="center")
            x += span
        else:
            amounts = (worth.cash, worth.deeds, worth.mortgaged, worth.houses, worth.hotels)
            for amount, col in zip(amounts, WORTH_COLS[2:7], strict=True):
                draw.text(canvas, x + col - 3, base, draw.money(amount), size=8, align="right",
                          max_width=col - 5)
                x += col
            draw.text(canvas, x + WORTH_COLS[7] - 3, base, draw.money(worth.total), size=8.5,
                      bold=True, align="right", max_width=WORTH_COLS[7] - 5)
            x += WORTH_COLS[7]
        draw.text(canvas, x + WORTH_COLS[8] / 2, base, ordinal(worth.place), size=9, bold=True,
                  align="center")


def pages(canvas, ctx: Context) -> Iterator[None]:
    forms: dict[tuple, str] = {}

    def once(key: tuple, make) -> str:
        """The form for ``key``, drawn the first time it is needed (names: f1, f2, …)."""
        if key not in forms:
            forms[key] = f"f{len(forms) + 1}"
            make(forms[key])
        return forms[key]

    for sheet in data.score_sheets(ctx.round):
        ruleset, board, seats = sheet.ruleset, sheet.board, len(sheet.seats)
        frame = once(("frame", ruleset),
                     lambda name, r=ruleset: _frame_form(canvas, ctx, r, name))
        check = once(("check", board.key, ruleset.max_houses),
                     lambda name, b=board, r=ruleset: _checklist_form(canvas, b, r.max_houses,
                                                                      name))
        worth = once(("worth", ruleset, seats),
                     lambda name, r=ruleset, n=seats: _worth_form(canvas, r, n, name))
        canvas.doForm(frame)
        canvas.doForm(check)
        canvas.doForm(worth)
        _header(canvas, ctx, sheet)
        _clock_values(canvas, sheet)
        _worth_values(canvas, sheet)  # seat numbers and names; amounts when pre-filled
        if sheet.prefilled:
            _checklist_values(canvas, sheet)
        end_page(canvas, ctx, _("Score sheet · %(round)s · Table %(table)s") % {
            "round": ctx.round_label(), "table": sheet.table})
        yield


def count(ctx: Context) -> int:
    return data.count_seated_tables(ctx.round)
