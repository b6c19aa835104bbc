"""The banker's console: the page, its htmx fragments, the engine's answer before confirming, and
the form posts of the final count. Thin: the picture comes from ``picture``, the dry run from ``dry_run``, every write
from ``services`` (events themselves go through the events API, from console.js).
"""

from __future__ import annotations

import json

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from config.errors import DomainError
from config.inputs import clean_note
from config.ratelimit import check_confirmation_attempt
from referee import errors, services
from referee.models import Game
from tournament import access
from tournament.models import Table

from . import dry_run, picture

MAIN_TEMPLATE = "referee/console/_main.html"


def _table_and_game(request: HttpRequest, table_id: int) -> tuple[Table, Game]:
    table = get_object_or_404(
        Table.objects.select_related("round__tournament", "banker"), pk=table_id
    )
    if not access.can_run_table(request, table):
        raise PermissionDenied
    game = services.ensure_game(table=table)
    now = timezone.now()
    due = [moment for moment in (game.auction_stop_due, game.time_up_due) if moment]
    if any(moment <= now for moment in due):
        # The embedded default has no timer: the next request records what is due.
        services.enforce_deadlines(game_id=game.pk, now=now)
        game.refresh_from_db()
    game.table = table
    return table, game


def _may_confirm_as_head_referee(request: HttpRequest, table: Table) -> bool:
    return access.is_head_referee(request.user, table.round.tournament_id)


def _context(request: HttpRequest, table: Table, game: Game, **extra) -> dict:
    selected = request.GET.get("player") or request.POST.get("player") or None
    feed_all = request.GET.get("feed") == "all"
    context = picture.build(game, selected=selected, feed_all=feed_all)
    context.update(
        table=table,
        head_referee=(
            _may_confirm_as_head_referee(request, table) if context["mode"] == "count" else False
        ),
        as_head_referee=access.runs_as_head_referee(request, table),
        extra_minutes=game.extra_minutes,
        codes_blocked=game.wrong_codes >= Game.WRONG_CODES_MAX,
        urls=_urls(table),
        **extra,
    )
    return context


def _urls(table: Table) -> dict[str, str]:
    return {
        "page": reverse("banker:table", args=[table.pk]),
        "main": reverse("banker:console-main", args=[table.pk]),
        "check": reverse("banker:console-check", args=[table.pk]),
        "count": reverse("banker:console-count", args=[table.pk]),
        "confirm": reverse("banker:console-confirm", args=[table.pk]),
        "dispute": reverse("banker:console-dispute", args=[table.pk]),
        "events": reverse("table-events", args=[table.pk]),
        "state": reverse("table-state", args=[table.pk]),
    }


@require_GET
def page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The whole console of one table (the clock, the current mode, the queue)."""
    table, game = _table_and_game(request, table_id)
    context = _context(request, table, game)
    context["i18n"] = js_strings()
    context["config"] = {"table": table.pk, "urls": context["urls"], "csrf": get_token(request)}
    return render(request, "referee/console.html", context)


@gzip_page  # ~70 KB of HTML, ~8 KB on the wire; the fragment holds no CSRF token (BREACH)
@require_GET
def main(request: HttpRequest, table_id: int) -> HttpResponse:
    """The fragment below the clock, re-fetched by htmx after every successful post."""
    table, game = _table_and_game(request, table_id)
    return render(request, MAIN_TEMPLATE, _context(request, table, game))


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
        services.count_result(game_id=game.pk, author=_author(request))
    except DomainError as error:
        return _render_main(request, table, game, error=error)
    return _render_main(request, table, game, notice=_("Counted. Now a second person confirms."))


@require_POST
def confirm(request: HttpRequest, table_id: int) -> HttpResponse:
    """A player of the table types the code from the players' slip, or the head referee confirms."""
    table, game = _table_and_game(request, table_id)
    head_referee = request.POST.get("head_referee") == "1"
    if head_referee and not _may_confirm_as_head_referee(request, table):
        raise PermissionDenied
    try:
        if not head_referee:
            check_confirmation_attempt(request, table.pk)  # 4 digits must not be guessable
        services.confirm_result(
            game_id=game.pk, code=request.POST.get("code", ""), by=_author(request),
            head_referee=head_referee,
        )
    except DomainError as error:
        # 429 once the table's code is blocked: the console shows the answer all the same.
        return _render_main(request, table, game, error=error,
                            status=429 if isinstance(error, errors.CodesExhausted) else 200)
    return _render_main(request, table, game, notice=_("The result is confirmed and final."))


