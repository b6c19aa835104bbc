"""Reads for the public pages and the public API: the tables of the current round, a
player's games. A fixed number of queries; only public names, never private data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch

from referee import glance
from referee import selectors as referee_selectors
from referee.models import Game, GameResult, Placement
from scoring import cache
from tournament import selectors as tournament_selectors
from tournament.models import (
    Round,
    Seat,
    Table,
    Tournament,
)

#: The public states in which the clock runs (the pages count it on in the browser)…
RUNNING_STATES = frozenset({"running", "auction", "final_round"})
#: …and in which a game is being played: only then does a player's position during play (in
#: jail) mean anything; once it has ended, nothing of it shows.
IN_PLAY = RUNNING_STATES | {"paused"}


def in_play(state: str) -> bool:
    """Whether a game in public ``state`` (:func:`public_state`) is being played."""
    return state in IN_PLAY


def public_state(game: Game | None, result: GameResult | None) -> str:
    """not_started / running / paused / auction / final_round / ended / confirmed / disputed
    (``referee.selectors.PUBLIC_WORDS``: the public pages say less than the desk)."""
    return referee_selectors.public_word(referee_selectors.table_state(game, result))


def table_overview(tournament: Tournament, *,
                   numbers: Sequence[int] | None = None) -> dict[str, Any]:
    """Every table of the current public round (or the ``numbers`` asked for): clock, state,
    provisional leader (public names; no leader or net worth while results are held)."""
    current = tournament_selectors.public_round(tournament)
    if current is None:
        return {"round": None, "tables": []}
    current.tournament = tournament
    held = tournament_selectors.results_held(current)
    seats = Seat.objects.select_related("player__club").order_by("position")
    tables = (
        Table.objects.filter(round=current)
        .select_related("game", "game__result")
        # the results' lines: one query, and none while no table has a result
        .prefetch_related(Prefetch("seats", queryset=seats), "game__result__placements")
        .order_by("number")
    )
    if numbers is not None:
        tables = tables.filter(number__in=list(numbers))
    out = []
    for table in tables:
        game = getattr(table, "game", None)
        names = {str(seat.player_id): seat.player.public_name for seat in table.seats.all()}
        out.append(table_card(table, game, names, held=held))
    return {"round": {"number": current.number, "kind": current.kind,
                      "status": current.status, "key": round_key(current)}, "tables": out}


def round_key(round_: Round) -> str:
    """Changes when the round's seating or status changes, or a player's name, club or consent
    (every card is then new: a withdrawn consent shows at once)."""
    names = cache.generation(round_.tournament.slug, cache.PLAYERS)
    return f"{round_.pk}.{round_.status}.{round_.version}.{names}"


def card_version(seen: glance.Glance, *, result: str | None) -> str:
    """What a table's card on the overview shows, in a few characters: the game's glance
    (state, clock base, leader, bankruptcies) and its result (``referee.selectors.result_token``:
    its state and when its figures were set). Not every payment: the overview must not change
    with every event."""
    status, started, paused, paused_seconds, auction_done, leader, bankrupt, unowned = seen
    flags = (("s" if started else "") + ("p" if paused else "") + ("a" if auction_done else "")
             + ("u" if unowned else ""))
    return (f"{(status or '-')[:2]}{flags}{result or ''}.{paused_seconds}"
            f".{leader or ''}.{'-'.join(bankrupt)}")


def table_versions(tournament: Tournament) -> dict[str, Any]:
    """The current round's key and every table's card version: one query (the live pages
    poll this tiny document and fetch only the cards that changed)."""
    current = tournament_selectors.public_round(tournament)
    if current is None:
        return {"r": None, "t": {}}
    current.tournament = tournament
    held = tournament_selectors.results_held(current)
    rows = (Table.objects.filter(round=current).order_by("number")
            .values_list("number", "game__status", "game__started_at", "game__paused_at",
                         "game__paused_seconds", "game__auction_stop_done",
                         "game__result__status", "game__result__counted_at", "game__summary"))
    versions = {}
    for (number, status, started, paused_at, paused_s, auction_done, result, counted_at,
         summary) in rows:
        versions[str(number)] = card_version(glance.glance(
            status=status, started=started is not None, paused=paused_at is not None,
            paused_seconds=paused_s, auction_done=bool(auction_done),
            summary=_shown(summary or {}, held=held)),
            result=referee_selectors.result_token(result, counted_at))
    return {"r": round_key(current), "t": versions}


def _shown(summary: dict[str, Any], *, held: bool) -> dict[str, Any]:
    """A game's summary as the public may see it: no leader or net worth while held (the
    card's version would otherwise give the leader away)."""
    if not held:
        return summary
    return {key: value for key, value in summary.items() if key not in ("leader", "net_worth")}


