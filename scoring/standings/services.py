"""Writes of the stored standings: recompute them when their inputs changed.

Standings are recomputed only when their inputs changed (a signature of every counted result
and the scoring settings), so a repeated or late task changes nothing. Who asks for it:

* the one trigger, ``scoring.standings.trigger``: right after the commit of a changed result
  (its step ``on_result``, ``settings.RESULT_STEPS``), a closed round or a penalty
  (``standings_changed``); the worker's ``scoring.recompute_standings`` only if that fails;
* the periodic repair (``refresh_running_standings``) catches a lost message;
* a step that reads the standings at once (qualifiers, the winner, import) calls
  ``recompute_standings`` first: a no-op when nothing changed; the export is a GET, which
  never writes: it computes them in memory (``live_lines``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Container

from django.db import transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from referee.models import GameResult, Placement
from scoring import cache as standings_cache
from scoring.models import Scope, StandingRow, StandingsVersion
from scoring.standings.compute import (
    GameResultRow,
    PlayerLine,
    Settings,
    choose_finalists,
    compute_standings,
)
from tournament import incidents
from tournament.models import Player, Round, Seat, Tournament


def settings_for(tournament: Tournament) -> Settings:
    return Settings(
        format=tournament.format,
        placement_points=tuple(tournament.placement_points or ()),
        tie_breaks=tuple(tournament.tie_breaks or ()),
        final_decides=tournament.final_decides,
        finalists=tournament.finalists,
        lot_seed=tournament.lot_seed or 0,
    )


def result_rows(tournament: Tournament, *, complete_rounds_only: bool) -> list[GameResultRow]:
    """Every counted result of the tournament; unconfirmed ones are marked provisional."""
    placements = Placement.objects.filter(
        result__game__table__round__tournament=tournament
    ).values_list(
        "result__game__table__round__number",
        "result__game__table__round__kind",
        "result__game__table__round__status",
        "result__game__table__number",
        "player_id",
        "place",
        "net_worth",
        "bankrupt",
        "result__status",
    )
    rows = []
    for number, kind, status, table, player, place, worth, bankrupt, result_status in placements:
        if complete_rounds_only and status != Round.Status.COMPLETE:
            continue
        rows.append(
            GameResultRow(
                complete=status == Round.Status.COMPLETE,
                round=number,
                table=table,
                player=player,
                place=place,
                net_worth=worth,
                bankrupt=bankrupt,
                final=result_status == GameResult.Status.CONFIRMED,
                is_final_round=kind == Round.Kind.FINAL,
            )
        )
    return rows


def _signature(rows: list[GameResultRow], settings: Settings, players: list[int]) -> str:
    payload = json.dumps(
        [sorted((r.round, r.table, r.player, r.place, r.net_worth, r.bankrupt, r.final,
                 r.is_final_round) for r in rows), repr(settings), players],
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _ensure_lot_seed(tournament: Tournament) -> Tournament:
    """The lot is a seeded draw; the seed is recorded once so the draw can be repeated."""
    if tournament.lot_seed is None:
        Tournament.objects.filter(pk=tournament.pk, lot_seed__isnull=True).update(
            lot_seed=secrets.randbits(48)
        )
        tournament.refresh_from_db(fields=["lot_seed"])
    return tournament


#: What a row stores of its line: the figures, never the place (``StandingRow``).
STORED = ("points", "net_worth_sum", "best_net_worth", "table_wins", "games", "rounds",
          "final_place", "deducted", "tie_order", "tie_break")


def _row_values(line: PlayerLine) -> tuple:
    """The line's stored values, in the order of ``STORED``."""
    return (line.points, line.net_worth_sum, line.best_net_worth, line.table_wins, line.games,
            {str(k): v for k, v in sorted(line.rounds.items())}, line.final_place,
            line.deducted, line.tie_order, line.tie_break)


