"""Printed materials as PDF (reportlab, A4, black and white, German first, English on request).

Documents (``DOCUMENTS``): ``scoresheets`` (one page per table), ``seating`` (by table),
``seating-names`` (alphabetical, for the entrance), ``cards`` (table cards with the banker's
private link; organizers only), ``slips`` (each table's confirmation code for its players;
organizers only), ``standings`` (after a round, public names) and
``certificates`` (the first places).

Every document is drawn page by page onto a :class:`~.stream.StreamingCanvas`, which writes each
finished page to the output at once: memory stays flat whatever the number of pages.

    render("scoresheets", out, tournament=t, round_=r)            # to a binary file object
    for chunk in stream("scoresheets", tournament=t, round_=r): …  # bytes, page by page
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from printing import (
    cards,
    draw,
    player_cards,
    scoresheet,
    seating,
    slips,
    standings,
)
from printing.base import (
    Context,
    Document,
    default_base_url,
    is_loopback,
)
from tournament.models import Round, Tournament

__all__ = [
    "DOCUMENTS",
    "LANGUAGES",
    "Context",
    "Document",
    "PrintError",
    "Rendered",
    "context_for",
    "default_base_url",
    "is_loopback",
    "expected_pages",
    "filename",
    "render",
    "stream",
]

# Every document in one table, in the print page's order: key, title, how it draws and counts
# its pages, and what sets it apart (no round needed; organizers only; landscape; large rounds
# made by the background task).
DOCUMENTS: dict[str, Document] = {document.key: document for document in (
    Document("scoresheets", _("Score sheets"), scoresheet.pages, scoresheet.count, batch=True),
    Document("seating", _("Seating by table"), seating.table_pages, seating.table_count),
    Document("seating-names", _("Seating by name"), seating.name_pages, seating.name_count),
    Document("seating-names-staff", _("Seating by name (staff, full names)"),
             seating.staff_name_pages, seating.name_count, private=True),
    Document("cards", _("Table cards"), cards.pages, cards.count, private=True, batch=True),
    Document("cards-changed", _("Table cards: only where something changed"),
             cards.changed_pages, cards.changed_count, private=True, batch=True),
    Document("slips", _("Code slips"), slips.pages, slips.count, private=True),
    Document("standings", _("Standings"), standings.pages, standings.count, needs_round=False),
    Document("certificates", _("Certificates"), standings.certificate_pages,
             standings.certificate_count, needs_round=False, page=draw.PAGE_LANDSCAPE),
    # private: the players' codes (the desk prints one player's card from the check-in desk)
    Document("player-cards", _("Player cards"), player_cards.pages, player_cards.count,
             needs_round=False, private=True),
)}

LANGUAGES = ("de", "en")


class PrintError(ValueError):
    """A document that cannot be made from this input (unknown document, round, language)."""


@dataclass(frozen=True)
class Rendered:
    pages: int
    bytes: int


Progress = Callable[[int, int], None]  # (pages done, pages expected)


def context_for(document: str, *, tournament: Tournament, round_: Round | None = None,
                lang: str = "de", base_url: str | None = None, top: int = 3) -> Context:
    if document not in DOCUMENTS:
        raise PrintError(f"unknown document {document!r}; known: {', '.join(DOCUMENTS)}")
    if lang not in LANGUAGES:
        raise PrintError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    if DOCUMENTS[document].needs_round and round_ is None:
        raise PrintError(f"{document} needs a round")
    if round_ is not None and round_.tournament_id != tournament.pk:
        raise PrintError("the round belongs to another tournament")
    if top < 1:
        raise PrintError("top must be at least 1")
    return Context(tournament=tournament, round=round_, lang=lang,
                   base_url=base_url or tournament.public_base_url or default_base_url(), top=top)


def expected_pages(document: str, ctx: Context) -> int:
    with translation.override(ctx.lang):
        return DOCUMENTS[document].count(ctx)


def filename(document: str, ctx: Context) -> str:
    parts = [ctx.tournament.slug, document]
    if ctx.round is not None:
        parts.insert(1, f"round-{ctx.round.number}")
    if ctx.lang != "de":
        parts.append(ctx.lang)
    return "-".join(parts) + ".pdf"


def _steps(document: Document, out: BinaryIO, ctx: Context) -> Iterator[None]:
    with translation.override(ctx.lang):
        canvas = draw.new_canvas(out, title=f"{document.title} · {ctx.tournament.name}",
                                 subject=ctx.round_label(), lang=ctx.lang, page=document.page)
    pages = document.pages(canvas, ctx)
    while True:
        with translation.override(ctx.lang):  # re-entered per page: safe across yields
            try:
                next(pages)
            except StopIteration:
                canvas.save()
                return
        yield


def render(document: str, out: BinaryIO, *, tournament: Tournament, round_: Round | None = None,
           lang: str = "de", base_url: str | None = None, top: int = 3,
           progress: Progress | None = None) -> Rendered:
    """Write the document to ``out`` (a binary file object), page by page."""
    ctx = context_for(document, tournament=tournament, round_=round_, lang=lang,
                      base_url=base_url, top=top)
    counter = _Counter(out)
    expected = expected_pages(document, ctx) if progress else 0
    pages = 0
    for _step in _steps(DOCUMENTS[document], counter, ctx):
        pages += 1
        if progress:
            progress(pages, max(expected, pages))
    return Rendered(pages=pages, bytes=counter.count)


def stream(document: str, *, tournament: Tournament, round_: Round | None = None,
           lang: str = "de", base_url: str | None = None, top: int = 3) -> Iterator[bytes]:
    """The document as chunks of bytes, one (or more) per page: for a streaming response.

    Arguments are checked at once; the pages are drawn as the chunks are consumed.
    """
    ctx = context_for(document, tournament=tournament, round_=round_, lang=lang,
                      base_url=base_url, top=top)
    return _chunks(DOCUMENTS[document], ctx)


def _chunks(document: Document, ctx: Context) -> Iterator[bytes]:
    buffer = _Buffer()
    for _step in _steps(document, buffer, ctx):
        chunk = buffer.take()
        if chunk:
            yield chunk
    chunk = buffer.take()
    if chunk:
        yield chunk


class _Counter:
    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.count = 0

    def write(self, data: bytes) -> int:
        self.count += len(data)
        self.out.write(data)
        return len(data)


class _Buffer:
    """Collects what the canvas writes between two pages."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data, self.parts = b"".join(self.parts), []
        return data
