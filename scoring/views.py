"""Public pages for spectators (no login): the leaderboard, the tables, a table's live view, a
player's page and the projector. Each page embeds a cached fragment; the browser then polls the
fragment's URL every 2 s with ``If-None-Match`` and gets a 304 until something changed."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from . import public

POLL = "every 1500ms [!document.hidden]"  # < 2 s from a change to the screen, 304s cost ~nothing


def _page(
    request: HttpRequest,
    template: str,
    slug: str,
    live: dict[str, tuple[str, Callable[[], tuple[bytes, str]]]],
    **context,
) -> HttpResponse:
    tournament = public.tournament_head(slug)
    parts = {}
    for name, (url, fragment) in live.items():
        body, etag = fragment()
        parts[name] = {"url": url, "body": body.decode(), "etag": etag, "id": f"live-{name}"}
    response = render(
        request,
        template,
        {"tournament": tournament, "live": parts, "poll": POLL,
         "server_time": public.server_time_ms(), **context},
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(
        request, "scoring/tournament.html", slug,
        {
            "standings": (reverse("public:fragment-standings", kwargs={"slug": slug}),
                          lambda: public.standings_fragment(slug)),
            "tables": (reverse("public:fragment-tables", kwargs={"slug": slug}),
                       lambda: public.tables_fragment(slug)),
        },
        section="standings",
    )


@require_GET
def tables_page(request: HttpRequest, slug: str) -> HttpResponse:
    url = reverse("public:fragment-tables", kwargs={"slug": slug})
    return _page(request, "scoring/tables.html", slug,
                 {"tables": (url, lambda: public.tables_fragment(slug))}, section="tables")


@require_GET
def table_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    url = reverse("public:fragment-table", kwargs={"slug": slug, "number": number})
    return _page(request, "scoring/table.html", slug,
                 {"table": (url, lambda: public.table_fragment(slug, number))},
                 section="tables", number=number)


@require_GET
def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    url = reverse("public:fragment-player", kwargs={"slug": slug, "player_id": player_id})
    return _page(request, "scoring/player.html", slug,
                 {"player": (url, lambda: public.player_fragment(slug, player_id))},
                 section="standings")


@require_GET
def screen_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        interval = max(3, min(120, int(request.GET.get("interval", "10"))))
    except ValueError:
        interval = 10
    return _page(
        request, "scoring/screen.html", slug,
        {
            "standings": (reverse("public:fragment-screen-standings", kwargs={"slug": slug}),
                          lambda: public.screen_standings_fragment(slug)),
            "tables": (reverse("public:fragment-screen-tables", kwargs={"slug": slug}),
                       lambda: public.screen_tables_fragment(slug)),
        },
        interval=interval,
    )


# --------------------------------------------------------------------------- fragments


@require_GET
def standings_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    return public.fragment_response(request, *public.standings_fragment(slug))


@require_GET
def tables_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    return public.fragment_response(request, *public.tables_fragment(slug))


@require_GET
def table_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return public.fragment_response(request, *public.table_fragment(slug, number))


@require_GET
def player_fragment(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    return public.fragment_response(request, *public.player_fragment(slug, player_id))


@require_GET
def screen_standings_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    return public.fragment_response(request, *public.screen_standings_fragment(slug))


@require_GET
def screen_tables_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    return public.fragment_response(request, *public.screen_tables_fragment(slug))
