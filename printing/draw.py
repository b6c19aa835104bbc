"""Drawing helpers shared by the documents: text that fits, boxes, QR codes, numbers, footers.

Everything is black on white (grey only for light shading), so an office laser printer does.
"""

from __future__ import annotations

from typing import BinaryIO

import qrcode
import qrcode.constants
from django.utils import formats
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth

from config import fonts
from printing import glyphs
from printing.stream import StreamingCanvas

PAGE = A4
PAGE_LANDSCAPE = landscape(A4)
MARGIN = 12 * mm
ELLIPSIS = "…"
SHADE = 0.88  # light grey for header rows


def new_canvas(out: BinaryIO, *, title: str, subject: str = "", lang: str = "de",
               page=PAGE) -> StreamingCanvas:
    fonts.register()
    canvas = StreamingCanvas(
        out,
        pagesize=page,
        pageCompression=1,
        initialFontName=fonts.REGULAR,
        initialFontSize=9,
        lang=lang,
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setCreator("Monopoly Championship")
    canvas.setAuthor("Monopoly Championship")
    return canvas


def _characters(bold: bool) -> dict[int, int]:
    """The embedded font's character map (code point → glyph)."""
    fonts.register()
    return pdfmetrics.getFont(fonts.BOLD if bold else fonts.REGULAR).face.charToGlyph


def width(value: str, size: float, *, bold: bool = False) -> float:
    return stringWidth(value, fonts.BOLD if bold else fonts.REGULAR, size)


def fit_size(value: str, size: float, max_width: float, *, bold: bool = False,
             smallest: float = 5.5) -> float:
    """The font size (at most ``size``, at least ``smallest``) at which ``value`` fits."""
    needed = width(value, size, bold=bold)
    if needed <= max_width or not needed:
        return size
    return max(smallest, size * max_width / needed * 0.999)  # a hair under: no float overshoot


def _shorten(value: str, size: float, max_width: float, *, bold: bool) -> str:
    if width(value, size, bold=bold) <= max_width:
        return value
    while value and width(value + ELLIPSIS, size, bold=bold) > max_width:
        value = value[:-1]
    return value.rstrip() + ELLIPSIS


def text(canvas, x: float, y: float, value: str, *, size: float = 9, bold: bool = False,
         align: str = "left", max_width: float | None = None, smallest: float = 5.5) -> None:
    """Draw one line; shrink it to ``max_width`` (down to ``smallest``), then cut with ….
    The text as the font prints it (:func:`printing.glyphs.printable`): right-to-left names
    in reading order, no symbol the font lacks dropped to nothing."""
    value = str(value)
    if not value:
        return
    value = glyphs.printable(value, _characters(bold))
    if max_width is not None:
        size = fit_size(value, size, max_width, bold=bold, smallest=smallest)
        value = _shorten(value, size, max_width, bold=bold)
    canvas.setFont(fonts.BOLD if bold else fonts.REGULAR, size)
    if align == "center":
        canvas.drawCentredString(x, y, value)
    elif align == "right":
        canvas.drawRightString(x, y, value)
    else:
        canvas.drawString(x, y, value)


def paragraph(canvas, x: float, y: float, value: str, *, size: float = 9,
              max_width: float, leading: float | None = None, bold: bool = False,
              align: str = "left", max_lines: int = 12) -> float:
    """Draw ``value`` word-wrapped to ``max_width`` from baseline ``y`` down; returns the
    baseline below the last line. Translations wrap wherever their words fall."""
    font = fonts.BOLD if bold else fonts.REGULAR
    leading = leading or size * 1.3
    for line in simpleSplit(value, font, size, max_width)[:max_lines]:
        text(canvas, x, y, line, size=size, bold=bold, align=align, max_width=max_width)
        y -= leading
    return y


def wrap_chars(value: str, size: float, max_width: float, *, max_lines: int = 3) -> list[str]:
    """Cut a long unbreakable string (a URL) into lines that fit, character by character."""
    lines, current, used = [], "", 0.0
    for char in value:
        char_width = width(char, size)
        if current and used + char_width > max_width:
            lines.append(current)
            current, used = "", 0.0
        current += char
        used += char_width
    if current:
        lines.append(current)
    return lines[:max_lines]


def box(canvas, x: float, y: float, w: float, h: float, *, line: float = 0.6,
        shade: float | None = None) -> None:
    canvas.setLineWidth(line)
    if shade is not None:
        canvas.setFillGray(shade)
        canvas.rect(x, y, w, h, stroke=1, fill=1)
        canvas.setFillGray(0)
    else:
        canvas.rect(x, y, w, h, stroke=1, fill=0)


def hline(canvas, x1: float, x2: float, y: float, *, line: float = 0.5) -> None:
    canvas.setLineWidth(line)
    canvas.line(x1, y, x2, y)


def money(value: int | None) -> str:
    """An amount with the active language's grouping (1.234 in German, 1,234 in English)."""
    if value is None:
        return ""
    return formats.number_format(value, decimal_pos=0, force_grouping=True)


def qr_matrix(data: str) -> list[list[bool]]:
    """The QR code's modules (no quiet zone), error correction M as on the organizer's page.

    The mask pattern is fixed: the eight-way search for the "best" mask costs 5 ms a code in
    pure Python and only tunes the look; every mask is a valid, readable code.
    """
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=2
    )
    code.add_data(data)
    code.make(fit=True)
    return code.get_matrix()


def draw_qr(canvas, x: float, y: float, size: float, data: str) -> None:
    """A QR code of ``data`` with its lower left corner at (x, y), ``size`` wide, quiet zone
    included (4 modules each side, kept white).

    The dark modules go into the page as one filled path of row runs, in a coordinate system of
    one unit per module (whole numbers: short operators, and no float formatting per module).
    """
    matrix = qr_matrix(data)
    count = len(matrix)
    module = size / (count + 8)
    runs = []
    for row_index, row in enumerate(matrix):
        start = None
        for col_index, dark in enumerate([*row, False]):
            if dark and start is None:
                start = col_index
            elif not dark and start is not None:
                runs.append(f"{start} {count - 1 - row_index} {col_index - start} 1 re")
                start = None
    canvas.saveState()
    canvas.translate(x + 4 * module, y + 4 * module)
    canvas.scale(module, module)
    canvas.setFillGray(0)
    canvas.addLiteral("\n".join(runs) + "\nf")
    canvas.restoreState()
