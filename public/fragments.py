"""Page data and cached HTML fragments of the public pages (leaderboard, tables, a table's live
view, a player's page, the projector).

Every fragment is rendered once per change and language and shared by every spectator: it is
cached under the generation of what it shows (``cache.STANDINGS`` and/or ``cache.TABLES``, both
bumped by the backend on every change), with an ETag from its content. A poll that carries the
ETag ends in a 304 after two or three cache reads and no database query. A short lifetime
bounds what is not invalidated explicitly (a round drawn, a tournament renamed).

Only public data: public names (``Player.public_name``), clubs, figures of the games. Never a
player's name without consent, e-mail or private note; cash only in ledger mode.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache as django_cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers

from config.compression import Encoded, encoded_response
from config.errors import NotFound
from public.errors import NO_SUCH_TOURNAMENT
from public.selectors import RUNNING_STATES
from referee.feed import format_clock
from scoring import cache
from tournament import selectors as tournament_selectors
from tournament.models import Tournament

NOINDEX = "noindex, nofollow"
FRAGMENT_TIMEOUT = 30  # seconds: bounds staleness of what no signal invalidates
DERIVED_TIMEOUT = 3600  # feeds and charts: keyed by the game's event count, never stale


def public_tournament(slug: str) -> Tournament:
    """The published tournament (pages and the public API): 404 for an unknown or draft one."""
    tournament = tournament_selectors.public_tournaments().filter(slug=slug).first()
    if tournament is None:
        raise NotFound(NO_SUCH_TOURNAMENT, params={"slug": slug})
    return tournament


@dataclass(frozen=True)
class TournamentHead:
    """What a page's title and header need; cached so that a page view needs no query."""

    slug: str
    name: str
    date: dt.date
    venue: str
    status: str
    indexable: bool = False  # the organizer lets search engines list the public pages

    @property
    def get_status_display(self) -> str:
        return str(Tournament.Status(self.status).label)


def tournament_head(slug: str) -> TournamentHead:
    """The public tournament's header data (404 for an unknown or draft tournament)."""
    key = cache.key(slug, f"head:{cache.generation(slug, cache.STANDINGS)}")
    head = django_cache.get(key)
    if head is None:
        tournament = public_tournament(slug)
        head = TournamentHead(tournament.slug, tournament.name, tournament.date,
                              tournament.venue, tournament.status,
                              tournament.search_engines_may_index)
        django_cache.set(key, head, timeout=FRAGMENT_TIMEOUT)
    return head


def cached_fragment(
    slug: str, name: str, depends_on: Sequence[str], build: Callable[[], str]
) -> Encoded:
    """The fragment ``name`` in the active language, its ETag and compressed variants, built
    (and compressed) once when it changed."""
    language = translation.get_language() or "de"
    return cache.cached_body(slug, f"fragment:{name}:{language}", depends_on,
                             lambda: build().encode(), timeout=FRAGMENT_TIMEOUT)


def server_time_ms() -> int:
    return int(timezone.now().timestamp() * 1000)


def etag_response(request: HttpRequest, encoded: Encoded, *, content_type: str) -> HttpResponse:
    """200 with the body (compressed as the client takes it), or 304 when the client already
    has it (``If-None-Match``). The one ETag answer of the public site and its API."""
    return encoded_response(request, encoded, content_type=content_type)


def fragment_response(request: HttpRequest, encoded: Encoded) -> HttpResponse:
    """A polled fragment, or 304 when the client already has it."""
    response = etag_response(request, encoded, content_type="text/html; charset=utf-8")
    # Always revalidated; a proxy may keep it, per language (cookie or browser preference).
    response["Cache-Control"] = "no-cache"
    response["X-Robots-Tag"] = NOINDEX  # a piece of a page: never a search result
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    # The clocks on the page are computed by the browser: this says how far its clock is off.
    response["X-Server-Time"] = str(server_time_ms())
    return response


def derived(key: str, build: Callable[[], Any]) -> Any:
    """A value derived from a game's record (feed, chart): keyed by its event count."""
    hit = django_cache.get(key)
    if hit is None:
        hit = build()
        django_cache.set(key, hit, timeout=DERIVED_TIMEOUT)
    return hit


def names_digest(names: dict[str, str]) -> str:
    text = "|".join(f"{k}={v}" for k, v in sorted(names.items()))
    return hashlib.sha1(text.encode()).hexdigest()[:12]  # noqa: S324 - not security


def _epoch(value: dt.datetime) -> float:
    return value.timestamp()


def clock_data(state: str, game_seconds: float | None, now: dt.datetime) -> dict[str, Any]:
    """What the browser needs to run a table's clock: a start (epoch seconds, game time 0 —
    pauses already subtracted) while the clock runs, otherwise the frozen game time."""
    if game_seconds is None:
        return {"running": False, "base": None, "seconds": None, "text": "–:––"}
    if state in RUNNING_STATES:
        return {"running": True, "base": round(_epoch(now) - game_seconds), "seconds": None,
                "text": format_clock(game_seconds)}
    return {"running": False, "base": None, "seconds": int(game_seconds),
            "text": format_clock(game_seconds)}


def club_label(name: str, club: str) -> str:
    """The club beside a public name, unless the name already carries it ("A.B. (SF X)")."""
    return "" if not club or name.endswith(f"({club})") else club
