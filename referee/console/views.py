"""The banker's console: the page, its htmx fragments, the engine's answer before confirming, and
the form posts of the final count. Thin: the picture comes from ``picture``, the dry run from ``dry_run``, every write
from ``services`` (events themselves go through the events API, from console.js).
"""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render, resolve_url
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.errors import DomainError
from config.inputs import clean_note, posted_revision
from config.ratelimit import check_confirmation_attempt
from config.safekeeping import CopyNote, take_copy_note
from referee import answer_cache, errors, results, selectors, services
from referee.console import dry_run, fragment, picture
from referee.console.js_strings import JS_STRINGS
from referee.models import Game, GameResult
from tournament import access
from tournament.models import Table

MAIN_TEMPLATE = "referee/console/_main.html"
#: How often an open console asks the state API whether its table changed (mostly a 304 of
#: a few small reads, no lock): another phone's action shows within 2 s, like the public pages.
FOLLOW_POLL_MS = 1000


def _table(table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament", "banker", "game"), pk=table_id
    )


def _table_and_game(request: HttpRequest, table_id: int) -> tuple[Table, Game]:
    """The table and its game, for whoever may run the table (PermissionDenied otherwise)."""
    table = _table(table_id)
    if not access.can_run_table(request, table):
        raise PermissionDenied
    return table, _game(request, table)


def _game(request: HttpRequest, table: Table) -> Game:
    """The table's game. A GET only reads (README): a table nobody has played at yet shows
    the unsaved game its seating gives, an untouched game follows the seating in memory; a
    post creates (or updates) the row before it writes."""
    if request.method in ("GET", "HEAD"):
        game = selectors.table_game(table)
        services.follow_seating(game, table=table)
    else:
        game = services.ensure_game(table=table)
    now = timezone.now()
    due = [moment for moment in (game.auction_stop_due, game.time_up_due) if moment]
    if game.pk is not None and any(moment <= now for moment in due):
        # The one write a read makes (README): without a timer the next request for the
        # table records the deadline that is due (idempotent, like the timers and the sweep).
        services.enforce_deadlines(game_id=game.pk, now=now)
        game.refresh_from_db()
    game.table = table
    return game


def _may_confirm_as_head_referee(request: HttpRequest, table: Table) -> bool:
    return access.is_head_referee(request.user, table.round.tournament_id)


def _context(request: HttpRequest, table: Table, game: Game, *,
             result: GameResult | None = None, no_result: bool = False,
             state_etag: str | None = None, **extra) -> dict:
    selected = request.GET.get("player") or request.POST.get("player") or None
    feed_all = request.GET.get("feed") == "all"
    context = picture.build(game, selected=selected, feed_all=feed_all, result=result,
                            no_result=no_result)
    # The state the fragment shows, as the state API names it: the console's polls ask
    # "changed since?" from here (a 304 while nothing changed, no fragment fetched).
    context["js_data"]["state_etag"] = state_etag or answer_cache.state_etag(
        table_id=table.pk, game=game, private=True)
    context.update(
        table=table,
        head_referee=(
            _may_confirm_as_head_referee(request, table) if context["mode"] == "count" else False
        ),
        as_head_referee=access.runs_as_head_referee(request, table),
        extra_minutes=game.extra_minutes,
        codes_blocked=game.wrong_codes >= Game.WRONG_CODES_MAX,
        urls=_urls(table),
        **_result_forms(game, context),
        **extra,
    )
    return context


def _result_forms(game: Game, context: dict) -> dict:
    """What the count's forms carry and offer: the result's revision (a stale tab's write is
    refused), and what staff recorded that the console does not replace (``standing``: paper,
    amended, disputed; read from the placements the picture has, no query)."""
    result = context.get("result")
    amended = any((row.get("breakdown") or {}).get("amended") for row in context["count_rows"])
    return {"revision": results.current_revision(game, result),
            "standing": results.standing_record(result, amended=amended)}


def _urls(table: Table) -> dict[str, str]:
    """The console's addresses (the same for every render of a table: kept, issue 29)."""
    return dict(_table_urls(table.pk, get_script_prefix(),
                            get_urlconf() or settings.ROOT_URLCONF, settings.LOGIN_URL))


