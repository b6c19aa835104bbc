"""Reads of a table's game for the console, the API and the public pages.

One selector builds the whole picture from the engine's state plus two small queries (the game
row with its table, and the seated players), whatever the number of events.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from config.prepared import PreparedRows
from referee import engine_cache, rules
from referee.models import Game, GameResult
from referee.privacy import public_event, public_events
from referee.services import UNREAD, game_from_seating
from tournament import selectors as tournament_selectors
from tournament.models import Player, Round, Table
from tournament.names import account_name
from tournament.selectors import results_held


def table_game(table: Table, *, with_result: bool = False) -> Game:
    """The table's game, or the unstarted one its seating would give (not saved: a read never
    creates a row). The game keeps the caller's ``table`` (read with its round and tournament,
    so ``game_state`` reads neither again); ``with_result``: the result joined in the same
    query (:func:`result_of` then reads nothing)."""
    games = Game.objects.filter(table=table)
    if with_result:
        games = games.select_related("result")
    game = games.first()
    if game is not None:
        game.table = table
        return game
    return game_from_seating(table=table)


def result_of(game: Game | None) -> GameResult | None:
    """The game's result, or None (no game, or nothing counted yet); no query when the result
    was selected with the game (``select_related("game__result")``)."""
    if game is None or game.pk is None:
        return None
    try:
        return game.result
    except GameResult.DoesNotExist:
        return None


def figures_of_record(game: Game | None, result: GameResult | None) -> dict[str, Any]:
    """A game's figures of record, what every page shows of its places, net worth and leader:
    the result's lines once there is one (the console's count, the paper sheet or the
    head referee's amendment: the placements as stored), else the live replay's figures (the
    game's summary, an ended but uncounted game's included). Keys are the game's player keys;
    ``places`` is empty without a result, ``leader`` the one player ahead of all others (with
    a result, the only one in first place). No query when the result's placements were
    prefetched (``prefetch_related("placements")`` or ``game__result__placements``)."""
    summary = (game.summary if game is not None else None) or {}
    if result is None:
        return {"net_worth": dict(summary.get("net_worth", {})), "places": {},
                "leader": summary.get("leader"), "bankrupt": list(summary.get("bankrupt", [])),
                "unowned": summary.get("unowned", 0), "of_result": False}
    placements = list(result.placements.all())
    first = [p for p in placements if p.place == 1 and not p.bankrupt]
    gone = sorted((p for p in placements if p.bankrupt), key=lambda p: -p.place)
    return {
        # a paper sheet gives no net worth for a bankrupt player (the console's count does)
        "net_worth": {str(p.player_id): None if p.bankrupt and result.from_paper
                      else p.net_worth for p in placements},
        "places": {str(p.player_id): p.place for p in placements},
        "leader": str(first[0].player_id) if len(first) == 1 else None,
        "bankrupt": [str(p.player_id) for p in gone],  # first to go first
        "unowned": summary.get("unowned", 0), "of_result": True,
    }


def result_token(status: str | None, counted_at: dt.datetime | None) -> str:
    """A result in a few characters for a card's version: its state and when its figures were
    last set (counted, entered from paper, amended), so an amendment makes a new card."""
    if status is None:
        return ""
    stamp = f"{int(counted_at.timestamp() * 1000):x}" if counted_at is not None else ""
    return f"{status[:4]}{stamp}"


def table_state(game: Game | None, result: GameResult | None) -> str:
    """Where a table's game stands, in one word (the desk and the public pages both read it):
    not_started, running, paused, auction (auction stop declared, deeds left to auction),
    auction_stop (declared, nothing left), final_round, ended, counted, confirmed, disputed.
    A pause wins over the final round: the clock is stopped either way."""
    if result is not None and game is not None:  # also a paper result of a never-started game
        return {
            GameResult.Status.CONFIRMED: "confirmed",
            GameResult.Status.DISPUTED: "disputed",
        }.get(result.status, "counted")
    if game is None or game.started_at is None:
        return "not_started"
    if game.status == Game.Status.FINISHED:
        return "ended"
    if game.paused_at is not None:
        return "paused"
    if game.status == Game.Status.FINAL_ROUND:
        return "final_round"
    if game.auction_stop_done:
        return "auction" if (game.summary or {}).get("unowned") else "auction_stop"
    return "running"


#: A table's state in words: one name per state for every page (the public pages, the hall
#: screen, the round desk, "My tables"). The public pages say less than the staff: they fold
#: the staff's finer words into theirs (a counted result still reads "ended" until it is
#: confirmed, the auction stop shows only while deeds are left to auction).
PUBLIC_WORDS = {"counted": "ended", "auction_stop": "running"}
STATE_LABELS = {  # the public words, in the order of a game
    "not_started": gettext_lazy("Not started"),
    "running": gettext_lazy("Running"),
    "paused": gettext_lazy("Paused"),
    "auction": gettext_lazy("Auction stop: auctions"),
    "final_round": gettext_lazy("Last round of turns"),
    "ended": gettext_lazy("Ended, awaiting confirmation"),
    "confirmed": gettext_lazy("Result confirmed"),
    "disputed": gettext_lazy("Result disputed"),
}
#: What the staff read besides a state's public name (never another name for it).
STAFF_DETAILS = {
    "auction_stop": gettext_lazy("auction stop done"),
    "ended": gettext_lazy("count still due"),
    "counted": gettext_lazy("result counted"),
}
STAFF_ORDER = ("not_started", "running", "auction_stop", "paused", "auction", "final_round",
               "ended", "counted", "confirmed", "disputed")


def public_word(word: str) -> str:
    """The public pages' word for a state word of :func:`table_state`."""
    return PUBLIC_WORDS.get(word, word)


