"""Public pages for spectators (no login): the leaderboard, the tables, a table's live view, a
player's page and the projector. Each page embeds a cached fragment; the browser then polls the
fragment's URL every 2 s with ``If-None-Match`` and gets a 304 until something changed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from csp.decorators import csp_exempt
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from config.compression import Encoded
from public import (
    fragments,
    hall,
    leaderboard,
    live,
    me,
    player,
    screen,
    tables,
)
from scoring import cache
from tournament import selectors as tournament_selectors
from tournament.players import services as tournament_players
from tournament.signup import selectors as signup_selectors


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The start page: the published tournaments, newest first."""
    tournaments = tournament_selectors.public_tournaments()[:20]
    response = render(request, "home.html", {"tournaments": tournaments, "noindex": True})
    response["X-Robots-Tag"] = fragments.NOINDEX  # it lists tournaments: each page decides
    return response


# < 2 s from a change to the screen, 304s cost ~nothing. Not while the page is hidden: site.js
# cancels those polls (an htmx trigger filter would need eval, which the CSP forbids).
POLL = "every 1500ms"
VERSIONS_POLL_MS = 1500  # the version document (mostly a 304): < 2 s from a change to the screen


def _shareable(request: HttpRequest) -> bool:
    """An anonymous visitor without pending messages sees what every spectator sees: the page
    is then rendered and compressed once per change and shared (no per-user token in it)."""
    return not request.user.is_authenticated and "messages" not in request.COOKIES


def _page(
    request: HttpRequest,
    template: str,
    slug: str,
    live: dict[str, tuple[str, Callable[[], Encoded]]],  # URLs lazy: the shared page needs none
    *,
    share_as: str = "",
    depends_on: Sequence[str] = (),
    **context,
) -> HttpResponse:
    tournament = fragments.tournament_head(slug)

    def render_page(shell: bool) -> HttpResponse:
        parts = {}
        for name, (url, fragment) in live.items():
            encoded = fragment()
            parts[name] = {"url": url, "body": encoded.body.decode(), "etag": encoded.etag,
                           "id": f"live-{name}"}
        return render(
            request,
            template,
            {"tournament": tournament, "live": parts, "poll": POLL, "shell": shell,
             "versions_poll_ms": VERSIONS_POLL_MS, "noindex": not tournament.indexable,
             "server_time": "" if shell else fragments.server_time_ms(), **context},
        )

    if share_as and _shareable(request):
        language = translation.get_language() or "de"
        encoded = cache.cached_body(
            slug, f"page:{share_as}:{language}", [cache.STANDINGS, *depends_on],
            lambda: render_page(True).content, timeout=fragments.FRAGMENT_TIMEOUT)
        if settings.CSRF_COOKIE_NAME not in request.COOKIES:
            get_token(request)  # the CSRF cookie (the language switch reads it), not in the body
        response = fragments.etag_response(request, encoded,
                                           content_type="text/html; charset=utf-8")
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        response["X-Server-Time"] = str(fragments.server_time_ms())
    else:
        response = render_page(False)
    response["Cache-Control"] = "no-cache"
    if not tournament.indexable:  # players' names: not in search engines unless opted in
        response["X-Robots-Tag"] = fragments.NOINDEX
    return response