@lru_cache(maxsize=1024)
def _table_urls(table_id: int, prefix: str, urlconf: str, login: str) -> dict[str, str]:
    """Kept by what ``reverse`` reads besides the table: the script prefix, the URL
    configuration and the login address."""
    page_url = reverse("banker:table", args=[table_id])
    return {
        "page": page_url,
        "main": reverse("banker:console-main", args=[table_id]),
        "check": reverse("banker:console-check", args=[table_id]),
        "count": reverse("banker:console-count", args=[table_id]),
        "confirm": reverse("banker:console-confirm", args=[table_id]),
        "dispute": reverse("banker:console-dispute", args=[table_id]),
        "reopen_count": reverse("banker:console-reopen-count", args=[table_id]),
        "events": reverse("table-events", args=[table_id]),
        "state": reverse("table-state", args=[table_id]),
        # A held action's way back: log in again, then come back to the console.
        "login": f"{resolve_url(login)}?{urlencode({'next': page_url})}",
    }


@require_GET
def page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The whole console of one table (the clock, the current mode, the queue)."""
    table = _table(table_id)
    if not access.can_run_table(request, table):
        return _how_to_open(request, table)
    context = _context(request, table, _game(request, table))
    context["i18n"] = js_strings()
    context["config"] = {
        "table": table.pk, "urls": context["urls"], "csrf": get_token(request),
        "csrf_cookie": settings.CSRF_COOKIE_NAME, "follow_ms": FOLLOW_POLL_MS,
    }
    return render(request, "referee/console.html", context)


def _how_to_open(request: HttpRequest, table: Table) -> HttpResponse:
    """The console refused: a banker holding the table's link has no account to log in with,
    so say how this table opens (the link or QR code on the table card, or the banker's or
    referee's login, which comes back here)."""
    login = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': request.get_full_path()})}"
    return render(request, "referee/console_closed.html",
                  {"table": table, "login_url": login}, status=403)


@require_GET
def main(request: HttpRequest, table_id: int) -> HttpResponse:
    """The fragment below the clock (after an action it comes with the post's answer instead:
    ``main_html``): ~70 KB of HTML, compressed, and 304 while the table is as the console has
    it. It holds no CSRF token (BREACH)."""
    table, game = _table_and_game(request, table_id)
    return fragment.conditional(
        request, etag=fragment.etag(request, table=table, game=game),
        render=lambda: main_html(request, table=table, game=game),
    )


def main_html(request: HttpRequest, *, table: Table, game: Game, no_result: bool = False,
              state_etag: str | None = None) -> str:
    """The fragment as ``main`` renders it, for a game the caller has (the console's post;
    ``no_result``: the caller knows the game has no result, which is then not read;
    ``state_etag``: the state's ETag when the caller has it)."""
    context = _context(request, table, game, no_result=no_result, state_etag=state_etag)
    return render_to_string(MAIN_TEMPLATE, context, request=request)


@require_POST
def check(request: HttpRequest, table_id: int) -> HttpResponse:
    """The engine's answer for the events an action would post (a dry run; nothing stored)."""
    table, game = _table_and_game(request, table_id)
    if request.content_type != "application/json":
        # A form body has been read by the CSRF check already: request.body would raise.
        return HttpResponseBadRequest("JSON expected")
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return HttpResponseBadRequest("JSON expected")
    events = body.get("events") if isinstance(body, dict) else None
    answer = dry_run.check(game, events)
    return render(
        request, "referee/console/_answer.html", {"answer": answer, "seq": game.event_count}
    )


def _stale(request: HttpRequest, game: Game) -> bool:
    try:
        return int(request.POST.get("seq", "")) != game.event_count
    except ValueError:
        return True


@require_POST
def count(request: HttpRequest, table_id: int) -> HttpResponse:
    """“Count finished”: freeze the net-worth count into placements awaiting confirmation."""
    table, game = _table_and_game(request, table_id)
    if _stale(request, game):
        return _render_main(request, table, game, error=_(
            "The table changed meanwhile (queued cash counts are still being sent?). "
            "Check the count and press the button again."))
    try:
        result = results.count_result(game_id=game.pk, author=_author(request, table),
                                      revision=posted_revision(request))
    except DomainError as error:
        return _render_main(request, table, game, error=error)
    return _render_main(request, table, game, notice=_("Counted. Now a second person confirms."),
                        result=result)


@require_POST
def confirm(request: HttpRequest, table_id: int) -> HttpResponse:
    """A player of the table types the code from the players' slip, or the head referee confirms."""
    table, game = _table_and_game(request, table_id)
    head_referee = request.POST.get("head_referee") == "1"
    if head_referee and not _may_confirm_as_head_referee(request, table):
        raise PermissionDenied
    take_copy_note()  # a note left by an earlier request of this thread is not this one's
    try:
        if not head_referee:
            check_confirmation_attempt(request, table.pk)  # 4 digits must not be guessable
        result = results.confirm_result(
            game_id=game.pk, code=request.POST.get("code", ""), by=_author(request, table),
            head_referee=head_referee, revision=posted_revision(request),
        )
    except DomainError as error:
        # 429 once the table's code is blocked: the console shows the answer all the same.
        return _render_main(request, table, game, error=error,
                            status=429 if isinstance(error, errors.CodesExhausted) else 200)
    note = take_copy_note()
    return _render_main(request, table, game, notice=_confirmed_notice(note),
                        notice_warning=note is not None and not note.made, result=result)


def _confirmed_notice(note: CopyNote | None) -> str:
    """"Confirmed", and on the event laptop whether the backup copy exists (README: the banker
    sees "confirmed" with the copy made; without a copy the organizer must know)."""
    if note is None:
        return _("The result is confirmed and final.")
    if note.made:
        return _("The result is confirmed and final. A backup copy of it has been made.")
    return _("The result is confirmed and stored on the laptop, but NO backup copy could be "
             "made: tell the organizer (check the USB stick).")


@require_POST
def dispute(request: HttpRequest, table_id: int) -> HttpResponse:
    table, game = _table_and_game(request, table_id)
    # A refused dispute keeps what was typed (a stale tab lost the note). The 4-digit code
    # is not echoed: it is another form's, and a secret the page does not carry back.
    typed = (request.POST.get("note") or "")[:2000]
    try:
        note = clean_note(request.POST.get("note"))
    except DomainError as error:
        return _render_main(request, table, game, error=error, dispute_note=typed)
    if not note:
        return _render_main(request, table, game, error=_(
            "Write down what is disputed: the head referee reads the note."))
    try:
        results.dispute_result(game_id=game.pk, note=note, by=_author(request, table),
                               revision=posted_revision(request))
    except DomainError as error:
        return _render_main(request, table, game, error=error, dispute_note=typed)
    return _render_main(request, table, game, notice=_(
        "The result is disputed: it waits for the head referee."))


@require_POST
def reopen_count(request: HttpRequest, table_id: int) -> HttpResponse:
    """“Reopen the count”: the pending count goes, the game takes corrections again."""
    table, game = _table_and_game(request, table_id)
    try:
        results.reopen_count(game_id=game.pk, by=_author(request, table),
                             revision=posted_revision(request))
    except DomainError as error:
        return _render_main(request, table, game, error=error)
    return _render_main(request, table, game, notice=_(
        "The count is reopened: correct the game, then count again."))


def _author(request: HttpRequest, table: Table):
    """The logged-in user, or the banker whose private link this session opened."""
    return access.table_author(request, table)


def _render_main(request: HttpRequest, table: Table, game: Game, *, error=None, notice=None,
                 status: int = 200, notice_warning: bool = False,
                 result: GameResult | None = None, dispute_note: str = ""):
    """The fragment after a post. ``result``: the one the post just wrote, with its game as
    read under the lock: neither is read again."""
    if result is not None and GameResult.game.is_cached(result):
        game = result.game
    else:
        game.refresh_from_db()
    game.table = table
    message = None
    if isinstance(error, DomainError):
        message = {"code": error.code, **error.as_dict()}
        if isinstance(error, errors.WrongConfirmationCode | errors.CodesExhausted):
            message["field"] = "code"
    elif error:
        message = {"detail": str(error), "message_de": "", "message_en": ""}
    return render(
        request, MAIN_TEMPLATE, _context(request, table, game, result=result, error=message,
                                         notice=notice, notice_warning=notice_warning,
                                         dispute_note=dispute_note),
        status=status,
    )


def js_strings() -> dict[str, str]:
    """The strings console.js shows, translated on the server (JS has no catalogue)."""
    return {key: str(text) for key, text in JS_STRINGS.items()}