def _same_json(text: str, value: dict) -> bool:
    """Whether the stored JSON ``text`` holds ``value``: as this code wrote it (SQLite keeps
    the text), else decoded (PostgreSQL's jsonb orders the keys its own way). A thousand
    rows are compared per recompute; decoding each would cost more than the rest."""
    return text == json.dumps(value) or json.loads(text) == value


def _write_difference(tournament: Tournament, lines: dict[str, list[PlayerLine]]) -> int:
    """Store each scope's ``lines`` as its rows, writing only the rows whose figures changed
    (a confirmation changes a table's players and the ties they join or leave, not all
    1,000: the places are derived on read); how many rows were written. Both scopes at once:
    one read, one upsert of the changed and new rows (INSERT … ON CONFLICT DO UPDATE, which
    keeps their ids), one DELETE of rows of players gone. Django's ``bulk_update`` builds a
    CASE per column and row: 30× slower for many rows."""
    rounds = STORED.index("rounds")
    stored = {
        (scope, player): (pk, values) for pk, scope, player, *values in
        StandingRow.objects.filter(tournament=tournament, scope__in=list(lines))
        .annotate(rounds_text=Cast("rounds", TextField()))
        .values_list("pk", "scope", "player_id", *(
            "rounds_text" if name == "rounds" else name for name in STORED))
    }
    written = []
    for scope, scope_lines in lines.items():
        for line in scope_lines:
            values = _row_values(line)
            _pk, have = stored.pop((scope, line.player), (None, None))
            if (have is not None and have[:rounds] == list(values[:rounds])
                    and have[rounds + 1:] == list(values[rounds + 1:])
                    and _same_json(have[rounds], values[rounds])):
                continue
            written.append(StandingRow(tournament=tournament, scope=scope, player_id=line.player,
                                       **dict(zip(STORED, values, strict=True))))
    if stored:
        StandingRow.objects.filter(pk__in=[pk for pk, _values in stored.values()]).delete()
    if written:
        StandingRow.objects.bulk_create(
            written, batch_size=500, update_conflicts=True,
            unique_fields=["tournament", "scope", "player"], update_fields=list(STORED),
        )
    return len(written) + len(stored)


def _locked_versions(tournament: Tournament) -> dict[str, StandingsVersion]:
    """Both scopes' versions, locked in one read and in one order for every caller (two
    recomputes at once never deadlock); made the first time."""
    scopes = (Scope.LIVE, Scope.PUBLIC)
    versions = {
        version.scope: version for version in
        StandingsVersion.objects.select_for_update()
        .filter(tournament=tournament, scope__in=scopes).order_by("scope")
    }
    if len(versions) < len(scopes):
        for scope in scopes:
            versions[scope], _ = StandingsVersion.objects.select_for_update().get_or_create(
                tournament=tournament, scope=scope
            )
    return {scope: versions[scope] for scope in scopes}


def recompute_standings(*, tournament_id: int, tournament: Tournament | None = None) -> bool:
    """Recompute both scopes if their inputs changed; True when something was rewritten.

    Both scopes' versions are locked first (two recomputes at once — two results confirmed
    together — must not let the one that read first write last), then the inputs are read
    once: the held public scope is the same rows without the rounds that are not closed yet.
    Each distinct input is computed once, and only the rows whose figures changed are written.
    ``tournament``: its row when the caller read it already (a result change carries it).
    """
    if tournament is None or tournament.pk != tournament_id:
        tournament = Tournament.objects.get(pk=tournament_id)
    tournament = _ensure_lot_seed(tournament)
    settings = settings_for(tournament)
    lines: dict[str, list[PlayerLine]] = {}
    with transaction.atomic():
        versions = _locked_versions(tournament)
        players, deducted = incidents.players_and_deductions(tournament)
        everything = result_rows(tournament, complete_rounds_only=False)
        computed: dict[str, list[PlayerLine]] = {}
        signatures: dict[bool, str] = {}
        now = timezone.now()
        for scope, version in versions.items():
            hold = scope == Scope.PUBLIC and not tournament.results_public_immediately
            rows = [row for row in everything if row.complete] if hold else everything
            if hold not in signatures:  # the same inputs are hashed once
                # One hash of both: the column holds 64 characters (PostgreSQL enforces it).
                signatures[hold] = hashlib.sha256(
                    (_signature(rows, settings, players) + str(sorted(deducted.items())))
                    .encode()
                ).hexdigest()
            signature = signatures[hold]
            if version.signature == signature:
                continue
            if signature not in computed:
                computed[signature] = compute_standings(
                    players=players, results=rows, settings=settings, deductions=deducted
                )
            lines[scope] = computed[signature]
            version.signature = signature
            version.version += 1
            version.through_round = max((row.round for row in rows), default=0)
            version.computed_at = now
        if lines:
            _write_difference(tournament, lines)
            StandingsVersion.objects.bulk_update(
                [versions[scope] for scope in lines],
                ["signature", "version", "through_round", "computed_at"],
            )
    if lines:
        transaction.on_commit(lambda: standings_cache.invalidate(tournament.slug))
    return bool(lines)


