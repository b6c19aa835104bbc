"""The embedded font: DejaVu Sans (regular and bold), shipped in ``fonts/`` with its licence.

The base-14 PDF fonts would need a single-byte encoding for ä ö ü ß; an embedded TrueType subset
carries every glyph the documents use, so a German name prints the same on every printer.
Debian's copy (``fonts-dejavu-core``) is the fallback should the shipped files be missing.
"""

from __future__ import annotations

import threading
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
SHIPPED = Path(__file__).resolve().parent / "fonts"
DEBIAN = Path("/usr/share/fonts/truetype/dejavu")
_lock = threading.Lock()
_registered = False


def font_path(name: str) -> Path:
    for folder in (SHIPPED, DEBIAN):
        path = folder / f"{name}.ttf"
        if path.is_file():
            return path
    raise FileNotFoundError(f"{name}.ttf: neither in {SHIPPED} nor in {DEBIAN}")


def register() -> None:
    """Register both faces with reportlab once per process (idempotent, thread-safe)."""
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        for name in (REGULAR, BOLD):
            pdfmetrics.registerFont(TTFont(name, str(font_path(name))))
        pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD)
        _registered = True
