"""Player cards: each player's personal code and its QR code, eight cards to an A4 page, cut
apart and handed out at check-in. The code opens the player's own page (where to sit now, the
table's clock, results, standing) without a login; the desk renews a lost one (the old card
then opens nothing).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse
from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from printing import draw
from printing.base import Context, footer
from tournament import names
from tournament.models import Player
from tournament.players.services import pass_code_display

W, H = draw.PAGE
M = draw.MARGIN
COLUMNS, ROWS = 2, 4
CARD_W = (W - 2 * M) / COLUMNS
CARD_H = (H - 2 * M - 10) / ROWS
QR = 36 * mm


def players_for(ctx: Context, *, player_ids: list[int] | None = None) -> list[Player]:
    """The players to print cards for: the ones asked for, else everyone checked in and not
    dropped out, by last name (DIN 5007)."""
    players = Player.objects.filter(tournament=ctx.tournament).select_related("club")
    if player_ids is not None:
        players = players.filter(pk__in=player_ids)
    else:
        players = players.filter(checked_in=True, dropped_out=False)
    return sorted(players, key=lambda p: names.last_name_key(p.name))


def card(canvas, ctx: Context, player: Player, x: float, y: float) -> None:
    """One card with its lower left corner at (x, y)."""
    draw.box(canvas, x, y, CARD_W, CARD_H, line=0.3)
    pad = 4 * mm
    url = ctx.absolute(reverse("me", kwargs={"code": player.pass_code}))
    draw.draw_qr(canvas, x + CARD_W - QR - pad + 2 * mm, y + pad, QR, url)
    left = x + pad
    width = CARD_W - QR - 2 * pad
    top = y + CARD_H - pad
    draw.text(canvas, left, top - 8, ctx.tournament.name, size=8, bold=True, max_width=width)
    draw.text(canvas, left, top - 26, player.name, size=13, bold=True, max_width=width)
    if player.club_id and player.club:
        draw.text(canvas, left, top - 38, player.club.label, size=8, max_width=width)
    draw.text(canvas, left, top - 58, _("Your personal code"), size=7.5, max_width=width)
    draw.text(canvas, left, top - 78, pass_code_display(player.pass_code), size=20, bold=True,
              max_width=width)
    below = draw.paragraph(
        canvas, left, top - 94,
        _("Scan the QR code: where you sit, your table's clock, your results and standing."),
        size=7.5, max_width=width, leading=9.5, max_lines=3)
    draw.paragraph(canvas, left, below - 2,
                   _("Or type the code at %(address)s") % {"address": ctx.absolute("/p/")},
                   size=7, max_width=width, leading=9, max_lines=2)
    draw.text(canvas, left, y + pad, _("Keep it to yourself: it opens your page."), size=6.5,
              max_width=width)


def pages(canvas, ctx: Context, *, player_ids: list[int] | None = None) -> Iterator[None]:
    label = _("Player cards")
    players = players_for(ctx, player_ids=player_ids)
    per_page = COLUMNS * ROWS
    for start in range(0, max(1, len(players)), per_page):
        for index, player in enumerate(players[start:start + per_page]):
            row, column = divmod(index, COLUMNS)
            card(canvas, ctx, player, M + column * CARD_W, H - M - (row + 1) * CARD_H)
        if not players:
            draw.text(canvas, M, H - M - 40, _("No player is checked in yet."), size=11)
        footer(canvas, ctx, label)
        canvas.showPage()
        yield


def count(ctx: Context) -> int:
    total = Player.objects.filter(tournament=ctx.tournament, checked_in=True,
                                  dropped_out=False).count()
    return max(1, -(-total // (COLUMNS * ROWS)))
