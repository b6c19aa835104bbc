"""Reads for the public leaderboard, the projector and the API: a fixed number of queries,
whatever the number of players or tables; only public names, never private data.

The rows store each player's figures; the order, the place (with its tie), the key that
decided it and the qualification are derived here on read (``compute.place_lines``, the
computation's own placing), so a result does not rewrite every row below it."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from typing import Any, TypeVar

from django.db.models import Exists, F, OuterRef

from scoring.models import Scope, StandingRow, StandingsVersion
from scoring.standings.compute import PlayerLine, Settings, place_lines
from scoring.standings.services import STORED, finalists, settings_for
from tournament import names
from tournament.models import Player, Round, Seat, Tournament

T = TypeVar("T")


def takes_part(player: Player, *, seated: bool) -> bool:
    """A player of the day, listed before they have a result: not dropped out, and seated in a
    round or checked in and not a standby (whom the seating would seat).

    A registered player who never checked in, an alternate who never stepped in, takes no part:
    no line (the stored rows keep everybody, so the ranking and ``verify`` are untouched — a
    line without a result has no place)."""
    return not player.dropped_out and (
        seated or (player.checked_in and player.alternate_rank is None)
    )


def _seated(tournament: Tournament) -> Exists:
    return Exists(Seat.objects.filter(round__tournament=tournament, player=OuterRef("pk")))


def taking_part(tournament: Tournament) -> set[int]:
    """The ids of the players who :func:`takes_part` (one query)."""
    players = Player.objects.filter(tournament=tournament).annotate(seated=_seated(tournament))
    return {player.pk for player in players.only("pk", "dropped_out", "checked_in",
                                                 "alternate_rank")
            if takes_part(player, seated=player.seated)}


def listed(
    entries: Iterable[T], *, taking_part: Container[int], player: Callable[[T], int],
    played: Callable[[T], bool], ranked: Callable[[T], bool], name: Callable[[T], str],
) -> list[T]:
    """The lines a standings list shows, in its order: every player with a result (a player
    who dropped out too), else only those ``taking_part``; the ranked in their order, then
    those without a place yet by name (DIN 5007), not by when they were registered.
    The one rule of the page, the API, the PDF and the export."""
    shown = [entry for entry in entries if played(entry) or player(entry) in taking_part]
    return [entry for entry in shown if ranked(entry)] + sorted(
        (entry for entry in shown if not ranked(entry)),
        key=lambda entry: names.sort_key(name(entry)),
    )

#: The stored values the placing reads (``rounds`` is for display only).
PLACING = tuple(name for name in STORED if name != "rounds")


def _settings(tournament: Tournament) -> Settings:
    """The scoring settings the rows were computed with. The lot's seed is drawn by the first
    recompute: a tournament read before it is read again (the lot orders tied rows)."""
    if tournament.lot_seed is None:
        tournament.refresh_from_db(fields=["lot_seed"])
    return settings_for(tournament)


def _in_final(tournament: Tournament) -> Exists:
    return Exists(Seat.objects.filter(round__tournament=tournament, round__kind=Round.Kind.FINAL,
                                      player=OuterRef("player_id")))


def _with_out(rows, tournament: Tournament):
    """Stored rows with ``player_out`` (whether the player dropped out) and ``in_final``
    (seated in the final): what the qualification reads besides the figures."""
    return rows.annotate(player_out=F("player__dropped_out"), in_final=_in_final(tournament))


def placed(tournament: Tournament, rows: Iterable[StandingRow]) -> list[StandingRow]:
    """``rows`` (one scope's, annotated by ``_with_out``) in the standings' order, each given
    its ``rank`` (0: no confirmed result yet), ``decided_by`` and ``qualified`` (the players
    of a seated final, else the rule of ``compute.choose_finalists``, which reads each line's
    rounds in the table-winners format)."""
    by_player = {row.player_id: row for row in rows}
    if not by_player:
        return []
    lines = place_lines(
        [PlayerLine(player, rounds=row.rounds, **{name: getattr(row, name) for name in PLACING})
         for player, row in by_player.items()],
        settings=_settings(tournament),
        out={player for player, row in by_player.items() if row.player_out},
        seated_final={player for player, row in by_player.items() if row.in_final},
    )
    ordered = []
    for line in lines:
        row = by_player[line.player]
        row.rank, row.decided_by, row.qualified = line.rank, line.decided_by, line.qualified
        ordered.append(row)
    return ordered


def placed_rows(tournament: Tournament, *, scope: str, related: tuple[str, ...] = ()
                ) -> list[StandingRow]:
    """A scope's stored rows, placed (see ``placed``); ``related``: for ``select_related``.
    One query."""
    rows = _with_out(StandingRow.objects.filter(tournament=tournament, scope=scope), tournament)
    return placed(tournament, rows.select_related(*related) if related else rows)


def place_of(tournament: Tournament, *, player_id: int, scope: str = Scope.PUBLIC
             ) -> PlayerLine | None:
    """One player's line with its place (``rank``, 0: not played yet), derived from the
    scope's figures in one query; None when the standings do not list the player."""
    values = list(StandingRow.objects.filter(tournament=tournament, scope=scope)
                  .annotate(in_final=_in_final(tournament))
                  .values_list("player_id", "player__dropped_out", "in_final", *PLACING))
    if not values:
        return None
    lines = place_lines([PlayerLine(player, **dict(zip(PLACING, rest, strict=True)))
                         for player, _out, _final, *rest in values],
                        settings=_settings(tournament),
                        out={player for player, out, *_rest in values if out},
                        seated_final={player for player, _out, final, *_rest in values if final})
    return next((line for line in lines if line.player == player_id), None)


def qualifiers(tournament: Tournament) -> list[StandingRow]:
    """Who the final is seated with, in their order (with player and club): the live
    standings' rows of ``services.finalists``, the one rule the seating of the final follows."""
    rows = {row.player_id: row for row in
            placed_rows(tournament, scope=Scope.LIVE, related=("player__club",))}
    return [rows[player] for player in finalists(tournament) if player in rows]


def standings(tournament: Tournament, *, scope: str = Scope.PUBLIC) -> list[dict[str, Any]]:
    """One row per player, best first, with public name, club and per-round figures."""
    rows = placed(tournament, _with_out(StandingRow.objects.filter(tournament=tournament,
                                                                   scope=scope), tournament)
                  .select_related("player__club")
                  .annotate(seated=Exists(Seat.objects.filter(round__tournament=tournament,
                                                              player=OuterRef("player_id")))))
    # rank 0: no confirmed result yet ("not played yet", never a place drawn by lot).
    lines = [
        {
            "place": row.rank or None,
            "player": row.player_id,
            "name": row.player.public_name,
            "club": row.player.club.label if row.player.club else "",
            "points": row.points,
            "deducted": row.deducted,
            "net_worth_sum": row.net_worth_sum,
            "best_net_worth": row.best_net_worth,
            "table_wins": row.table_wins,
            "games": row.games,
            "rounds": row.rounds,
            "decided_by": row.decided_by,
            "qualified": row.qualified,
            "final_place": row.final_place,
            "dropped_out": row.player.dropped_out,
        }
        for row in rows
    ]
    return listed(
        lines, player=lambda line: line["player"],
        taking_part={row.player_id for row in rows if takes_part(row.player, seated=row.seated)},
        played=lambda line: bool(line["rounds"]), ranked=lambda line: bool(line["place"]),
        name=lambda line: line["name"],
    )


def standings_meta(tournament: Tournament, *, scope: str = Scope.PUBLIC) -> dict[str, Any]:
    version = StandingsVersion.objects.filter(tournament=tournament, scope=scope).first()
    return {
        "version": version.version if version else 0,
        "through_round": version.through_round if version else 0,
        "computed_at": version.computed_at.isoformat() if version else None,
        "held": scope == Scope.PUBLIC and not tournament.results_public_immediately,
    }
