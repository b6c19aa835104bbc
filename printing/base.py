"""What every document gets (:class:`Context`) and what every document is (:class:`Document`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.functional import Promise as StrPromise
from django.utils.translation import gettext as _

from printing import draw
from tournament.models import Round, Tournament


def default_base_url() -> str:
    """Where spectators reach the site: ``settings.PUBLIC_BASE_URL`` (no trailing slash);
    unset or empty: the embedded default ``http://127.0.0.1:8000``."""
    configured = getattr(settings, "PUBLIC_BASE_URL", "") or "http://127.0.0.1:8000"
    return str(configured).rstrip("/")


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


def is_loopback(base_url: str) -> bool:
    """True when a phone in the hall could not open this address (it names this computer)."""
    host = (urlsplit(base_url).hostname or "").lower()
    return host in LOOPBACK_HOSTS or host.startswith("127.") or host.endswith(".localhost")


@dataclass
class Context:
    tournament: Tournament
    round: Round | None
    lang: str = "de"
    base_url: str = field(default_factory=default_base_url)
    printed_at: dt.datetime = field(default_factory=timezone.now)
    top: int = 3  # certificates: how many places

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")

    def absolute(self, path: str) -> str:
        return f"{self.base_url}{path}"

    def public_table_url(self, number: int) -> str:
        """The table's public page in this document's round (a sheet of round 1 must not open
        round 2's game once that has started)."""
        if self.round is None:
            return self.absolute(reverse("public:table", args=[self.tournament.slug, number]))
        return self.absolute(reverse("public:round-table",
                                     args=[self.tournament.slug, self.round.number, number]))

    def round_label(self) -> str:
        if self.round is None:
            return ""
        if self.round.kind == Round.Kind.FINAL:
            return _("Final")
        return _("Round %(number)s") % {"number": self.round.number}

    def printed_label(self) -> str:
        moment = timezone.localtime(self.printed_at)
        return _("printed %(moment)s") % {
            "moment": formats.date_format(moment, "SHORT_DATETIME_FORMAT")
        }

    def tournament_line(self) -> str:
        parts = [formats.date_format(self.tournament.date, "DATE_FORMAT")]
        if self.tournament.venue:
            parts.append(self.tournament.venue)
        return " · ".join(parts)


def footer(canvas, ctx: Context, label: str, *, page=draw.PAGE) -> None:
    """Tournament, document and print time along the bottom edge."""
    width, _height = page
    y = draw.MARGIN - 5 * draw.mm
    canvas.setFillGray(0)
    left = " · ".join(part for part in (ctx.tournament.name, label) if part)
    draw.text(canvas, draw.MARGIN, y, left, size=6.5, max_width=width * 0.62)
    draw.text(canvas, width - draw.MARGIN, y, ctx.printed_label(), size=6.5, align="right")



def end_page(canvas, ctx: Context, label: str, *, page=draw.PAGE) -> None:
    """Every page ends with its footer; then it is finished (and, streaming, written out)."""
    footer(canvas, ctx, label, page=page)
    canvas.showPage()


def no_tables(canvas, y: float) -> None:
    """What a round's document says on its one page while no table is seated."""
    draw.text(canvas, draw.MARGIN, y, _("No table is seated in this round yet."), size=11)


@dataclass(frozen=True)
class Document:
    """One kind of printout.

    ``pages(canvas, ctx)`` draws the pages one by one and yields after each ``showPage()``;
    ``count(ctx)`` says how many pages that will be (for progress bars), ``private`` marks a
    document that must stay with the organizers (the table cards carry the bankers' links).
    """

    key: str
    title: StrPromise  # lazy: in the language of the request or the print job
    pages: Callable[[object, Context], Iterator[None]]
    count: Callable[[Context], int]
    needs_round: bool = True
    private: bool = False
    page: tuple[float, float] = draw.PAGE
    batch: bool = False  # one page per table: large rounds go to the background task
