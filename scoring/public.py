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
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache as django_cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee import engine_cache, rules
from referee import selectors as referee_selectors
from referee.models import Game, GameResult
from tournament import selectors as tournament_selectors
from tournament.models import Player, Round, Seat, Table, Tournament

from . import cache, selectors
from .feed import describe_event, format_clock
from .models import Scope, StandingRow

FRAGMENT_TIMEOUT = 30  # seconds: bounds staleness of what no signal invalidates
DERIVED_TIMEOUT = 3600  # feeds and charts: keyed by the game's event count, never stale
FEED_LENGTH = 15
SCREEN_ROWS = 10  # standings rows per projector page
SCREEN_STANDINGS = 40  # the projector shows the top 40 (4 pages)
SCREEN_TABLES = 6  # table cards per projector page

# Players' colours on the board, by seat, distinct from each other; the seat number is drawn
# on every owned deed too, so colour is never the only cue.
PLAYER_COLOURS = (
    "#c8102e",  # red
    "#1b4fbf",  # blue
    "#138a36",  # green
    "#e07b00",  # amber
    "#6a2fb0",  # purple
    "#00808a",  # teal
    "#7a4a1e",  # brown
    "#d0399a",  # magenta
)
GROUP_COLOURS = {
    "braun": "#8b4a2b",
    "hellblau": "#9fd6f2",
    "pink": "#d6338f",
    "orange": "#f5901e",
    "rot": "#e3202b",
    "gelb": "#f7e11b",
    "gruen": "#1ea75a",
    "dunkelblau": "#1460aa",
}

STATE_LABELS = {
    "not_started": gettext_lazy("Not started"),
    "running": gettext_lazy("Running"),
    "paused": gettext_lazy("Paused"),
    "auction": gettext_lazy("Auction stop: auctions"),
    "final_round": gettext_lazy("Last round of turns"),
    "ended": gettext_lazy("Ended, awaiting confirmation"),
    "confirmed": gettext_lazy("Result confirmed"),
    "disputed": gettext_lazy("Result disputed"),
}
RUNNING_STATES = frozenset({"running", "auction", "final_round"})

# Which measure ranks first in each format. A tie-break that decided is marked with its number
# in the tournament's chain (the primary measure is 1), the final with "F"; a legend explains.
PRIMARY = {"placement_points": "points", "net_worth_sum": "net_worth_sum",
           "table_winners": "table_wins"}
CRITERIA = {
    **{choice.value: choice.label for choice in Tournament.TieBreak},
    "table_wins": gettext_lazy("Table wins"),
    "final": gettext_lazy("Final"),
}


# --------------------------------------------------------------------------- caching


def public_tournament(slug: str) -> Tournament:
    tournament = tournament_selectors.public_tournaments().filter(slug=slug).first()
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


@dataclass(frozen=True)
class TournamentHead:
    """What a page's title and header need; cached so that a page view needs no query."""

    slug: str
    name: str
    date: dt.date
    venue: str
    status: str

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
                              tournament.venue, tournament.status)
        django_cache.set(key, head, timeout=FRAGMENT_TIMEOUT)
    return head


def cached_fragment(
    slug: str, name: str, depends_on: Sequence[str], build: Callable[[], str]
) -> tuple[bytes, str]:
    """The fragment ``name`` in the active language and its ETag, built when it changed."""
    language = translation.get_language() or "de"
    generations = "-".join(str(cache.generation(slug, dep)) for dep in depends_on)
    key = cache.key(slug, f"fragment:{name}:{language}:{generations}")
    hit = django_cache.get(key)
    if hit is not None:
        return hit
    body = build().encode()
    etag = '"' + hashlib.sha1(body).hexdigest()[:20] + '"'  # noqa: S324 - not security
    django_cache.set(key, (body, etag), timeout=FRAGMENT_TIMEOUT)
    return body, etag


def server_time_ms() -> int:
    return int(timezone.now().timestamp() * 1000)