def staff_state_label(word: str) -> Any:
    """The staff's words for a state: its public name, and what they see besides
    ("Running · auction stop done")."""
    name = STATE_LABELS[public_word(word)]
    detail = STAFF_DETAILS.get(word)
    return format_lazy("{} · {}", name, detail) if detail else name


#: The staff's words for every state (the round desk, a banker's "My tables"), in order.
STAFF_STATE_LABELS = {word: staff_state_label(word) for word in STAFF_ORDER}


def my_tables(user) -> list[tuple[Table, str, bool]]:
    """The tables the account banks as (table, state in words, current): the rounds still on
    (not closed) first, the newest round first, each with where its game stands."""
    tables = list(tournament_selectors.tables_banked_by(user).select_related(
        "game__result"))
    out = []
    for table in tables:
        current = table.round.status != Round.Status.COMPLETE
        game = getattr(table, "game", None) if _has_game(table) else None
        state = table_state(game, result_of(game))
        label = STAFF_STATE_LABELS.get(state, state) if current else gettext_lazy("Round closed")
        out.append((table, str(label), current))
    out.sort(key=lambda row: (not row[2], -row[0].round.tournament.date.toordinal(),
                              -row[0].round.number, row[0].number))
    return out


def _has_game(table: Table) -> bool:
    try:
        table.game  # noqa: B018 - selected with the table
    except Game.DoesNotExist:
        return False
    return True


def players_by_key(game: Game) -> dict[str, Player]:
    ids = [int(key) for key in game.players]
    players = Player.objects.filter(pk__in=ids).select_related("club")
    return {str(player.pk): player for player in players}


def player_names(game: Game) -> dict[str, str]:
    """The game's players' names by key (what the console shows of them: no club, no rows).

    Compiled once (``config.prepared``): building the query was nine tenths of its cost on
    every console post (issue 29)."""
    ids = [int(key) for key in game.players]
    if not ids:
        return {}  # as the ORM: an empty ``IN`` reads nothing
    return {str(pk): name for pk, name in _NAMES.all(*ids)}


_NAMES = PreparedRows(lambda *ids: Player.objects.filter(pk__in=ids).values_list("pk", "name"))


def _seconds(value: dt.timedelta | None) -> float | None:
    return None if value is None else value.total_seconds()


def clock(game: Game, engine: rules.Game, now: dt.datetime) -> dict[str, Any]:
    ruleset = engine.ruleset
    stop = ruleset.auction_stop_minute
    limit = ruleset.time_limit_minutes
    return {
        "server_now": now.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "paused": game.is_paused,
        "game_seconds": game.game_seconds(now),
        "auction_stop_seconds": stop * 60 if stop else None,
        "time_limit_seconds": limit * 60 if limit else None,
        "auction_stop_due": game.auction_stop_due.isoformat() if game.auction_stop_due else None,
        "time_up_due": game.time_up_due.isoformat() if game.time_up_due else None,
        "auction_stop_done": game.auction_stop_done,
        "time_limit_mode": str(ruleset.time_limit_mode),
        "extra_minutes": game.extra_minutes,
    }


