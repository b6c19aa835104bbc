"""Hall screens in kiosk mode (``/t/<slug>/hall/<key>/``): what each screen shows is chosen at
the desk (``scoring.screens``); the screen polls its content with an ETag (mostly a 304) and
follows within seconds. Large type for 10 m, no login, no interaction.

- ``seating``: name → table, alphabetical (DIN 5007, by last name), page by page (each holds still);
- ``clock``: the round clock (time to the auction stop and to the limit; the tables whose
  clocks differ listed apart) and the tables' states;
- ``standings``: the top of the table and the qualification line;
- ``auto``: seating while a round is drawn but not started, the clock while it runs, the
  standings between rounds.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import Http404
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from config.compression import Encoded
from public.fragments import cached_fragment, public_tournament
from public.leaderboard import leaderboard
from referee.models import Game, GameResult
from referee.selectors import STATE_LABELS
from scoring import cache
from scoring.models import HallScreen
from scoring.screens import SCREENS
from tournament import names
from tournament import selectors as tournament_selectors
from tournament.models import (
    Round,
    Seat,
    Table,
    Tournament,
)

STANDINGS_ROWS = 20
CLOCK_GROUP_SECONDS = 30  # deadlines closer than this count as one clock
STATE_ORDER = ["not_started", "running", "paused", "auction", "final_round", "ended", "disputed",
               "confirmed"]


def screen_mode(slug: str, key: str) -> str:
    """The screen's chosen mode (cached per change of any screen); 404 for an unknown one."""
    modes = cache.cached_value(slug, "screen-modes", [SCREENS], lambda: dict(
        HallScreen.objects.filter(tournament__slug=slug).values_list("key", "mode")))
    if key not in modes:
        raise Http404("no such screen")
    return modes[key]


def resolve(mode: str, round_: Round | None) -> str:
    """``auto`` made concrete by the state of the current round."""
    if mode != HallScreen.Mode.AUTO:
        return mode
    if round_ is None or round_.status == Round.Status.COMPLETE:
        return HallScreen.Mode.STANDINGS
    if round_.status in (Round.Status.SEATED, Round.Status.LOCKED):
        return HallScreen.Mode.SEATING
    return HallScreen.Mode.CLOCK


def _round_title(round_: Round | None) -> str:
    if round_ is None:
        return ""
    return (_("Final") if round_.kind == Round.Kind.FINAL
            else _("Round %(number)s") % {"number": round_.number})


def seating(round_: Round) -> list[dict[str, Any]]:
    """Every seated player by last name (DIN 5007), public names only, with table and seat."""
    lines = []
    seats = Seat.objects.filter(round=round_).select_related("player__club", "table")
    for seat in seats.iterator(chunk_size=500):
        player = seat.player
        shown = (names.last_name_first(player.name) if player.public_name_consent
                 else player.public_name)
        lines.append((names.last_name_key(player.name),
                      {"name": shown, "table": seat.table.number, "seat": seat.position,
                       "letter": names.sort_key(names.last_name(player.name))[0][:1].upper()}))
    lines.sort(key=lambda item: (item[0], item[1]["table"]))
    return [line for _key, line in lines]


def _state(status: str | None, started: bool, paused: bool, auction_done: bool,
           unowned: bool, result: str | None) -> str:
    """The public word of a table (as ``public_selectors.public_state``), from plain values."""
    if result is not None:
        return {GameResult.Status.CONFIRMED: "confirmed",
                GameResult.Status.DISPUTED: "disputed"}.get(result, "ended")
    if status is None or not started:
        return "not_started"
    if status == Game.Status.FINISHED:
        return "ended"
    if paused:
        return "paused"
    if status == Game.Status.FINAL_ROUND:
        return "final_round"
    if auction_done and unowned:
        return "auction"
    return "running"


def clock(round_: Round) -> dict[str, Any]:
    """The round clock: the deadlines most running tables share (epoch seconds, the browser
    counts down), the tables whose clocks differ, and every table's state. One query."""
    rows = (Table.objects.filter(round=round_).order_by("number")
            .values_list("number", "game__status", "game__started_at", "game__paused_at",
                         "game__auction_stop_done", "game__auction_stop_due",
                         "game__time_up_due", "game__result__status", "game__summary"))
    tables, groups = [], Counter()
    clocks: dict[int, tuple[int | None, int | None]] = {}
    for (number, status, started, paused_at, auction_done, auction_due, limit_due, result,
         summary) in rows:
        state = _state(status, started is not None, paused_at is not None, bool(auction_done),
                       bool((summary or {}).get("unowned")), result)
        # the state's words for the chip's tooltip (a raw "not_started" is no word)
        tables.append({"number": number, "state": state, "label": STATE_LABELS[state]})
        if state in ("running", "auction", "final_round") and limit_due is not None:
            key = (None if auction_done or auction_due is None
                   else round(auction_due.timestamp() / CLOCK_GROUP_SECONDS),
                   round(limit_due.timestamp() / CLOCK_GROUP_SECONDS))
            groups[key] += 1
            clocks[number] = (None if key[0] is None else int(auction_due.timestamp()),
                              int(limit_due.timestamp()))
    main = groups.most_common(1)[0][0] if groups else None
    main_clock = None
    differing: dict[tuple, list[int]] = {}
    for number, (auction, limit) in clocks.items():
        key = (None if auction is None else round(auction / CLOCK_GROUP_SECONDS),
               round(limit / CLOCK_GROUP_SECONDS))
        if key == main:
            main_clock = main_clock or {"auction": auction, "limit": limit}
        else:
            differing.setdefault(key, []).append(number)
    others = []
    for _key, numbers in sorted(differing.items(), key=lambda item: min(item[1])):
        auction, limit = clocks[numbers[0]]
        others.append({"tables": numbers, "auction": auction, "limit": limit})
    counts = Counter(table["state"] for table in tables)
    return {
        "main": main_clock,
        "others": others,
        "tables": tables,
        "counts": [{"state": s, "label": STATE_LABELS[s], "count": counts[s]}
                   for s in STATE_ORDER if counts.get(s)],
    }


def content(tournament: Tournament, mode: str) -> dict[str, Any]:
    current = tournament_selectors.current_round(tournament)
    shown = resolve(mode, current)
    data: dict[str, Any] = {"tournament": tournament, "mode": shown, "chosen": mode,
                            "round": current, "round_title": _round_title(current)}
    if shown == HallScreen.Mode.SEATING and current is not None:
        data["lines"] = seating(current)
    elif shown == HallScreen.Mode.CLOCK and current is not None:
        data["clock"] = clock(current)
    else:
        board = leaderboard(tournament, top=True, limit=STANDINGS_ROWS)
        data.update(board)
    return data


def hall_fragment(slug: str, key: str) -> Encoded:
    """The screen's content, built and compressed once per change and shared by every screen
    showing the same thing."""
    mode = screen_mode(slug, key)

    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("public/_hall.html", content(tournament, mode))

    return cached_fragment(slug, f"hall:{mode}", [cache.STANDINGS, cache.TABLES, SCREENS],
                           build)
