"""A table of the current round, live: the board, the players, the feed in words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import prefetch_related_objects
from django.http import Http404
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.compression import Encoded
from public import selectors as public_selectors
from public.board import (
    PLAYER_COLOURS,
    board_geometry,
    board_view,
    leader_squeezed,
)
from public.fragments import (
    cached_fragment,
    clock_data,
    club_label,
    derived,
    names_digest,
    public_tournament,
)
from referee import engine_cache, rules
from referee import selectors as referee_selectors
from referee.feed import amount, describe_event, format_clock, ordinal
from referee.privacy import HELD_EVENT_TYPES, public_event
from scoring import cache
from tournament import selectors as tournament_selectors
from tournament.models import (
    Round,
    Seat,
    Table,
    Tournament,
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
            # The one public projection: whatever ``describe_event`` says, it never saw the
            # banker's free text.
            shown = public_event(event, held=held) if isinstance(event, dict) else event
            text = describe_event(shown, names=names, board=engine.board, language=language,
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


def result_figures(result, *, held: bool) -> dict[str, dict[str, Any]] | None:
    """A result's place, net worth and bankruptcy per player key, as the result of record says
    (the console's count, the paper sheet or the head referee's amendment:
    ``referee.selectors.figures_of_record``); None: no result yet; no figures while results
    are held."""
    if result is None:
        return None
    if held:
        return {}
    figures = referee_selectors.figures_of_record(result.game, result)
    orders = {str(p.player_id): (p.breakdown or {}).get("bankrupt_order")
              for p in result.placements.all()}
    return {
        key: {"place": place, "net_worth": figures["net_worth"][key],
              "bankrupt": key in figures["bankrupt"], "bankrupt_order": orders[key]}
        for key, place in figures["places"].items()
    }


def paper_entry(result, players: list[dict[str, Any]], *, names: dict[str, str],
                held: bool) -> dict[str, Any]:
    """The feed's line for a result entered from the paper sheet: places and figures in words
    (while results are held, only that it was entered)."""
    if held:
        text = _("Result entered from the paper sheet; places and net worth are published "
                 "when the round is closed.")
    else:
        parts = []
        for player in sorted(players, key=lambda p: (p.get("place") or 99, p["seat"])):
            if player.get("bankrupt"):
                order = player.get("bankrupt_order")
                what = (_("bankrupt as no. %(order)s") % {"order": order} if order
                        else _("bankrupt"))
            else:
                what = amount(player.get("net_worth"))
            parts.append(f"{ordinal(player.get('place'))} {names.get(player['id'], player['name'])} "
                         f"({what})")
        text = _("Result from the paper sheet: %(places)s.") % {"places": ", ".join(parts)}
    return {"seq": "paper", "type": "paper", "text": text, "clock": "", "voided": False}


def _public_round(tournament: Tournament, round_number: int | None) -> Round:
    """The round asked for (a printed sheet names its own), else the current public one;
    a round that has not started is not public yet."""
    if round_number is None:
        found = tournament_selectors.public_round(tournament)
    else:
        found = tournament.rounds.filter(number=round_number).first()
        if found is not None and not tournament_selectors.round_is_public(found):
            found = None
    if found is None:
        raise Http404("no round")
    return found


def _current_table(tournament: Tournament, number: int, round_number: int | None = None
                   ) -> Table:
    current = _public_round(tournament, round_number)
    table = (
        Table.objects.filter(round=current, number=number)
        .select_related("round", "game", "game__result").first()
    )
    if table is None:
        raise Http404("no such table")
    table.round.tournament = tournament  # whether results are held: no query
    return table


def _not_started(tournament: Tournament, table: Table, now) -> dict[str, Any]:
    """A table whose game has not begun: its players in seat order on an empty board."""
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
    return {"state": "not_started", "state_label": referee_selectors.STATE_LABELS["not_started"],
            "clock": clock_data("not_started", None, now), "players": players,
            "squares": board_view(board, [], {}), "feed": [], "ledger": False,
            "result": None, "leader": None, **board_geometry()}


def _players(
    picture: dict[str, Any], engine, *, sheet: dict | None, playing: bool, paper: bool = False
) -> tuple[dict[Any, dict[str, Any]], list[dict[str, Any]]]:
    """The game's players in seat order with their colours (and, by id, their seats on the
    board); a result's figures (``result_figures``) replace the record's: a paper sheet's
    those of the interrupted record (its cash too), an amendment's the counted ones. Who sits
    in jail only while the game is being played (``playing``)."""
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
            "bankrupt": player["bankrupt"], "in_jail": playing and player["in_jail"],
            "place": places.get(player["id"]),
            "deeds": [engine.board.deed(key).name for key in player["deeds"]],
        })
        if sheet is not None:  # the result of record, not the replay, is the count
            players[-1].update(sheet.get(player["id"], {}))
            if paper:  # the interrupted record's cash is no part of the sheet
                players[-1]["cash"] = None
    return seats, players


def table_live(tournament: Tournament, number: int, round_number: int | None = None
               ) -> dict[str, Any]:
    """A table of the current round (or of round ``round_number``): the board, the players,
    the feed. Constant queries."""
    table = _current_table(tournament, number, round_number)
    game = getattr(table, "game", None)
    now = timezone.now()
    language = translation.get_language() or "de"
    round_title = (_("Final") if table.round.kind == Round.Kind.FINAL
                   else _("Round %(number)s") % {"number": table.round.number})
    base = {"tournament": tournament, "table": table, "round_title": round_title}
    if game is None:
        return {**base, **_not_started(tournament, table, now)}
    picture = referee_selectors.game_state(game, public=True, now=now, feed=0)
    held = picture["results_held"]
    engine = engine_cache.engine_for(game)
    names = {p["id"]: p["name"] for p in picture["players"]}
    result = referee_selectors.result_of(game)
    if result is not None:  # its lines read once: the players' figures and the leader
        prefetch_related_objects([result], "placements")
    figures = referee_selectors.figures_of_record(game, result)
    state = public_selectors.public_state(game, result)
    seats, players = _players(picture, engine, sheet=result_figures(result, held=held),
                              playing=public_selectors.in_play(state),
                              paper=bool(result and result.from_paper))
    digest = names_digest(names)
    feed = derived(
        cache.key(tournament.slug,
                  f"feed:{game.pk}:{game.event_count}:{language}:{digest}:{int(held)}"),
        lambda: feed_entries(engine, names=names, language=language, held=held),
    )
    if result is not None and result.from_paper:
        feed = [paper_entry(result, players, names=names, held=held), *feed]
    leader = None if held else figures["leader"]
    clock = picture["clock"]
    return {
        **base,
        "game": game,
        "state": state,
        "state_label": referee_selectors.STATE_LABELS.get(state, state),
        "clock": clock_data(state, clock["game_seconds"], now),
        "limits": {"auction_stop": format_clock(clock["auction_stop_seconds"]),
                   "time_limit": format_clock(clock["time_limit_seconds"])},
        "players": players,
        "ledger": picture["ledger"],
        "squares": board_view(engine.board, picture["deeds"], seats),
        "feed": feed,
        "result": result,
        # the head referee's figures (``breakdown["amended"]``), not the count or the sheet's
        "amended": result is not None and any(
            placement.breakdown.get("amended") for placement in result.placements.all()),
        "results_held": held,
        "leader": names.get(leader) if leader else None,
        "leader_squeezed": bool(leader) and leader_squeezed(names.get(leader) or ""),
        "bank": picture["bank"],
        **board_geometry(),
    }



def table_fragment(slug: str, number: int, round_number: int | None = None) -> Encoded:
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("public/_table_live.html",
                                table_live(tournament, number, round_number))

    name = f"table:{number}" if round_number is None else f"table:{round_number}:{number}"
    return cached_fragment(slug, name, [cache.TABLES], build)
