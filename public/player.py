"""A player's page: games, places and net-worth charts over game time."""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from config.compression import Encoded
from public import selectors as public_selectors
from public.fragments import (
    cached_fragment,
    club_label,
    derived,
    public_tournament,
)
from public.live import parse_at, replay_game
from referee import engine_cache, rules
from referee.models import Game
from scoring import cache
from scoring.models import Scope
from scoring.standings import selectors as standings
from tournament.models import Player, Round, Tournament

CHART_WIDTH = 600
CHART_HEIGHT = 220
CHART_PAD = 44
CHART_POINTS = 400


def worth_series(engine: rules.Game, player: str) -> list[tuple[float, int]]:
    """(game seconds, net worth) after each event of the record, replayed with the engine."""
    replay = replay_game(engine)
    points: list[tuple[float, int]] = []
    for event in engine.events:
        try:
            replay.apply(event)
        except rules.RuleViolation:
            break
        state = replay.state
        if not state.started:
            continue
        game_time = state.game_time(parse_at(event.get("at")))
        seconds = game_time.total_seconds() if game_time is not None else (
            points[-1][0] if points else 0.0)
        points.append((max(0.0, seconds), rules.net_worth(state, player).total))
    return points


def of_record(points: list[tuple[float, int]], info: dict[str, Any]) -> list[tuple[float, int]]:
    """The chart ends on the game's figure of record (``info``: the player's game as
    ``public_selectors.player_games`` gives it): a result that is not the record's last net
    worth (an amendment, a paper sheet) is its last point, at the record's last moment."""
    worth = info.get("net_worth")
    if not points or info.get("place") is None or worth is None or points[-1][1] == worth:
        return points
    return [*points, (points[-1][0], worth)]


def _nice_step(span: float, ticks: int = 4) -> float:
    raw = span / max(1, ticks)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def chart(points: list[tuple[float, int]], *, span: float = 0) -> dict[str, Any] | None:
    """An inline SVG chart: a polyline of net worth over game time, with axis ticks; the time
    axis spans at least ``span`` seconds (the time limit), so charts of games compare."""
    if not points:
        return None
    if len(points) > CHART_POINTS:  # keep the last point; thin the rest evenly
        step = len(points) / CHART_POINTS
        points = [points[int(i * step)] for i in range(CHART_POINTS)] + [points[-1]]
    max_t = max(600.0, span, max(t for t, _ in points))
    max_w = max(1, max(w for _, w in points))
    w_step = _nice_step(max_w)
    max_w = math.ceil(max_w / w_step) * w_step
    t_step = next((m * 60.0 for m in (5, 10, 15, 30, 60) if max_t / (m * 60) <= 7), 120 * 60.0)
    inner_w = CHART_WIDTH - CHART_PAD - 10
    inner_h = CHART_HEIGHT - 30 - 10

    def px(t: float) -> float:
        return round(CHART_PAD + t / max_t * inner_w, 1)

    def py(w: float) -> float:
        return round(10 + inner_h - w / max_w * inner_h, 1)

    polyline = " ".join(f"{px(t)},{py(w)}" for t, w in points)
    y_ticks = [{"y": py(v), "label": int(v)} for v in _frange(0, max_w, w_step)]
    x_ticks = [{"x": px(t), "label": int(t // 60)} for t in _frange(0, max_t, t_step)]
    last_t, last_w = points[-1]
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "polyline": polyline,
            "y_ticks": y_ticks, "x_ticks": x_ticks, "left": CHART_PAD,
            "bottom": 10 + inner_h, "right": CHART_WIDTH - 10,
            "last": {"x": px(last_t), "y": py(last_w), "worth": last_w},
            "peak": max(w for _, w in points), "final": last_w}


def _frange(start: float, stop: float, step: float) -> list[float]:
    out, value = [], start
    while value <= stop + 1e-9:
        out.append(value)
        value += step
    return out


def player_page(tournament: Tournament, player_id: int) -> dict[str, Any]:
    """A player's games, places and net-worth charts; results of held rounds stay hidden."""
    player = (Player.objects.filter(tournament=tournament, pk=player_id)
              .select_related("club").first())
    if player is None:
        raise Http404("no such player")
    row = standings.place_of(tournament, player_id=player_id, scope=Scope.PUBLIC)
    rounds = dict(tournament.rounds.values_list("number", "status"))
    hold = not tournament.results_public_immediately
    games_info = public_selectors.player_games(tournament, player_id)
    if player.dropped_out and not games_info:
        # dropped out without a game (e.g. imported by mistake): not public, like the standings
        raise Http404("no such player")
    games = {game.table_id: game for game in
             Game.objects.filter(table_id__in=[g["table_id"] for g in games_info])}
    key = str(player_id)
    out = []
    for info in games_info:
        held = hold and rounds.get(info["round"]) != Round.Status.COMPLETE
        game = games.get(info["table_id"])
        entry = {**info, "held": held, "chart": None,
                 "round_title": _("Final") if info["final"]
                 else _("Round %(number)s") % {"number": info["round"]}}
        if held:
            # Every figure a place can be derived from: the place, the net worth and the
            # chart (its line, its ticks and its label all carry the net worth).
            entry["place"] = None
            entry["net_worth"] = None
            entry["confirmed"] = False
        elif game is not None and game.started_at is not None and key in game.players:
            engine = engine_cache.engine_for(game)
            series = derived(
                cache.key(tournament.slug, f"worth:{game.pk}:{game.event_count}:{key}"),
                lambda engine=engine: worth_series(engine, key),
            )
            limit = engine.ruleset.time_limit_minutes
            entry["chart"] = chart(of_record(series, info), span=limit * 60 if limit else 0)
            entry["live"] = game.status != Game.Status.FINISHED
        out.append(entry)
    name = player.public_name
    return {"tournament": tournament, "player": {"id": player.pk, "name": name,
            "club": club_label(name, player.club.label if player.club else ""),
            "dropped_out": player.dropped_out},
            "row": row, "games": out, "held": hold}


def player_fragment(slug: str, player_id: int) -> Encoded:
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("public/_player.html", player_page(tournament, player_id))

    return cached_fragment(slug, f"player:{player_id}", [cache.STANDINGS, cache.TABLES], build)
