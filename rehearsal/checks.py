"""The checks after the day (docs/rehearsal.md, "Checks"), one function a concern: records
replay to their results, standings follow from the records, no event lost or doubled, the
server's timers on time, no failure outside the fault windows, names escaped, hostile input
refused, and ``manage.py verify`` before and after an export round trip."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from .banker import Stats
from .client import Client
from .report import Report
from .watchers import SLUG

if TYPE_CHECKING:
    from referee.models import Game
    from scoring.standings.compute import GameResultRow
    from tournament.models import Tournament

    from .hostile import Findings


def check_records(*, report: Report, org: Client, games: list[Game]) -> list[GameResultRow]:
    """Every record, replayed by the rules engine, gives its stored and confirmed placements;
    the replayed placements are the results the standings are recomputed from."""
    from referee import rules
    from referee.models import GameResult
    from scoring.standings.compute import GameResultRow
    from tournament.models import Round

    rows: list[GameResultRow] = []
    replay_problems = []
    for game in games:
        answer = org.get(f"/api/v1/tables/{game.table_id}/record")
        replayed = rules.replay(answer.json())
        result = GameResult.objects.filter(game=game).first()
        stored = sorted((p.player_id, p.place, p.net_worth, p.bankrupt)
                        for p in result.placements.all()) if result else []
        fresh = sorted((int(s.player), s.place, s.net_worth, s.bankrupt)
                       for s in rules.standings(replayed.state))
        if (replayed.status != "finished" or stored != fresh
                or result.status != GameResult.Status.CONFIRMED):
            replay_problems.append(game.table_id)
        for s in rules.standings(replayed.state):
            rows.append(GameResultRow(
                round=game.table.round.number, table=game.table.number, player=int(s.player),
                place=s.place, net_worth=s.net_worth, bankrupt=s.bankrupt, final=True,
                is_final_round=game.table.round.kind == Round.Kind.FINAL))
    report.check("every record replays to its confirmed result", not replay_problems,
                 f"({len(games)} games; mismatches: {replay_problems or 'none'})")
    return rows


def check_standings(*, report: Report, base: str, tournament: Tournament,
                    rows: list[GameResultRow]) -> None:
    """Stored and public standings equal a recomputation from the replayed results."""
    from scoring.models import Scope
    from scoring.standings.compute import compute_standings
    from scoring.standings.selectors import placed_rows
    from scoring.standings.services import settings_for
    from tournament.models import Player

    players = list(Player.objects.filter(tournament=tournament).order_by("pk")
                   .values_list("pk", flat=True))
    expected = [(line.player, line.rank, line.points)
                for line in compute_standings(players=players, results=rows,
                                              settings=settings_for(tournament))]
    stored = [(row.player_id, row.rank, row.points)
              for row in placed_rows(tournament, scope=Scope.LIVE)]
    public = [(r["player"], r["place"], r["points"]) for r in
              Client(base).get(f"/api/v1/tournaments/{SLUG}/standings")
              .json()["standings"]]
    report.check("standings = independent recomputation from the records",
                 expected == stored == public,
                 f"({len(expected)} players; stored {'=' if expected == stored else '≠'}, "
                 f"public API {'=' if expected == public else '≠'})")


def check_events(*, report: Report, stats: Stats, games: list[Game]) -> None:
    """Seqs contiguous, no idempotency key twice, every acknowledged key at its seq, and every
    deliberate re-send answered as a replay."""
    from django.db.models import Count

    from referee.models import GameEvent

    gaps = []
    for game in games:
        seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
        if seqs != list(range(len(seqs))) or len(seqs) != game.event_count:
            gaps.append(game.table_id)
    doubled = (GameEvent.objects.exclude(idempotency_key="")
               .values("game", "idempotency_key").annotate(n=Count("id")).filter(n__gt=1)
               .count())
    lost = 0
    for table_id, acked in stats.acked.items():
        by_seq = dict(GameEvent.objects.filter(game__table_id=table_id)
                      .values_list("seq", "idempotency_key"))
        for key, seq in acked.items():
            if key.startswith("race-"):
                lost += seq not in by_seq
            elif by_seq.get(seq) != key:
                lost += 1
    total_events = GameEvent.objects.filter(game__in=games).count()
    report.check("no event lost or doubled", not gaps and not doubled and not lost,
                 f"({total_events} events; seq gaps {len(gaps)}, doubled keys {doubled}, "
                 f"acknowledged but missing {lost})")
    report.check("duplicate posts (same key) answered as replays",
                 stats.dup_sent == stats.dup_ok,
                 f"({stats.dup_ok}/{stats.dup_sent})")


def check_deadlines(*, report: Report, games: list[Game], sweep: float,
                    all_bankrupt: bool) -> tuple[int, int, float]:
    """The server's timers recorded every auction stop and time limit within one sweep
    interval; returns (auction stops, time limits, worst lateness) for the summary."""
    from referee.models import GameEvent

    late = []
    for event in GameEvent.objects.filter(game__in=games, type__in=("auction_stop", "time_up")):
        due = dt.datetime.fromisoformat(event.data["at"])
        late.append(((event.recorded_at - due).total_seconds(), event.type))
    stops = sum(1 for _, kind in late if kind == "auction_stop")
    timeups = sum(1 for _, kind in late if kind == "time_up")
    worst = max((s for s, _ in late), default=0.0)
    report.check("server timers: no deadline late by more than one sweep interval",
                 worst <= sweep + 1.0 and stops > 0
                 and (timeups > 0 or all_bankrupt),
                 f"({stops} auction stops, {timeups} time limits, worst {worst:.2f} s, "
                 f"sweep {sweep:.0f} s)")
    return stops, timeups, worst


def check_requests(*, report: Report, stats: Stats,
                   spectator_errors: list[tuple[float, int, str]]) -> None:
    """No 5xx or dropped request outside the fault windows, and no banker failed."""
    outside = [e for e in stats.errors_5xx + spectator_errors
               if not any(a <= e[0] <= b for a, b in report.windows)]
    report.check("no 5xx or dropped requests outside fault windows", not outside,
                 f"({len(outside)} outside, "
                 f"{len(stats.errors_5xx) + len(spectator_errors)} in windows "
                 f"all retried)" if not outside else f"{outside[:5]}")
    report.check("bankers ran without failures", not stats.failures,
                 "; ".join(stats.failures[:5]))


def check_escaped(*, report: Report, base: str) -> None:
    """The player named with a script shows as text on every public HTML page."""
    anon = Client(base)
    # HTML only: the JSON API carries names as data (application/json), escaped by its reader.
    pages = [f"/t/{SLUG}/", f"/t/{SLUG}/tables/", f"/t/{SLUG}/live/standings",
             f"/t/{SLUG}/screen"]
    bad = [p for p in pages if "<script>alert" in anon.get(p).text]
    report.check("script-laden names escaped on public pages", not bad, f"({bad or 'none'})")


def check_hostile(*, report: Report, base: str, findings: Findings | None) -> None:
    """The hostile-input probes made while the bankers played, and those after the day."""
    from . import hostile

    if findings is None:
        report.check("hostile input: the probes ran", False, "(not run)")
    after = hostile.probe_after(base, slug=SLUG)
    for probe in [*(findings.probes if findings else []), *after.probes]:
        report.check(f"hostile input: {probe.name}", probe.ok, probe.detail)


def check_verify(*, report: Report, tournament: Tournament) -> None:
    """``manage.py verify`` at the end of the day, and again on the tournament rebuilt from
    its own export: every stored figure follows from the records and the rulings."""
    from django.utils import translation

    from exchange import services as exchange
    from scoring.verify import verify_tournament

    with translation.override("en"):
        found = verify_tournament(tournament=tournament)
        report.check("manage.py verify: every stored figure follows from the records",
                     found.ok, f"({found.games} games, {found.results} results, "
                     f"{found.rows} standings rows)" if found.ok else
                     "; ".join(map(str, found.differences[:5])))
        try:
            copy = exchange.import_tournament(exchange.export_json(tournament),
                                              slug=f"{SLUG}-copy")
        except Exception as error:  # noqa: BLE001 - the check reports any refusal
            report.check("export → import round trip, then verify", False, f"({error})")
            return
        from scoring.standings.services import recompute_standings

        recompute_standings(tournament_id=copy.pk)
        again = verify_tournament(tournament=copy)
        report.check("export → import round trip, then verify", again.ok,
                     f"({again.games} games, {again.results} results)" if again.ok else
                     "; ".join(map(str, again.differences[:5])))