@require_POST
def dispute(request: HttpRequest, table_id: int) -> HttpResponse:
    table, game = _table_and_game(request, table_id)
    try:
        note = clean_note(request.POST.get("note"))
    except DomainError as error:
        return _render_main(request, table, game, error=error)
    if not note:
        return _render_main(request, table, game, error=_(
            "Write down what is disputed: the head referee reads the note."))
    try:
        services.dispute_result(game_id=game.pk, note=note, by=_author(request))
    except DomainError as error:
        return _render_main(request, table, game, error=error)
    return _render_main(request, table, game, notice=_(
        "The result is disputed: it waits for the head referee."))


def _author(request: HttpRequest):
    return request.user if request.user.is_authenticated else None


def _render_main(request: HttpRequest, table: Table, game: Game, *, error=None, notice=None,
                 status: int = 200):
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
        request, MAIN_TEMPLATE, _context(request, table, game, error=message, notice=notice),
        status=status,
    )


def js_strings() -> dict[str, str]:
    """The strings console.js shows, translated on the server (JS has no catalogue)."""
    return {
        "bank": _("the bank"),
        "game_time": _("Game time"),
        "offline": _("Offline"),
        "offline_queued": _("Offline – %(n)s queued"),
        # A page kept by the service worker, opened without network (HH:MM of the kept state).
        "offline_stale": _("Offline – state as of %(time)s"),
        "offline_stale_one": _("Offline – state as of %(time)s; 1 action waiting"),
        "offline_stale_many": _("Offline – state as of %(time)s; %(n)s actions waiting"),
        "sending": _("Sending %(n)s …"),
        "queued": _("%(n)s queued"),
        "online": _("Online"),
        "checking": _("Asking the rules engine …"),
        "not_checked": _(
            "Offline: the server cannot check this now. It is queued and checked when the "
            "network is back."),
        "confirm": _("Confirm"),
        "sent": _("Recorded"),
        "queued_one": _("Queued (offline): %(label)s"),
        "conflict_title": _("Not recorded – please decide"),
        "conflict_stale": _(
            "The table changed before this was sent (another device, or the server's clock "
            "recorded the auction stop or the time limit)."),
        "conflict_refused": _("The rules engine refused this queued action:"),
        "drop": _("Drop this action"),
        "resend": _("Send it against the current state"),
        "reload": _("Reload the page"),
        "session": _("Not allowed: log in again or open the banker link again."),
        "server_error": _("The server had a problem; it will be tried again."),
        "auction_stop_in": _("Auction stop in"),
        "auction_stop_now": _("Auction stop now"),
        "auction_stop_done": _("Auction stop done"),
        "limit_in": _("Limit in"),
        "time_up": _("Time is up"),
        "not_started": _("Not started"),
        "paused": _("PAUSED"),
        "game_over": _("Game over"),
        "choose_deed": _("Choose a deed."),
        "choose_player": _("Choose a player."),
        "choose_winner": _("Choose the winner, or “No bid”."),
        "enter_amount": _("Enter an amount."),
        "min_bid": _("The minimum bid is %(n)s."),
        "choose_dice": _("Enter the dice total (2–12)."),
        "no_rent": _("No rent is due on this deed now."),
        "nothing": _("Nothing to do: nothing was changed."),
        "reason_needed": _("Give a reason."),
        "cash_for_deeds": _("Only the side that receives deeds can pay cash."),
        "trade_needs_deeds": _("Choose the deeds that change hands."),
        "max_deals": _("%(name)s gets only %(n)s more."),
        "refused": _("Refused"),
        "label_start": _("Start the clock"),
        "label_pause": _("Pause"),
        "label_resume": _("Resume"),
        "label_end": _("Last turn played"),
        "label_on_turn": _("On turn at time: %(player)s"),
        "label_turn_played": _("Last turn played: %(player)s"),
        "label_deal": _("%(player)s is dealt %(deeds)s"),
        # the deal's answer, computed in the browser (same words as the server's check)
        "deal_paid": _("%(player)s is dealt %(deed)s and pays %(amount)s to the bank."),
        "deal_free": _("%(player)s is dealt %(deed)s free of charge."),
        "cash_head": _("Cash"),
        "before": _("before"),
        "change": _("change"),
        "after": _("after"),
        "label_buy": _("%(player)s buys %(deed)s"),
        "label_auction": _("Auction of %(deed)s"),
        "label_rent": _("%(player)s pays rent for %(deed)s"),
        "label_pay": _("%(player)s: payment of %(amount)s"),
        "label_buildings": _("%(player)s: buildings"),
        "label_mortgage": _("%(player)s: mortgages"),
        "label_trade": _("Trade %(player)s ↔ %(partner)s"),
        "label_jail": _("%(player)s goes to jail"),
        "label_release": _("%(player)s leaves jail"),
        "label_cash": _("%(player)s: cash %(amount)s"),
        "label_bankrupt": _("%(player)s is bankrupt"),
        "label_void": _("Correction of event %(index)s"),
        "label_count": _("Counted cash"),
    }
