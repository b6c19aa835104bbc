"""Reading printed PDFs back in tests: poppler's ``pdftotext`` and ``pdfinfo``, QR codes with
``zbarimg`` (Debian ``poppler-utils`` and ``zbar-tools``: skipped without them, failed in CI)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from require import missing

#: The public address the printing tests render their documents with.
BASE = "http://hall.example.org:8000"


def rendered(document: str, tournament, round_=None, lang: str = "de", **options) -> bytes:
    """A printed document as the print pages render it (at :data:`BASE`); ``options``: the
    document's own (``top=`` for certificates ...)."""
    import io

    from printing import documents

    out = io.BytesIO()
    documents.render(document, out, tournament=tournament, round_=round_, lang=lang,
                     base_url=BASE, **options)
    return out.getvalue()


def tool(name: str) -> str:
    """The path of a poppler or zbar program (skipped without it, failed in CI)."""
    path = shutil.which(name)
    if path is None:
        missing(f"needs {name} (apt-get install poppler-utils zbar-tools)")
    return path


def text(pdf: bytes, page: int | None = None, *, layout: bool = False,
         crop: tuple[int, int, int, int] | None = None) -> str:
    """The text (of one page); ``crop`` = x, y, width, height in points from the top left."""
    args = [tool("pdftotext")]
    if page is not None:
        args += ["-f", str(page), "-l", str(page)]
    if layout:
        args.append("-layout")
    if crop is not None:
        for flag, value in zip(("-x", "-y", "-W", "-H"), crop, strict=True):
            args += [flag, str(value)]
    return subprocess.run([*args, "-", "-"], input=pdf, capture_output=True, check=True
                          ).stdout.decode()


def pages(pdf: bytes) -> int:
    info = subprocess.run([tool("pdfinfo"), "-"], input=pdf, capture_output=True, check=True
                          ).stdout.decode()
    return int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)[1])


def qr_codes(pdf: bytes, page: int, tmp_path: Path) -> list[str]:
    """The QR codes on a page, decoded from a 150 dpi rendering."""
    source = tmp_path / "page.pdf"
    source.write_bytes(pdf)
    subprocess.run([tool("pdftoppm"), "-r", "150", "-png", "-f", str(page), "-l", str(page),
                    "-singlefile", str(source), str(tmp_path / "page")], check=True)
    found = subprocess.run([tool("zbarimg"), "-q", "--raw", str(tmp_path / "page.png")],
                           capture_output=True)
    return [line for line in found.stdout.decode().splitlines() if line]


def plain(value: str) -> str:
    """pdftotext may break a line anywhere a column ends: compare without whitespace."""
    return re.sub(r"\s+", "", value)


def words(pdf: bytes, page: int) -> list[tuple[str, float, float, float, float]]:
    """The words of a page with their boxes: (word, x_min, y_min, x_max, y_max) in points from
    the top left (``pdftotext -bbox``)."""
    html = subprocess.run([tool("pdftotext"), "-bbox", "-f", str(page), "-l", str(page), "-", "-"],
                          input=pdf, capture_output=True, check=True).stdout.decode()
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                       r"([^<]*)</word>", html)
    return [(word, float(x0), float(y0), float(x1), float(y1))
            for x0, y0, x1, y1, word in found]


def overlapping(boxes: list[tuple[str, float, float, float, float]], *, slack: float = 0.5
                ) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap (more than ``slack`` points each way)."""
    pairs = []
    for index, (a, ax0, ay0, ax1, ay1) in enumerate(boxes):
        for b, bx0, by0, bx1, by1 in boxes[index + 1:]:
            if (min(ax1, bx1) - max(ax0, bx0) > slack
                    and min(ay1, by1) - max(ay0, by0) > slack):
                pairs.append((a, b))
    return pairs


def body(response) -> bytes:
    """A PDF answer's bytes, streamed (print jobs, big lists) or not."""
    return b"".join(response.streaming_content) if response.streaming else response.content