def fragment_response(request: HttpRequest, body: bytes, etag: str) -> HttpResponse:
    """200 with the fragment, or 304 when the client already has it (``If-None-Match``)."""
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="text/html; charset=utf-8")
    response["ETag"] = etag
    # Always revalidated; a proxy may keep it, per language (cookie or browser preference).
    response["Cache-Control"] = "no-cache"
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


def _names_digest(names: dict[str, str]) -> str:
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


# --------------------------------------------------------------------------- leaderboard


@dataclass
class RoundColumn:
    number: int
    label: str
    final: bool


@dataclass
class StandingLine:
    row: dict[str, Any]
    cells: list[dict[str, Any] | None]
    mark: str = ""
    mark_title: str = ""
    cut_after: bool = False


def club_label(name: str, club: str) -> str:
    """The club beside a public name, unless the name already carries it ("A.B. (SF X)")."""
    return "" if not club or name.endswith(f"({club})") else club


def round_label(number: int, kind: str) -> str:
    if kind == Round.Kind.FINAL:
        return _("Final")
    return _("R%(number)s") % {"number": number}


def leaderboard(tournament: Tournament, *, limit: int | None = None) -> dict[str, Any]:
    """Rows, round columns, the qualification line and the hold notice. Three queries."""
    rows = selectors.standings(tournament, scope=Scope.PUBLIC)
    meta = selectors.standings_meta(tournament, scope=Scope.PUBLIC)
    rounds = {
        number: (kind, status)
        for number, kind, status in tournament.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("number").values_list("number", "kind", "status")
    }
    present = sorted({int(key) for row in rows for key in row["rounds"]})
    columns = [
        RoundColumn(n, round_label(n, rounds.get(n, ("preliminary", ""))[0]),
                    rounds.get(n, ("", ""))[0] == Round.Kind.FINAL)
        for n in present
    ]
    primary = PRIMARY.get(tournament.format, "points")
    chain = [primary] + [key for key in (tournament.tie_breaks or ()) if key != primary]
    marks = {key: str(i) for i, key in enumerate(chain, start=1)}
    marks["final"] = "F"
    played = any(row["rounds"] for row in rows)
    last_qualified = max((i for i, row in enumerate(rows) if row["qualified"]), default=-1)
    lines = []
    used_marks: dict[str, tuple[str, str]] = {}
    for index, row in enumerate(rows):
        cells = []
        for column in columns:
            cell = row["rounds"].get(str(column.number))
            cells.append(dict(cell) if cell else None)
        row = {**row, "club": club_label(row["name"], row["club"])}
        line = StandingLine(row=row, cells=cells)
        decided = row["decided_by"]
        if decided and decided != primary and decided in marks:
            line.mark, line.mark_title = marks[decided], str(CRITERIA.get(decided, decided))
            used_marks[decided] = (line.mark, line.mark_title)
        line.cut_after = played and index == last_qualified and index < len(rows) - 1
        lines.append(line)
    current = max(rounds, default=None)
    held_round = None
    if meta["held"] and current is not None and rounds[current][1] == Round.Status.RUNNING:
        held_round = current
    if limit is not None:
        lines = lines[:limit]
    return {
        "tournament": tournament,
        "lines": lines,
        "columns": columns,
        "meta": meta,
        "computed_at": dt.datetime.fromisoformat(meta["computed_at"])
        if meta["computed_at"] else None,
        "held": meta["held"],
        "held_round": held_round,
        "primary": primary,
        "show_table_wins": primary == "table_wins",
        "colspan": 4 + len(columns) + (primary == "table_wins"),
        "legend": sorted(used_marks.values(), key=lambda item: (item[0] == "F", item[0])),
        "provisional": any(cell and not cell["final"] for line in lines for cell in line.cells),
        "finalists": tournament.finalists,
    }


def standings_fragment(slug: str) -> tuple[bytes, str]:
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("scoring/_standings.html", leaderboard(tournament))

    return cached_fragment(slug, "standings", [cache.STANDINGS], build)


