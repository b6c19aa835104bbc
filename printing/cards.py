"""Table cards for the bankers: the table number, large, and a QR code of the table's private
banker link (it opens the referee console without a password).

Printed apart from the public score sheets and handed to each banker: whoever holds the code
can run the table. A table without a live link gets one issued; revoking a link on the bankers'
page makes its printed card useless at once (print the card again after re-issuing).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext as _

from printing import data, draw
from printing.base import Context, end_page, no_tables

W, H = draw.PAGE
M = draw.MARGIN
CONTENT = W - 2 * M
QR_SIZE = 230  # about 8 cm, quiet zone included


def pages(canvas, ctx: Context, *, changed_only: bool = False) -> Iterator[None]:
    label = _("Table card")
    printed = False
    for card in data.cards(ctx.round, changed_only=changed_only):
        printed = True
        top = H - M
        draw.text(canvas, W / 2, top - 18, ctx.tournament.name, size=12, bold=True,
                  align="center", max_width=CONTENT)
        draw.text(canvas, W / 2, top - 34, ctx.round_label(), size=11, align="center")
        draw.text(canvas, W / 2, top - 90, _("Table"), size=40, bold=True, align="center")
        draw.text(canvas, W / 2, top - 290, str(card.number), size=200, bold=True,
                  align="center", max_width=CONTENT)
        if card.players:
            # Tables of 4 and 5 side by side (official rules): the players see which is theirs.
            draw.text(canvas, W / 2, top - 330,
                      _("%(count)s players") % {"count": card.players}, size=22, bold=True, align="center")
        # the private part
        y = M + 40
        draw.box(canvas, M, y, CONTENT, QR_SIZE + 90, line=1.2)
        draw.draw_qr(canvas, M + 10, y + 10, QR_SIZE, ctx.absolute(card.link))
        tx = M + QR_SIZE + 24
        tw = CONTENT - QR_SIZE - 34
        ty = y + QR_SIZE + 62
        draw.text(canvas, M + 10, ty + 8, _("For the banker only – do not leave on the table"),
                  size=12, bold=True, max_width=CONTENT - 20)
        if card.banker:
            draw.text(canvas, M + 10, ty - 10, _("Banker: %(name)s") % {"name": card.banker},
                      size=10, max_width=CONTENT - 20)
        below = draw.paragraph(
            canvas, tx, y + QR_SIZE - 14,
            _("Scan the code with the tablet or phone you run this table's game on: it opens "
              "the table's console without a password."),
            size=9.5, max_width=tw, leading=14)
        draw.paragraph(
            canvas, tx, below - 10,
            _("Whoever holds this code can record the table's game. Lost it? The organizers "
              "revoke the link and print a new card."),
            size=9.5, max_width=tw, leading=14)
        address = draw.wrap_chars(ctx.absolute(card.link), 6.5, tw)
        address_y = y + 12 + 8 * (len(address) - 1)
        draw.text(canvas, tx, address_y + 11, _("Or type the address:"), size=7, bold=True,
                  max_width=tw)
        for part in address:
            draw.text(canvas, tx, address_y, part, size=6.5)
            address_y -= 8
        end_page(canvas, ctx, _("%(label)s · Table %(table)s") % {"label": label,
                                                                 "table": card.number})
        yield
    if not printed:
        if changed_only and data.count_seated_tables(ctx.round):
            draw.text(canvas, M, H - M - 40, _("Every table keeps its card from the last round: "
                                               "nothing to print."), size=11)
        else:
            no_tables(canvas, H - M - 40)
        end_page(canvas, ctx, label)
        yield


def count(ctx: Context) -> int:
    return max(1, data.count_seated_tables(ctx.round))


def changed_pages(canvas, ctx: Context) -> Iterator[None]:
    """Only the tables whose card changed since the previous round (``data.unchanged_cards``)."""
    return pages(canvas, ctx, changed_only=True)


def changed_count(ctx: Context) -> int:
    return max(1, data.count_changed_cards(ctx.round))
