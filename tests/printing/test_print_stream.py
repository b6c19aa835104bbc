"""The streaming canvas: each page reaches the file at ``showPage()``; memory does not grow with
the number of pages; the result is a valid PDF with the embedded font."""

from __future__ import annotations

import io
import shutil
import subprocess
import tracemalloc

import pytest
from require import missing

from config import fonts
from printing import draw
from printing.stream import StreamingCanvas

LINE = "Schlossallee · Südbahnhof · Münchner Straße · Elektrizitätswerk · äöü ß {page}/{row}"


def make(out, pages: int, *, rows: int = 40, on_page=None) -> StreamingCanvas:
    canvas = draw.new_canvas(out, title="Test")
    for page in range(pages):
        for row in range(rows):
            draw.text(canvas, 40, 800 - row * 18, LINE.format(page=page, row=row), size=9)
        draw.draw_qr(canvas, 400, 40, 100, f"https://example.org/t/x/tables/{page}/")
        canvas.showPage()
        if on_page:
            on_page(page)
    canvas.save()
    return canvas


def test_each_page_is_written_when_it_is_finished():
    out = io.BytesIO()
    sizes = []
    make(out, 5, on_page=lambda _page: sizes.append(len(out.getvalue())))
    assert sizes == sorted(sizes) and len(set(sizes)) == 5  # grows page by page
    assert sizes[0] > 1000  # the first page's content is in the file before the second starts
    data = out.getvalue()
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    assert data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 5


def test_the_result_reads_back_with_every_glyph(tmp_path):
    if shutil.which("pdftotext") is None:
        missing("needs pdftotext (apt-get install poppler-utils)")
    path = tmp_path / "out.pdf"
    with open(path, "wb") as out:
        make(out, 3)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    assert "Pages:           3" in info.stdout
    body = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert LINE.format(page=2, row=39) in body
    found = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                           check=True).stdout
    assert fonts.REGULAR in found and "Helvetica" not in found


def peak(pages: int) -> int:
    """Peak bytes allocated while drawing ``pages`` pages to a sink that keeps nothing."""

    class Sink:
        def write(self, data: bytes) -> int:
            return len(data)

    fonts.register()
    tracemalloc.start()
    try:
        make(Sink(), pages, rows=25)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_with_the_number_of_pages():
    peak(2)  # warm up: font tables, QR tables
    small, large = peak(20), peak(120)
    # reportlab's own canvas keeps every page until save(): six times the pages, ~six times
    # the memory. Streamed, only a few bytes per page remain (the page's name and offset).
    assert large < small * 1.25 + 64 * 1024, (small, large)


def test_the_font_files_ship_with_the_project():
    for name in (fonts.REGULAR, fonts.BOLD):
        assert fonts.font_path(name).parent == fonts.SHIPPED
    assert (fonts.SHIPPED / "LICENSE").read_text().count("Bitstream") >= 3


def test_a_streaming_canvas_has_no_getpdfdata():
    canvas = StreamingCanvas(io.BytesIO())
    with pytest.raises(NotImplementedError):
        canvas.getpdfdata()


@pytest.mark.parametrize("max_width", [40.0, 61.3, 96.0, 101.7, 150.0])
def test_text_shrinks_to_fit_before_it_is_cut(max_width):
    fonts.register()
    value = "G.M. (GW Spielerunde) Müller"
    size = draw.fit_size(value, 8.5, max_width)
    if size > 5.5:  # fits by shrinking: never cut
        assert draw.width(value, size) <= max_width
        assert draw._shorten(value, size, max_width, bold=False) == value
    else:  # too long even at the smallest size: cut with an ellipsis
        assert draw._shorten(value, size, max_width, bold=False).endswith("…")
