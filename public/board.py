"""The board as SVG: every square's place, name lines, owner colour, buildings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from referee import rules

# Players' colours on the board, by seat, distinct from each other; the seat number is drawn
# on every owned deed too, so colour is never the only cue. The number is white: each colour
# keeps a contrast of at least 4.5:1 with it (WCAG AA; the amber was 3.0:1).
PLAYER_COLOURS = (
    "#c8102e",  # red
    "#1b4fbf",  # blue
    "#117a30",  # green
    "#b05e00",  # amber
    "#6a2fb0",  # purple
    "#00808a",  # teal
    "#7a4a1e",  # brown
    "#bf2d88",  # magenta
)
GROUP_COLOURS = {
    "braun": "#8b4a2b",
    "hellblau": "#9fd6f2",
    "pink": "#d6338f",
    "orange": "#f5901e",
    "rot": "#e3202b",
    "gelb": "#f7e11b",
    "gruen": "#1ea75a",
    "dunkelblau": "#1460aa",
}

CORNER = 100
SIDE = 60
BOARD_SIZE = 2 * CORNER + 9 * SIDE  # 740
BAND = 20
TEXT_MIDDLE = 47  # the middle of the zone between the colour band and the price/owner strip
_SUFFIXES = ("straße", "strasse", "bahnhof", "platz", "allee", "steuer", "werk", "feld")


def label_lines(name: str, width: int = 10) -> list[str]:
    """A square's name in at most three short lines (long German compounds are hyphenated
    before a known suffix: "Chaussee-" / "straße")."""
    words: list[str] = []
    for word in name.replace("/", "/ ").split():
        if len(word) > width:
            lower = word.lower()
            for suffix in _SUFFIXES:
                if lower.endswith(suffix) and len(word) > len(suffix) + 2:
                    cut = len(word) - len(suffix)
                    words.extend([word[:cut] + "-", word[cut:]])
                    break
            else:
                words.append(word)
        else:
            words.append(word)
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width and not lines[-1].endswith("-"):
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 3:
        lines = lines[:2] + [" ".join(lines[2:])]
    return lines


def _cell(position: int) -> tuple[float, float, int, bool]:
    """Centre (x, y), rotation of the square's upright frame, and whether it is a corner."""
    far = BOARD_SIZE - CORNER / 2
    near = CORNER / 2
    if position % 10 == 0:
        corners = {0: (far, far), 10: (near, far), 20: (near, near), 30: (far, near)}
        x, y = corners[position]
        return x, y, 0, True
    side, step = divmod(position, 10)
    offset = CORNER + (step - 1) * SIDE + SIDE / 2
    if side == 0:  # bottom row, right to left
        return BOARD_SIZE - offset, far, 0, False
    if side == 1:  # left column, bottom to top
        return near, BOARD_SIZE - offset, 90, False
    if side == 2:  # top row, left to right
        return offset, near, 180, False
    return far, offset, 270, False  # right column, top to bottom


@dataclass
class SquareView:
    position: int
    key: str
    name: str
    kind: str
    lines: list[str]
    x: float
    y: float
    rotate: int
    corner: bool
    band: str = ""
    price: int = 0
    owner: str | None = None
    owner_colour: str = ""
    owner_seat: int | None = None
    owner_name: str = ""
    mortgaged: bool = False
    houses: list[int] = field(default_factory=list)
    hotel: bool = False
    title: str = ""

    @property
    def transform(self) -> str:
        if self.corner:
            return f"translate({self.x - CORNER / 2:g},{self.y - CORNER / 2:g})"
        return (f"translate({self.x:g},{self.y:g}) rotate({self.rotate}) "
                f"translate({-SIDE / 2:g},{-CORNER / 2:g})")

    @property
    def flip_text(self) -> bool:
        """The top row's text is turned upright for readers in front of the screen."""
        return self.rotate == 180

    @property
    def text_rows(self) -> list[dict[str, Any]]:
        """The name's lines with their baselines, centred in the square's middle zone."""
        if self.corner:
            middle, height = CORNER / 2, 14
        else:
            middle, height = TEXT_MIDDLE, 10
        first = middle - (len(self.lines) - 1) * height / 2 + height * 0.3
        return [{"y": round(first + i * height, 1), "text": line}
                for i, line in enumerate(self.lines)]


def board_view(board: rules.Board, deeds: Iterable[dict[str, Any]],
               seats: dict[str, dict[str, Any]]) -> list[SquareView]:
    """Every square with its place on the board and, for deeds, owner, mortgage, buildings."""
    by_key = {deed["key"]: deed for deed in deeds}
    out = []
    for square in board.squares:
        x, y, rotate, corner = _cell(square.position)
        view = SquareView(
            position=square.position, key=square.key, name=square.name, kind=square.kind,
            lines=label_lines(square.name, 14 if corner else 10), x=x, y=y, rotate=rotate,
            corner=corner, band=GROUP_COLOURS.get(square.group, "") if square.kind == "street"
            else "", price=square.price,
        )
        title = [square.name]
        deed = by_key.get(square.key)
        if deed is not None:
            owner = deed.get("owner")
            if owner is not None and owner in seats:
                seat = seats[owner]
                view.owner, view.owner_colour = owner, seat["colour"]
                view.owner_seat, view.owner_name = seat["seat"], seat["name"]
                title.append(seat["name"])
            view.mortgaged = bool(deed.get("mortgaged"))
            view.hotel = bool(deed.get("hotel"))
            count = int(deed.get("houses") or 0)
            view.houses = [3 + i * 14.5 for i in range(min(count, 4))]
            if view.mortgaged:
                title.append(_("mortgaged"))
            if view.hotel:
                title.append(_("hotel"))
            elif count:
                title.append(_("%(count)s houses") % {"count": count} if count > 1
                             else _("1 house"))
        view.title = " · ".join(title)
        out.append(view)
    return out


def board_geometry() -> dict[str, int]:
    return {"board_size": BOARD_SIZE, "corner": CORNER, "side": SIDE, "band": BAND,
            "middle": BOARD_SIZE / 2, "text_middle": TEXT_MIDDLE}


#: The board's centre between the corners, less a margin: the leader's name fits in this.
LEADER_WIDTH = 480
LEADER_SIZE = 26  # px, bold (public.css: .c-leader)


def leader_squeezed(name: str) -> bool:
    """Whether the leader's name must be fitted into the centre (SVG ``textLength``): measured
    in DejaVu Sans Bold, wider than the usual phone and desktop fonts, so what fits here fits
    there; a count of characters missed "WWW" names and squeezed short ones."""
    from reportlab.pdfbase import pdfmetrics

    from config import fonts

    fonts.register()
    return pdfmetrics.stringWidth(name, fonts.BOLD, LEADER_SIZE) > LEADER_WIDTH

