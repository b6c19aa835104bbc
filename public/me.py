"""A player's own page, opened with their personal code (QR code on the player card): where to
sit now (table, seat, banker) with the table's clock, the next round's table as soon as it is
seated, their results, points and standing. No login; a renewed code stops opening it.

Small on purpose (a phone on the hall's weak Wi-Fi): one cached fragment per player, built once
per change and compressed once, polled with its ETag (mostly a 304).
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from config.compression import Encoded
from public import selectors as public_selectors
from public.fragments import cached_fragment, clock_data
from referee import selectors as referee_selectors
from scoring import cache
from scoring.models import Scope
from scoring.standings import selectors as standings
from tournament.models import Player, Round, Seat
from tournament.names import account_name

OPEN = (Round.Status.SEATED, Round.Status.LOCKED, Round.Status.RUNNING)


def _round_title(round_: Round) -> str:
    return (_("Final") if round_.kind == Round.Kind.FINAL
            else _("Round %(number)s") % {"number": round_.number})


def _seat(seat: Seat, now) -> dict[str, Any]:
    table = seat.table
    game = getattr(table, "game", None)
    result = referee_selectors.result_of(game) if game else None
    state = public_selectors.public_state(game, result)
    return {
        "round": seat.round.number,
        "round_title": _round_title(seat.round),
        "running": seat.round.status == Round.Status.RUNNING,
        "table": table.number,
        "seat": seat.position,
        "banker": account_name(table.banker),
        "state": state,
        "state_label": referee_selectors.STATE_LABELS.get(state, state),
        "clock": clock_data(state, game.game_seconds(now) if game else None, now),
        "auction_stop_due": game.auction_stop_due if game and not game.auction_stop_done
        else None,
        "time_up_due": game.time_up_due if game and state in ("running", "auction", "paused")
        else None,
    }


def my_page(player: Player) -> dict[str, Any]:
    """What the player's page shows; a fixed number of queries."""
    tournament = player.tournament
    now = timezone.now()
    seats = list(
        Seat.objects.filter(player=player, round__status__in=OPEN)
        .select_related("round", "table__banker", "table__game", "table__game__result")
        .order_by("round__number")
    )
    running = [s for s in seats if s.round.status == Round.Status.RUNNING]
    upcoming = [s for s in seats if s.round.status != Round.Status.RUNNING]
    row = standings.place_of(tournament, player_id=player.pk, scope=Scope.PUBLIC)
    hold = not tournament.results_public_immediately
    statuses = dict(tournament.rounds.values_list("number", "status"))
    games = []
    for info in public_selectors.player_games(tournament, player.pk):
        held = hold and statuses.get(info["round"]) != Round.Status.COMPLETE
        games.append({
            **info, "held": held, "place": None if held else info["place"],
            "net_worth": None if held else info["net_worth"],
            "round_title": _("Final") if info["final"]
            else _("Round %(number)s") % {"number": info["round"]},
        })
    return {
        "tournament": tournament,
        "player": player,
        "now_seat": _seat(running[-1], now) if running else None,
        "next_seat": _seat(upcoming[-1], now) if upcoming else None,
        "row": row,
        "games": games,
        "held": hold,
        "dropped_out": player.dropped_out,
    }


def my_fragment(player: Player) -> Encoded:
    slug = player.tournament.slug

    def build() -> str:
        return render_to_string("public/_me.html", my_page(player))

    return cached_fragment(slug, f"me:{player.pk}", [cache.STANDINGS, cache.TABLES], build)
