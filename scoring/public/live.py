"""A table of the current round, live: the board, the players, the feed in words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.compression import Encoded
from referee import engine_cache, rules
from referee import selectors as referee_selectors
from referee.feed import describe_event, format_clock
from referee.selectors import HELD_EVENT_TYPES
from scoring import cache
from scoring.public import selectors as public_selectors
from tournament import selectors as tournament_selectors
from tournament.models import Round, Seat, Table, Tournament

from .board import PLAYER_COLOURS, board_geometry, board_view, leader_squeezed
from .fragments import (
    STATE_LABELS,
    cached_fragment,
    clock_data,
    club_label,
    derived,
    names_digest,
    public_tournament,
)

FEED_LENGTH = 15


def parse_at(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        at = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return at if at.tzinfo is not None else None


def replay_game(engine: rules.Game) -> rules.Game:
    return rules.Game(ruleset=engine.ruleset, board=engine.board, players=engine.players,
                      ledger=engine.ledger)


def feed_entries(engine: rules.Game, *, names: dict[str, str], language: str,
                 limit: int = FEED_LENGTH, held: bool = False) -> list[dict[str, Any]]:
    """The last ``limit`` events in words, newest first, each with its game time.

    The record is replayed so that every event is described with the state just before it
    (who owns a street, whether a building is a house or the hotel).
    """
    events = engine.events
    voided = engine.voided
    start = max(0, len(events) - limit)
    wanted = set(range(start, len(events)))
    for event in events[start:]:
        if event.get("type") == "void" and isinstance(event.get("event"), int):
            wanted.add(event["event"])
    replay = replay_game(engine)
    said: dict[int, str] = {}
    out = []
    for index, event in enumerate(events):
        if index in wanted:
            state = replay.state
            seconds = None
            game_time = state.game_time(parse_at(event.get("at")))
            if game_time is not None:
                seconds = game_time.total_seconds()
            target = said.get(event.get("event")) if event.get("type") == "void" else None
            text = describe_event(event, names=names, board=engine.board, language=language,
                                  state=state, clock=format_clock(seconds), target=target)
            said[index] = text
            if index >= start and not (held and event.get("type") in HELD_EVENT_TYPES):
                clock = format_clock(seconds) if state.started else ""
                if event.get("type") == "start":
                    clock = format_clock(0)
                out.append({"seq": index, "type": event.get("type"), "text": text,
                            "clock": clock,
                            "voided": index in voided})
        try:
            replay.apply(event)
        except rules.RuleViolation:  # cannot happen for a stored record; show what we have
            break
    out.reverse()
    return out


def _current_table(tournament: Tournament, number: int) -> Table:
    current = tournament_selectors.public_round(tournament)
    if current is None:
        raise Http404("no round")
    table = (
        Table.objects.filter(round=current, number=number)
        .select_related("round", "game", "game__result").first()
    )
    if table is None:
        raise Http404("no such table")
    table.round.tournament = tournament  # whether results are held: no query
    return table


def table_live(tournament: Tournament, number: int) -> dict[str, Any]:
    """A table of the current round: the board, the players, the feed. Constant queries."""
    table = _current_table(tournament, number)
    game = getattr(table, "game", None)
    now = timezone.now()
    language = translation.get_language() or "de"
    round_title = (_("Final") if table.round.kind == Round.Kind.FINAL
                   else _("Round %(number)s") % {"number": table.round.number})
    base = {"tournament": tournament, "table": table, "round_title": round_title}
    if game is None:
        seats = list(Seat.objects.filter(table=table).select_related("player__club")
                     .order_by("position"))
        players = [
            {"seat": i, "colour": PLAYER_COLOURS[(i - 1) % len(PLAYER_COLOURS)],
             "name": seat.player.public_name,
             "club": club_label(seat.player.public_name,
                                seat.player.club.label if seat.player.club else ""),
             "net_worth": None, "deeds": []}
            for i, seat in enumerate(seats, start=1)
        ]
        board = rules.get_board(tournament.board)
        return {**base, "state": "not_started", "state_label": STATE_LABELS["not_started"],
                "clock": clock_data("not_started", None, now), "players": players,
                "squares": board_view(board, [], {}), "feed": [], "ledger": False,
                "result": None, "leader": None, **board_geometry()}
    picture = referee_selectors.game_state(game, public=True, now=now, feed=0)
    held = picture["results_held"]
    engine = engine_cache.engine_for(game)
    names = {p["id"]: p["name"] for p in picture["players"]}
    places = {row["player"]: row["place"] for row in picture["standings"]}
    seats = {}
    players = []
    for i, player in enumerate(picture["players"], start=1):
        colour = PLAYER_COLOURS[(i - 1) % len(PLAYER_COLOURS)]
        seats[player["id"]] = {"seat": i, "colour": colour, "name": player["name"]}
        players.append({
            "id": player["id"], "seat": i, "colour": colour, "name": player["name"],
            "club": club_label(player["name"], player["club"]),
            "net_worth": player["net_worth"], "cash": player.get("cash"),
            "bankrupt": player["bankrupt"], "in_jail": player["in_jail"],
            "place": places.get(player["id"]),
            "deeds": [engine.board.deed(key).name for key in player["deeds"]],
        })
    result = referee_selectors.result_of(game)
    state = public_selectors.public_state(game, result)
    digest = names_digest(names)
    feed = derived(
        cache.key(tournament.slug,
                  f"feed:{game.pk}:{game.event_count}:{language}:{digest}:{int(held)}"),
        lambda: feed_entries(engine, names=names, language=language, held=held),
    )
    leader = None if held else (game.summary or {}).get("leader")
    clock = picture["clock"]
    return {
        **base,
        "game": game,
        "state": state,
        "state_label": STATE_LABELS.get(state, state),
        "clock": clock_data(state, clock["game_seconds"], now),
        "limits": {"auction_stop": format_clock(clock["auction_stop_seconds"]),
                   "time_limit": format_clock(clock["time_limit_seconds"])},
        "players": players,
        "ledger": picture["ledger"],
        "squares": board_view(engine.board, picture["deeds"], seats),
        "feed": feed,
        "result": result,
        "results_held": held,
        "leader": names.get(leader) if leader else None,
        "leader_squeezed": bool(leader) and leader_squeezed(names.get(leader) or ""),
        "bank": picture["bank"],
        **board_geometry(),
    }



def table_fragment(slug: str, number: int) -> Encoded:
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("scoring/_table_live.html", table_live(tournament, number))

    return cached_fragment(slug, f"table:{number}", [cache.TABLES], build)