def table_card(
    table: Table, game: Game | None, names: dict[str, str], *, held: bool = False
) -> dict[str, Any]:
    """A table's card; while results are held, without the leader and net worth; before the
    game starts, without a leader (all start equal: the first seat would read as leading)
    unless a result (a paper sheet's) names its winner.
    The leader, the net worth and the bankruptcies are the game's figures of record (a
    result's lines once there is one: ``referee.selectors.figures_of_record``); the version
    follows the summary's glance and the result's token, both of one query (``table_versions``).
    """
    result = referee_selectors.result_of(game)
    summary = _shown((game.summary if game else None) or {}, held=held)
    figures = referee_selectors.figures_of_record(game, result)
    # a result has a leader (its winner) even for a game the system never saw start (a paper
    # sheet entered for it); before that, all start equal
    leader = (None if held or not (game and (game.started_at or result is not None))
              else figures["leader"])
    worth = {} if held else figures["net_worth"]
    return {
        "id": table.pk,
        "number": table.number,
        "version": card_version(glance.glance(
            status=game.status if game else None, started=bool(game and game.started_at),
            paused=bool(game and game.paused_at),
            paused_seconds=game.paused_seconds if game else 0,
            auction_done=bool(game and game.auction_stop_done), summary=summary),
            result=referee_selectors.result_token(result.status if result else None,
                                                  result.counted_at if result else None)),
        "state": public_state(game, result),
        "status": game.status if game else "setup",
        "end_reason": (game.end_reason or None) if game else None,
        "started_at": game.started_at.isoformat() if game and game.started_at else None,
        "paused": bool(game and game.paused_at),
        "game_seconds": game.game_seconds() if game else None,
        "auction_stop_done": bool(game and game.auction_stop_done),
        "leader": names.get(leader) if leader else None,
        "leader_net_worth": worth.get(leader) if leader else None,
        "players": [
            {"name": names[key], "net_worth": worth.get(key),
             "bankrupt": key in figures["bankrupt"]}
            for key in (game.players if game else names)
            if key in names
        ],
        "result": result.status if result else None,
        "from_paper": bool(result and result.from_paper),
    }


def player_games(tournament: Tournament, player_id: int) -> list[dict[str, Any]]:
    """A player's games: round, table, place, net worth (confirmed or marked provisional)."""
    seats = (
        Seat.objects.filter(round__tournament=tournament, player_id=player_id)
        .select_related("round", "table__game__result")
        .order_by("round__number")
    )
    games = [(seat, getattr(seat.table, "game", None)) for seat in seats]
    results = [referee_selectors.result_of(game) for _, game in games]
    # The player's places in one query, not one per seat.
    placements = {
        placement.result_id: placement
        for placement in Placement.objects.filter(
            player_id=player_id, result_id__in=[result.pk for result in results if result]
        )
    } if any(results) else {}
    out = []
    for (seat, game), result in zip(games, results, strict=True):
        placement = placements.get(result.pk) if result is not None else None
        out.append(
            {
                "round": seat.round.number,
                "final": seat.round.kind == Round.Kind.FINAL,
                "table": seat.table.number,
                "table_id": seat.table_id,
                "place": placement.place if placement else None,
                "net_worth": placement.net_worth if placement
                else ((game.summary or {}).get("net_worth", {}).get(str(player_id)) if game else None),
                "confirmed": bool(result and result.status == GameResult.Status.CONFIRMED),
            }
        )
    return out