def dropped_out(tournament: Tournament) -> set[int]:
    """The players who dropped out (never qualified for the final)."""
    return set(Player.objects.filter(tournament=tournament, dropped_out=True)
               .values_list("pk", flat=True))


def seated_final(tournament: Tournament) -> set[int]:
    """The players seated in the final (none before it is seated): the qualified ones."""
    return set(Seat.objects.filter(round__tournament=tournament, round__kind=Round.Kind.FINAL)
               .values_list("player_id", flat=True))


def live_lines(tournament: Tournament) -> list[PlayerLine]:
    """The live standings as :func:`recompute_standings` would store them, computed from the
    inputs without writing (a read that must be current: the export)."""
    players = list(
        Player.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True)
    )
    return compute_standings(
        players=players, results=result_rows(tournament, complete_rounds_only=False),
        settings=settings_for(tournament), deductions=incidents.deductions(tournament),
        out=dropped_out(tournament), seated_final=seated_final(tournament),
    )


def finalists(tournament: Tournament, *, kept: Container[int] = frozenset()) -> list[int]:
    """Who reaches the final, in the order they qualify: the one decision the round desk's
    list, the standings' "qualified" mark (until the final is seated: then its players) and
    the seating of the final follow (``compute.choose_finalists``: players who dropped out
    passed over, the format's rule applied), computed afresh from the preliminary rounds'
    confirmed results and their rounds' deductions, whatever the final's own results and
    deductions. ``kept``: players
    not passed over though they dropped out (``verify``: a finalist who left after the final
    was seated was chosen rightly)."""
    players, _all = incidents.players_and_deductions(tournament)
    rows = [row for row in result_rows(tournament, complete_rounds_only=False)
            if not row.is_final_round]
    # the deductions of the preliminary rounds (one recorded during the final is the final's)
    last = (Round.objects.filter(tournament=tournament, kind=Round.Kind.PRELIMINARY)
            .order_by("-number").values_list("number", flat=True).first())
    deducted = incidents.deductions(tournament, through_round=last) if last else _all
    if tournament.lot_seed is None:  # drawn by the first recompute since the caller read it
        tournament.refresh_from_db(fields=["lot_seed"])
    settings = settings_for(tournament)
    lines = compute_standings(players=players, results=rows, settings=settings,
                              deductions=deducted)
    out = {player for player in dropped_out(tournament) if player not in kept}
    return choose_finalists(lines, settings=settings, out=out)


def refresh_running_standings() -> int:
    """Recompute every running tournament whose results changed, and make sure the cache
    serves the stored version (an invalidation may have been lost with Redis); returns how
    many were recomputed."""
    recomputed = 0
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for pk, slug in running.values_list("pk", "slug"):
        recomputed += recompute_standings(tournament_id=pk)
        version = (
            StandingsVersion.objects.filter(tournament_id=pk, scope=Scope.PUBLIC)
            .values_list("version", flat=True)
            .first()
        )
        if version is not None:
            standings_cache.sync_version(slug, version)
    return recomputed