# --------------------------------------------------------------------------- table overview


def overview(tournament: Tournament) -> dict[str, Any]:
    """The current round's tables with their clocks (for the browser to run)."""
    data = selectors.table_overview(tournament)
    now = timezone.now()
    tables = []
    for card in data["tables"]:
        tables.append({
            **card,
            "state_label": STATE_LABELS.get(card["state"], card["state"]),
            "clock": clock_data(card["state"], card["game_seconds"], now),
            "provisional": card["state"] not in ("confirmed", "not_started"),
        })
    round_info = data["round"]
    title = ""
    if round_info:
        title = (_("Final") if round_info["kind"] == Round.Kind.FINAL
                 else _("Round %(number)s") % {"number": round_info["number"]})
    return {"tournament": tournament, "round": round_info, "round_title": title,
            "tables": tables}


def tables_fragment(slug: str) -> tuple[bytes, str]:
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("scoring/_tables.html", overview(tournament))

    return cached_fragment(slug, "tables", [cache.TABLES], build)


# --------------------------------------------------------------------------- the board as SVG

CORNER = 100
SIDE = 60
BOARD_SIZE = 2 * CORNER + 9 * SIDE  # 740
BAND = 20
TEXT_MIDDLE = 47  # the middle of the zone between the colour band and the price/owner strip
_SUFFIXES = ("straße", "strasse", "bahnhof", "platz", "allee", "steuer", "werk", "feld")


def label_lines(name: str, width: int = 10) -> list[str]:
    """A square's name in at most three short lines (long German compounds are hyphenated
    before a known suffix: "Chaussee-" / "straße")."""
    words: list[str] = []
    for word in name.replace("/", "/ ").split():
        if len(word) > width:
            lower = word.lower()
            for suffix in _SUFFIXES:
                if lower.endswith(suffix) and len(word) > len(suffix) + 2:
                    cut = len(word) - len(suffix)
                    words.extend([word[:cut] + "-", word[cut:]])
                    break
            else:
                words.append(word)
        else:
            words.append(word)
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width and not lines[-1].endswith("-"):
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 3:
        lines = lines[:2] + [" ".join(lines[2:])]
    return lines


def _cell(position: int) -> tuple[float, float, int, bool]:
    """Centre (x, y), rotation of the square's upright frame, and whether it is a corner."""
    far = BOARD_SIZE - CORNER / 2
    near = CORNER / 2
    if position % 10 == 0:
        corners = {0: (far, far), 10: (near, far), 20: (near, near), 30: (far, near)}
        x, y = corners[position]
        return x, y, 0, True
    side, step = divmod(position, 10)
    offset = CORNER + (step - 1) * SIDE + SIDE / 2
    if side == 0:  # bottom row, right to left
        return BOARD_SIZE - offset, far, 0, False
    if side == 1:  # left column, bottom to top
        return near, BOARD_SIZE - offset, 90, False
    if side == 2:  # top row, left to right
        return offset, near, 180, False
    return far, offset, 270, False  # right column, top to bottom


@dataclass
class SquareView:
    position: int
    key: str
    name: str
    kind: str
    lines: list[str]
    x: float
    y: float
    rotate: int
    corner: bool
    band: str = ""
    price: int = 0
    owner: str | None = None
    owner_colour: str = ""
    owner_seat: int | None = None
    owner_name: str = ""
    mortgaged: bool = False
    houses: list[int] = field(default_factory=list)
    hotel: bool = False
    title: str = ""

    @property
    def transform(self) -> str:
        if self.corner:
            return f"translate({self.x - CORNER / 2:g},{self.y - CORNER / 2:g})"
        return (f"translate({self.x:g},{self.y:g}) rotate({self.rotate}) "
                f"translate({-SIDE / 2:g},{-CORNER / 2:g})")

    @property
    def flip_text(self) -> bool:
        """The top row's text is turned upright for readers in front of the screen."""
        return self.rotate == 180

    @property
    def text_rows(self) -> list[dict[str, Any]]:
        """The name's lines with their baselines, centred in the square's middle zone."""
        if self.corner:
            middle, height = CORNER / 2, 14
        else:
            middle, height = TEXT_MIDDLE, 10
        first = middle - (len(self.lines) - 1) * height / 2 + height * 0.3
        return [{"y": round(first + i * height, 1), "text": line}
                for i, line in enumerate(self.lines)]


