"""QR codes as inline SVG (no PIL): banker links on the organizer's page and the table cards."""

from __future__ import annotations

import re

import qrcode
import qrcode.constants
from django.utils.html import escape
from qrcode.image.svg import SvgPathFillImage

_FIXED_SIZE = re.compile(r'\s(?:width|height)="[^"]*"')


def qr_svg(url: str, *, border: int = 4, title: str | None = None) -> str:
    """An ``<svg>`` element (no XML declaration) encoding ``url``; scales with CSS.

    One black ``<path>`` on a white background, error correction M (a table card may get a
    coffee stain). The SVG has a ``viewBox`` but no fixed size: set ``width``/``height`` with
    CSS or an attribute where it is embedded (a printed card: about 3 cm).
    """
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        border=border,
        image_factory=SvgPathFillImage,
    )
    code.add_data(url)
    code.make(fit=True)
    image = code.make_image()
    svg = image.to_string(encoding="unicode")
    # Drop the fixed millimetre size so that the embedding page decides; keep the viewBox.
    head, _, rest = svg.partition(">")
    head = _FIXED_SIZE.sub("", head) + ' role="img"'
    label = f"<title>{escape(title)}</title>" if title else ""
    return f"{head}>{label}{rest}"