@require_GET
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The leaderboard: the top of the table and a "find me" search (``?q=``), the whole list
    on demand (``?all=1``), and the tables of the round."""
    query = leaderboard.clean_query(request.GET.get("q", ""))
    show_all = request.GET.get("all") == "1"
    if show_all:
        standings = ("fragment-standings", leaderboard.standings_fragment)
    else:
        standings = ("fragment-standings-top", leaderboard.standings_top_fragment)
    found = leaderboard.find_fragment(slug, query).body.decode() if query else ""
    signup_open = signup_selectors.link_shown(slug)
    return _page(
        request, "public/tournament.html", slug,
        {
            "standings": (reverse_lazy(f"public:{standings[0]}", kwargs={"slug": slug}),
                          lambda: standings[1](slug)),
            "tables": (reverse_lazy("public:fragment-tables", kwargs={"slug": slug}),
                       lambda: tables.tables_fragment(slug)),
        },
        share_as="" if query else ("standings-all" if show_all else "standings")
        + ("-signup" if signup_open else ""),
        depends_on=[cache.TABLES],
        section="standings", query=query, found=found, show_all=show_all,
        signup_open=signup_open,
    )


@require_GET
def tables_page(request: HttpRequest, slug: str) -> HttpResponse:
    url = reverse_lazy("public:fragment-tables", kwargs={"slug": slug})
    return _page(request, "public/tables.html", slug,
                 {"tables": (url, lambda: tables.tables_fragment(slug))},
                 share_as="tables", depends_on=[cache.TABLES], section="tables")


@require_GET
def table_page(request: HttpRequest, slug: str, number: int,
               round_number: int | None = None) -> HttpResponse:
    """A table of the current round (``/tables/<n>/``, the address printed before rounds were
    named) or of the round in the address (what a score sheet's QR code opens: a past round's
    table stays reachable, and a sheet never shows the next round's game)."""
    if round_number is None:
        url = reverse_lazy("public:fragment-table", kwargs={"slug": slug, "number": number})
    else:
        url = reverse_lazy("public:fragment-round-table", kwargs={
            "slug": slug, "round_number": round_number, "number": number})
    return _page(request, "public/table.html", slug,
                 {"table": (url, lambda: live.table_fragment(slug, number, round_number))},
                 section="tables", number=number)


@require_GET
def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    url = reverse_lazy("public:fragment-player", kwargs={"slug": slug, "player_id": player_id})
    return _page(request, "public/player.html", slug,
                 {"player": (url, lambda: player.player_fragment(slug, player_id))},
                 section="standings")


@require_GET
def screen_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        interval = max(3, min(120, int(request.GET.get("interval", "10"))))
    except ValueError:
        interval = 10
    return _page(
        request, "public/screen.html", slug,
        {
            "standings": (reverse_lazy("public:fragment-screen-standings", kwargs={"slug": slug}),
                          lambda: screen.screen_standings_fragment(slug)),
            "tables": (reverse_lazy("public:fragment-screen-tables", kwargs={"slug": slug}),
                       lambda: screen.screen_tables_fragment(slug)),
        },
        interval=interval,
    )


# --------------------------------------------------------------------------- fragments


def _answered_early(answer: Callable[..., HttpResponse], *,
                    in_language: Callable[[HttpRequest], bool] | bool = True
                    ) -> Callable[..., HttpResponse]:
    """The GET view of ``answer``, marked for ``public.early``: a live poll whose answer
    depends on nothing but the address and (``in_language``: always, or as the request says)
    the visitor's language, so it may be given before the session."""
    view = require_GET(answer)
    view.early = (answer, in_language)
    return view


def _fragment_view(build: Callable[..., Encoded]) -> Callable[..., HttpResponse]:
    """The view a page polls: the cached fragment ``build(slug, **url kwargs)``, or 304."""

    def answer(request: HttpRequest, slug: str, **kwargs) -> HttpResponse:
        return fragments.fragment_response(request, build(slug, **kwargs))

    view = _answered_early(answer)
    view.__name__ = build.__name__
    return view


standings_fragment = _fragment_view(leaderboard.standings_fragment)
standings_top_fragment = _fragment_view(leaderboard.standings_top_fragment)
tables_fragment = _fragment_view(tables.tables_fragment)
table_fragment = _fragment_view(live.table_fragment)
player_fragment = _fragment_view(player.player_fragment)
screen_standings_fragment = _fragment_view(screen.screen_standings_fragment)
screen_tables_fragment = _fragment_view(screen.screen_tables_fragment)


@require_GET
def find_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Find me": the standings rows whose name matches ``q`` (German folding)."""
    return fragments.fragment_response(
        request, leaderboard.find_fragment(slug, request.GET.get("q", "")))


#: The live pages' JSON polls carry no Content-Security-Policy: a policy governs a document,
#: and these are data read by the page's script (under the page's own policy); 260 bytes
#: less on each of a hall's polls.
JSON_POLL = csp_exempt()


def wants_cards(request: HttpRequest) -> bool:
    """The tables page's version poll asks for the changed cards too (``&cards=1``)."""
    return request.GET.get("cards") == "1"


@JSON_POLL
def versions_answer(request: HttpRequest, slug: str) -> HttpResponse:
    """The live pages' tiny poll: which fragments changed (standings, each table's card) —
    with ``?since=<g>`` only the cards that changed since the document the page has, and with
    ``&cards=1`` (the tables page) those cards themselves, in the visitor's language. Nothing
    in it depends on who asks, so ``public.early`` gives it before the session."""
    with_cards = wants_cards(request)
    delta = tables.versions_delta(slug, request.GET.get("since", ""), with_cards=with_cards)
    if delta is not None:
        response = fragments.etag_response(request, delta, content_type="application/json")
        if with_cards:
            patch_vary_headers(response, ("Cookie", "Accept-Language"))
    else:
        response = fragments.etag_response(request, tables.versions_document(slug),
                                           content_type="application/json")
    response["Cache-Control"] = "no-cache"
    response["X-Server-Time"] = str(fragments.server_time_ms())
    return response


@JSON_POLL
def cards_answer(request: HttpRequest, slug: str) -> HttpResponse:
    """The table cards that changed (``?n=1,5,17``), as JSON {number: html}, in the visitor's
    language (usually answered before the session: ``public.early``)."""
    body = tables.cards_document(slug, tables.parse_numbers(request.GET.get("n", "")))
    response = HttpResponse(body, content_type="application/json")
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    response["X-Server-Time"] = str(fragments.server_time_ms())
    return response


versions = _answered_early(versions_answer, in_language=wants_cards)
cards = _answered_early(cards_answer)


# --------------------------------------------------------------------------- a player's own page


def _me_headers(response: HttpResponse) -> HttpResponse:
    """The code is the key to the page: no shared caches, no referrer, no search engines."""
    response["Cache-Control"] = "private, no-cache"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


def _me_unknown(request: HttpRequest, code: str) -> HttpResponse:
    return _me_headers(render(request, "public/me_code.html", {"code": code, "unknown": bool(code)},
                              status=404 if code else 200))


@require_GET
def me_start(request: HttpRequest) -> HttpResponse:
    """Type the code from the player card (the QR code opens the page directly)."""
    code = tournament_players.normal_pass_code(request.GET.get("code", ""))
    if code and tournament_players.player_by_pass_code(code) is not None:
        return redirect("me", code=code)
    return _me_unknown(request, request.GET.get("code", "")[:40])


@require_GET
def me_page(request: HttpRequest, code: str) -> HttpResponse:
    player = tournament_players.player_by_pass_code(code)
    if player is None or player.tournament.status == player.tournament.Status.DRAFT:
        return _me_unknown(request, code[:40])
    encoded = me.my_fragment(player)
    tournament = fragments.tournament_head(player.tournament.slug)
    response = render(request, "public/me.html", {
        "tournament": tournament, "player": player, "body": encoded.body.decode(),
        "etag": encoded.etag, "server_time": fragments.server_time_ms(),
        "refresh_url": reverse("me-live", kwargs={"code": player.pass_code}),
        "code": tournament_players.pass_code_display(player.pass_code),
        "signup": signup_selectors.for_player(player.pk)})
    return _me_headers(response)


@require_GET
def me_fragment(request: HttpRequest, code: str) -> HttpResponse:
    player = tournament_players.player_by_pass_code(code)
    if player is None or player.tournament.status == player.tournament.Status.DRAFT:
        return _me_headers(HttpResponse(status=404))
    return _me_headers(fragments.fragment_response(request, me.my_fragment(player)))


# --------------------------------------------------------------------------- hall screens


@require_GET
def hall_page(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """A hall screen in kiosk mode: no login, no interaction; it follows the desk's choice."""
    tournament = fragments.tournament_head(slug)
    encoded = hall.hall_fragment(slug, key)
    response = render(request, "public/hall.html", {
        "tournament": tournament, "body": encoded.body.decode(), "etag": encoded.etag,
        "refresh_url": reverse("public:hall-live", kwargs={"slug": slug, "key": key}),
        "server_time": fragments.server_time_ms(), "shell": True})
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def hall_fragment(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    return fragments.fragment_response(request, hall.hall_fragment(slug, key))