def board_view(board: rules.Board, deeds: Iterable[dict[str, Any]],
               seats: dict[str, dict[str, Any]]) -> list[SquareView]:
    """Every square with its place on the board and, for deeds, owner, mortgage, buildings."""
    by_key = {deed["key"]: deed for deed in deeds}
    out = []
    for square in board.squares:
        x, y, rotate, corner = _cell(square.position)
        view = SquareView(
            position=square.position, key=square.key, name=square.name, kind=square.kind,
            lines=label_lines(square.name, 14 if corner else 10), x=x, y=y, rotate=rotate,
            corner=corner, band=GROUP_COLOURS.get(square.group, "") if square.kind == "street"
            else "", price=square.price,
        )
        title = [square.name]
        deed = by_key.get(square.key)
        if deed is not None:
            owner = deed.get("owner")
            if owner is not None and owner in seats:
                seat = seats[owner]
                view.owner, view.owner_colour = owner, seat["colour"]
                view.owner_seat, view.owner_name = seat["seat"], seat["name"]
                title.append(seat["name"])
            view.mortgaged = bool(deed.get("mortgaged"))
            view.hotel = bool(deed.get("hotel"))
            count = int(deed.get("houses") or 0)
            view.houses = [3 + i * 14.5 for i in range(min(count, 4))]
            if view.mortgaged:
                title.append(_("mortgaged"))
            if view.hotel:
                title.append(_("hotel"))
            elif count:
                title.append(_("%(count)s houses") % {"count": count} if count > 1
                             else _("1 house"))
        view.title = " · ".join(title)
        out.append(view)
    return out


# --------------------------------------------------------------------------- a table, live


def _parse_at(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        at = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return at if at.tzinfo is not None else None


def _replay_game(engine: rules.Game) -> rules.Game:
    return rules.Game(ruleset=engine.ruleset, board=engine.board, players=engine.players,
                      ledger=engine.ledger)


def feed_entries(engine: rules.Game, *, names: dict[str, str], language: str,
                 limit: int = FEED_LENGTH) -> list[dict[str, Any]]:
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
    replay = _replay_game(engine)
    said: dict[int, str] = {}
    out = []
    for index, event in enumerate(events):
        if index in wanted:
            state = replay.state
            seconds = None
            game_time = state.game_time(_parse_at(event.get("at")))
            if game_time is not None:
                seconds = game_time.total_seconds()
            target = said.get(event.get("event")) if event.get("type") == "void" else None
            text = describe_event(event, names=names, board=engine.board, language=language,
                                  state=state, clock=format_clock(seconds), target=target)
            said[index] = text
            if index >= start:
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
    current = tournament_selectors.current_round(tournament)
    if current is None:
        raise Http404("no round")
    table = (
        Table.objects.filter(round=current, number=number)
        .select_related("round", "game", "game__result").first()
    )
    if table is None:
        raise Http404("no such table")
    return table


def _result_of(game: Game) -> GameResult | None:
    try:
        return game.result
    except GameResult.DoesNotExist:
        return None


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
                "result": None, "leader": None, **_board_geometry()}
    picture = referee_selectors.game_state(game, public=True, now=now, feed=0)
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
    result = _result_of(game)
    state = selectors.table_state_word(game, result)
    digest = _names_digest(names)
    feed = derived(
        cache.key(tournament.slug, f"feed:{game.pk}:{game.event_count}:{language}:{digest}"),
        lambda: feed_entries(engine, names=names, language=language),
    )
    leader = (game.summary or {}).get("leader")
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
        "leader": names.get(leader) if leader else None,
        "bank": picture["bank"],
        **_board_geometry(),
    }