def _deeds(state) -> list[dict[str, Any]]:
    """Every deed of the board: owner, mortgage, houses or hotel."""
    deeds = []
    for deed in state.board.deeds:
        level = state.level.get(deed.key, 0)
        hotel = level > state.rules.max_houses
        deeds.append(
            {
                "key": deed.key,
                "name": deed.name,
                "group": deed.group,
                "kind": deed.kind,
                "price": deed.price,
                "owner": state.owner.get(deed.key),
                "mortgaged": deed.key in state.mortgaged,
                "houses": 0 if hotel else level,
                "hotel": hotel,
            }
        )
    return deeds


def game_state(
    game: Game, *, public: bool, now: dt.datetime | None = None, feed: int = 12,
    result: dict[str, Any] | None | object = UNREAD,
) -> dict[str, Any]:
    """The table as the console (``public=False``) or a spectator (``public=True``) sees it.

    While the round's results are held (:func:`tournament.selectors.results_held`) a spectator
    sees the game but no net worth, cash, places, standings or counted amounts. ``result``:
    the result's summary when the caller read it already (a console post), else read here."""
    now = now or timezone.now()
    engine = engine_cache.engine_for(game)
    state = engine.state
    people = players_by_key(game)
    held = public and results_held(game.table.round)
    show_cash = (not public or state.ledger) and not held
    players = []
    for key in state.players:
        person = people.get(key)
        worth = rules.net_worth(state, key)
        entry = {
            "id": key,
            "name": (person.public_name if public else person.name) if person else key,
            "club": person.club.label if person and person.club else "",
            "bankrupt": key in state.bankrupt_set,
            "in_jail": key in state.in_jail,
            "net_worth": None if held else worth.total,
            "breakdown": None if held else worth.as_dict(),
            "deeds": [deed.key for deed in state.deeds_of(key)],
        }
        if show_cash:
            entry["cash"] = state.cash[key]
        players.append(entry)
    return {
        "game": game.pk,
        "table": game.table.number,
        "round": game.table.round.number,
        "ruleset": game.ruleset,
        "board": game.board,
        "ledger": state.ledger,
        "status": game.status,
        "end_reason": game.end_reason or None,
        "seq": game.event_count,
        "clock": clock(game, engine, now),
        "players": players,
        "deeds": _deeds(state),
        "bank": {"houses": state.houses_in_bank, "hotels": state.hotels_in_bank},
        "unowned": rules.unowned_deeds(state),
        "must_auction": sorted(state.must_auction),
        "standings": [] if held else [row.as_dict() for row in rules.standings(state)],
        "result": result_summary(game) if result is UNREAD else result,
        "results_held": held,
        "feed": recent_events(game, limit=feed, public=public, held=held),
    }


def result_summary(game: Game) -> dict[str, Any] | None:
    if game.pk is None:
        return None
    return summarize_result(GameResult.objects.filter(game=game).first())


def summarize_result(result: GameResult | None) -> dict[str, Any] | None:
    """A result as the state document shows it (``result_summary`` when it is read already)."""
    if result is None:
        return None
    return {
        "status": result.status,
        "final": result.status == GameResult.Status.CONFIRMED,
        "confirmed_at": result.confirmed_at.isoformat() if result.confirmed_at else None,
    }


def recent_events(
    game: Game, *, limit: int, public: bool = False, held: bool = False
) -> list[dict[str, Any]]:
    if game.pk is None:
        return []
    rows = game.events.order_by("-seq").values("seq", "type", "data", "recorded_at")[:limit]
    return [
        {"seq": row["seq"], "type": row["type"],
         "event": public_event(row["data"], held=held) if public else row["data"],
         "recorded_at": row["recorded_at"].isoformat()}
        for row in rows
    ]


def record(game: Game, *, public: bool = False) -> dict[str, Any]:
    """The game as a ``monopoly-game-record/1`` document (plus the project's optional fields);
    ``public``: its events through the one public projection (it still replays)."""
    data = engine_cache.envelope(game)
    events = (
        [] if game.pk is None
        # Exactly the row's events: the record is cached under its event count.
        else list(game.events.filter(seq__lt=game.event_count).order_by("seq")
                  .values_list("data", flat=True))
    )
    data["events"] = public_events(events) if public else events
    return data


def dispute_note_label(result: GameResult, banker_id: int | None) -> str:
    """Whose note a dispute carries: the table's banker's, the head referee's or a named
    organizer's (a head referee's dispute was shown as the banker's)."""
    from django.utils.translation import gettext as _

    from tournament import access

    author = result.disputed_by
    if author is None or author.pk == banker_id:
        return _("Banker's note")
    tournament_id = result.game.table.round.tournament_id
    if access.has_role(author, access.Role.HEAD_REFEREE, tournament_id):
        return _("Head referee's note")
    return _("Note by %(name)s") % {"name": account_name(author)}