def _board_geometry() -> dict[str, int]:
    return {"board_size": BOARD_SIZE, "corner": CORNER, "side": SIDE, "band": BAND,
            "middle": BOARD_SIZE / 2, "text_middle": TEXT_MIDDLE}


def table_fragment(slug: str, number: int) -> tuple[bytes, str]:
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("scoring/_table_live.html", table_live(tournament, number))

    return cached_fragment(slug, f"table:{number}", [cache.TABLES], build)


# --------------------------------------------------------------------------- a player's page

CHART_WIDTH = 600
CHART_HEIGHT = 220
CHART_PAD = 44
CHART_POINTS = 400


def worth_series(engine: rules.Game, player: str) -> list[tuple[float, int]]:
    """(game seconds, net worth) after each event of the record, replayed with the engine."""
    replay = _replay_game(engine)
    points: list[tuple[float, int]] = []
    for event in engine.events:
        try:
            replay.apply(event)
        except rules.RuleViolation:
            break
        state = replay.state
        if not state.started:
            continue
        game_time = state.game_time(_parse_at(event.get("at")))
        seconds = game_time.total_seconds() if game_time is not None else (
            points[-1][0] if points else 0.0)
        points.append((max(0.0, seconds), rules.net_worth(state, player).total))
    return points


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
    row = (StandingRow.objects.filter(tournament=tournament, scope=Scope.PUBLIC,
                                      player_id=player_id).first())
    rounds = dict(tournament.rounds.values_list("number", "status"))
    hold = not tournament.results_public_immediately
    games_info = selectors.player_games(tournament, player_id)
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
            entry["place"] = None
            entry["confirmed"] = False
        if game is not None and game.started_at is not None and key in game.players:
            engine = engine_cache.engine_for(game)
            series = derived(
                cache.key(tournament.slug, f"worth:{game.pk}:{game.event_count}:{key}"),
                lambda engine=engine: worth_series(engine, key),
            )
            limit = engine.ruleset.time_limit_minutes
            entry["chart"] = chart(series, span=limit * 60 if limit else 0)
            entry["live"] = game.status != Game.Status.FINISHED
        out.append(entry)
    name = player.public_name
    return {"tournament": tournament, "player": {"id": player.pk, "name": name,
            "club": club_label(name, player.club.label if player.club else ""),
            "dropped_out": player.dropped_out},
            "row": row, "games": out, "held": hold}


def player_fragment(slug: str, player_id: int) -> tuple[bytes, str]:
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("scoring/_player.html", player_page(tournament, player_id))

    return cached_fragment(slug, f"player:{player_id}", [cache.STANDINGS, cache.TABLES], build)


# --------------------------------------------------------------------------- the projector


def _pages(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def screen_standings_fragment(slug: str) -> tuple[bytes, str]:
    def build() -> str:
        tournament = public_tournament(slug)
        data = leaderboard(tournament, limit=SCREEN_STANDINGS)
        data["colspan"] = 3 + len(data["columns"])
        data["pages"] = [
            {"lines": page, "first": i * SCREEN_ROWS + 1,
             "last": i * SCREEN_ROWS + len(page)}
            for i, page in enumerate(_pages(data["lines"], SCREEN_ROWS))
        ]
        return render_to_string("scoring/_screen_standings.html", data)

    return cached_fragment(slug, "screen-standings", [cache.STANDINGS], build)


def screen_tables_fragment(slug: str) -> tuple[bytes, str]:
    def build() -> str:
        tournament = public_tournament(slug)
        data = overview(tournament)
        data["pages"] = _pages(data["tables"], SCREEN_TABLES)
        return render_to_string("scoring/_screen_tables.html", data)

    return cached_fragment(slug, "screen-tables", [cache.TABLES], build)
