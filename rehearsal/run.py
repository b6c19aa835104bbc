"""The dress rehearsal: ``python -m rehearsal.run [--players 120] [--rounds 3] [--final] [--short]``.

Starts the real stack (fresh PostgreSQL database, a private Redis, gunicorn, Celery worker and
beat), runs a whole championship through the organizer and console APIs with simulated bankers
and spectators, injects faults, then checks every record, the standings and the event logs.
Exit status 0 only when every check passed. See docs/rehearsal.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import random
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field

from .banker import Banker, Plan, Stats
from .client import Client
from .stack import Stack
from .watchers import SLUG, Spectators, Watcher

ORGANIZER = ("organizer", "rehearsal-organizer-pw")
XSS_NAME = '<script>alert("xss")</script> Mallory'


def fresh_connection() -> None:
    """This thread's database connection may have been terminated by a fault: start anew."""
    from django.db import connection

    connection.close()


def percentile(ordered: list[float], p: float) -> float:
    """Nearest rank: never below the median, even for two samples."""
    if not ordered:
        return float("nan")
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class Report:
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    faults: list[tuple[str, bool, str]] = field(default_factory=list)
    windows: list[tuple[float, float]] = field(default_factory=list)  # fault time windows

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append((name, bool(ok), detail))
        print(f"  [{'ok' if ok else 'FAIL'}] {name} {detail}", flush=True)
        return bool(ok)

    def fault(self, name: str, ok: bool, detail: str = "") -> None:
        self.faults.append((name, bool(ok), detail))
        print(f"  fault {name}: {'survived' if ok else 'NOT survived'} {detail}", flush=True)


class Rehearsal:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.stack = Stack(db=args.db, workers=args.workers, sweep=args.sweep)
        self.stats = Stats()
        self.report = Report()
        self.rng = random.Random(args.seed)
        self.banker_seq = 0

    # ------------------------------------------------------------------ set-up
    def setup(self) -> None:
        t0 = time.monotonic()
        print(f"stack: fresh database {self.stack.db}, logs in {self.stack.dir}", flush=True)
        self.stack.start()
        self.stack.django_setup()
        from django.contrib.auth.models import User

        User.objects.create_user(ORGANIZER[0], password=ORGANIZER[1], is_staff=True)
        self.org = Client(self.stack.base)
        self.org.login(*ORGANIZER)
        self.rival = Client(self.stack.base)
        self.rival.login(*ORGANIZER)
        args = self.args
        answer = self.org.post("/api/v1/tournaments/", {
            "name": "Generalprobe", "slug": SLUG, "date": dt.date.today().isoformat(),
            "ruleset": "karlsruhe", "table_size": 6, "preliminary_rounds": args.rounds,
            "finalists": 6, "time_limit_minutes": args.time_limit,
            "auction_stop_minutes": args.auction_stop, "results_public_immediately": True,
        })
        assert answer.status == 201, f"create tournament: {answer.status} {answer.text[:500]}"
        assert self.org.post(f"/api/v1/tournaments/{SLUG}/transition/",
                             {"status": "registration"}).status == 200
        clubs = ["Schlossallee e.V.", "Parkstraße 04", "Bahnhof Süd", "Turmstraße", "Ohne"]
        lines = ["name;club;public name consent"]
        for i in range(args.players):
            name = XSS_NAME if i == 3 else f"Spieler{i:03d} Ümlaut-Test"
            lines.append(f"{name};{clubs[i % len(clubs)]};{'ja' if i % 4 else 'nein'}")
        csv = ("\n".join(lines) + "\n").encode()
        answer = self.org.upload(f"/api/v1/tournaments/{SLUG}/players/import/", "file",
                                 "players.csv", csv)
        assert answer.status == 201, f"CSV import: {answer.status} {answer.text[:500]}"
        players = self.org.get(f"/api/v1/tournaments/{SLUG}/players/").json()
        players = players["results"] if isinstance(players, dict) else players
        for player in players:
            answer = self.org.post(f"/api/v1/tournaments/{SLUG}/players/{player['id']}/check-in/")
            assert answer.status == 200, f"check-in: {answer.status} {answer.text[:300]}"
        assert self.org.post(f"/api/v1/tournaments/{SLUG}/transition/",
                             {"status": "running"}).status == 200
        print(f"set-up: {len(players)} players checked in, {time.monotonic() - t0:.1f} s",
              flush=True)

    def open_round(self, round_id: int | None = None) -> tuple[int, list[dict]]:
        org = self.org
        if round_id is None:
            answer = org.post("/api/v1/rounds/", {"tournament": SLUG})
            assert answer.status == 201, f"create round: {answer.status} {answer.text[:300]}"
            round_id = answer.json()["id"]
            answer = org.post(f"/api/v1/rounds/{round_id}/seat/", {"seconds": 1})
            assert answer.status == 200, f"seat: {answer.status} {answer.text[:300]}"
        for step in ("lock", "start"):
            answer = org.post(f"/api/v1/rounds/{round_id}/{step}/", {})
            assert answer.status == 200, f"{step}: {answer.status} {answer.text[:300]}"
        tables = org.get(f"/api/v1/tables/?round={round_id}").json()
        for table in tables:
            answer = org.post(f"/api/v1/tables/{table['id']}/link/")
            assert answer.status == 201, f"link: {answer.status} {answer.text[:300]}"
            table["link"] = answer.json()["url"]
        return round_id, tables

    # ------------------------------------------------------------------ results
    def finish_table(self, banker: Banker) -> None:
        """Count on the console, a player types the code from the score sheet, confirm."""
        from referee import results
        from referee.models import Game, GameResult

        fresh_connection()
        game = Game.objects.get(table_id=banker.table_id)
        url = f"/banker/table/{banker.table_id}"
        via = "console"
        for _ in range(3):
            banker.client.post(f"{url}/count/", form={"seq": str(game.event_count)})
            if GameResult.objects.filter(game=game).exists():
                break
            game.refresh_from_db()
            time.sleep(0.5)
        else:
            via = "service"
            results.count_result(game_id=game.pk, author=None)
        banker.client.post(f"{url}/confirm/", form={"code": game.confirmation_code})
        result = GameResult.objects.get(game=game)
        if result.status != GameResult.Status.CONFIRMED:
            via = "service"
            results.confirm_result(game_id=game.pk, code=game.confirmation_code, by=None)
        confirmed = time.monotonic()
        with self.stats.lock:
            self.stats.counted_via[via] = self.stats.counted_via.get(via, 0) + 1
        # Leaderboard freshness: the watcher polls the public API like a hall screen does.
        self.watcher.expect(banker.table_id, {str(pid) for pid in game.players},
                            str(game.table.round.number), confirmed)

    # ------------------------------------------------------------------ one round
    def plan_for(self, index: int, count: int, final: bool) -> Plan:
        rng = self.rng
        limit = self.args.time_limit * 60
        stop = self.args.auction_stop * 60
        plan = Plan()
        share = 0.5 if not self.args.short else 0.7
        if final or self.args.all_bankrupt or index >= max(1, round(count * (1 - share))):
            plan.mode = "bankrupt"
            plan.end_after = rng.uniform(stop + 5, limit - 25)
            if self.args.all_bankrupt:
                plan.end_after = rng.uniform(stop + 3, stop + 10)
        if rng.random() < 0.3 and not final:
            plan.pause = (rng.uniform(15, stop - 10), rng.uniform(3, 6))
        return plan

    def play_round(self, number: int, round_id: int | None, tables: list[dict], *,
                   final: bool, faults: list[str]) -> None:
        t0 = time.monotonic()
        bankers = []
        for index, table in enumerate(tables):
            plan = self.plan_for(index, len(tables), final)
            if index == 0 and "offline" in faults:
                plan.offline, plan.pause, plan.mode = (8.0, self.args.offline), None, "bankrupt"
                plan.end_after = max(plan.end_after, 8 + self.args.offline + 25)
            if index == 1 and "rival" in faults:
                plan.rival_at = 12.0
            self.banker_seq += 1
            bankers.append(Banker(base=self.stack.base, table_id=table["id"], link=table["link"],
                                  plan=plan, stats=self.stats, seed=self.args.seed * 1000
                                  + self.banker_seq, finisher=self.finish_table,
                                  rival_client=self.rival))
        for banker in bankers:
            banker.start()
        print(f"round {number}: {len(tables)} tables playing"
              f"{' (faults: ' + ', '.join(faults) + ')' if faults else ''}", flush=True)
        injector = threading.Thread(target=self.inject, args=(faults, t0), daemon=True)
        injector.start()
        attacker = None
        if number == 1 and not final:  # the hostile-input step, while the bankers play
            attacker = threading.Thread(target=self.attack, args=(t0,), daemon=True)
            attacker.start()
        for banker in bankers:
            banker.join()
        injector.join()
        if attacker is not None:
            attacker.join()
        for table_id in self.watcher.wait_empty(60):
            self.stats.fail(f"table {table_id}: result not public within 60 s")
        from desk import rounds as scoring
        from tournament.models import Round

        fresh_connection()
        round_ = Round.objects.filter(tournament__slug=SLUG, number=number).get()
        scoring.close_round(round_=round_)
        print(f"round {number}: closed after {time.monotonic() - t0:.0f} s", flush=True)

    def attack(self, t0: float) -> None:
        """Issue 15's attacks against the running stack (``rehearsal.hostile``)."""
        from . import hostile

        self._sleep_until(t0 + 10)  # the tables are running and have events; no fault yet
        try:
            organizer = Client(self.stack.base)  # its own: the main thread keeps self.org
            organizer.login(*ORGANIZER)
            self.hostile = hostile.probe(self.stack.base, organizer, slug=SLUG)
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            self.hostile = hostile.Findings()
            self.hostile.add("hostile input: the probes ran", False, repr(error))

    #: When each server fault is due, seconds after the round started (the worker's 8 s
    #: before the auction stop: it is down across it).
    FAULT_AT = {"redis": 30.0, "database": 40.0, "worker": -8.0}

    def inject(self, faults: list[str], t0: float) -> None:
        """The server faults of ``faults`` at their moments. ``--one-after-another``: in the
        order of those moments, each only once the previous fault's window has closed, so that
        every window holds one fault alone (``check_windows_apart`` checks it)."""
        stop_at = self.args.auction_stop * 60
        due = {fault: (at if at >= 0 else stop_at + at) for fault, at in self.FAULT_AT.items()}
        apart = self.args.one_after_another
        if apart:
            faults = sorted((f for f in faults if f in due), key=due.__getitem__)
        free_from = t0  # monotonic: the previous fault's window has closed
        for fault in faults:
            if fault not in due:
                continue
            self._sleep_until(max(t0 + due[fault], free_from) if apart else t0 + due[fault])
            if fault == "worker":
                began = time.time()
                self.stack.kill_worker()
                time.sleep(10)  # across the auction stop
                self.stack.start_worker()
                self.report.windows.append((began, time.time() + 5))
                self.worker_window = (began, time.time())
                tail = 5.0
            elif fault == "redis":
                began = time.time()
                down = self.stack.restart_redis(down_seconds=2.0)
                self.report.windows.append((began, time.time() + 8))
                self.redis_window = (began, down)
                tail = 8.0
            elif fault == "database":
                began = time.time()
                killed = self.stack.terminate_db_connections()
                self.report.windows.append((began, time.time() + 5))
                self.db_window = (began, time.time() + 5)
                self.db_killed = killed
                tail = 5.0
            free_from = time.monotonic() + tail + 0.5

    def check_windows_apart(self) -> None:
        """``--one-after-another``: no two fault windows overlap, the worker is down across the
        auction stop, and the Redis window (began … began + down + 8 s, where no request may
        fail) ends before the database's begins."""
        windows = sorted(self.report.windows)
        overlapping = [(a, b) for a, b in zip(windows, windows[1:], strict=False)
                       if b[0] <= a[1]]
        ok = not overlapping
        detail = f"({len(windows)} windows"
        if hasattr(self, "redis_window") and hasattr(self, "db_window"):
            began, down = self.redis_window
            ok = ok and began + down + 8 < self.db_window[0]
        if hasattr(self, "worker_window"):
            from referee.models import GameEvent

            fresh_connection()
            down, up = self.worker_window
            dues = [dt.datetime.fromisoformat(data["at"]).timestamp() for data in
                    GameEvent.objects.filter(game__table__round__tournament__slug=SLUG,
                                             type="auction_stop").values_list("data", flat=True)]
            across = sum(1 for due in dues if down < due < up)
            ok = ok and across > 0
            detail += f"; auction stops due while the worker was down: {across} of {len(dues)}"
        self.report.check("faults one after another: no two fault windows overlap", ok,
                          detail + f"; overlapping: {overlapping or 'none'})")

    @staticmethod
    def _sleep_until(moment: float) -> None:
        time.sleep(max(0.0, moment - time.monotonic()))

    # ------------------------------------------------------------------ checks
    def verify(self, started: float) -> None:
        from django.db.models import Count

        from referee import rules
        from referee.models import Game, GameEvent, GameResult
        from scoring.models import Scope
        from scoring.standings.compute import GameResultRow, compute_standings
        from scoring.standings.selectors import placed_rows
        from scoring.standings.services import settings_for
        from tournament.models import Player, Round, Tournament

        report = self.report
        fresh_connection()
        tournament = Tournament.objects.get(slug=SLUG)
        games = list(Game.objects.filter(table__round__tournament=tournament)
                     .select_related("table__round").order_by("table__round__number",
                                                              "table__number"))
        rows: list[GameResultRow] = []
        replay_problems = []
        for game in games:
            answer = self.org.get(f"/api/v1/tables/{game.table_id}/record")
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

        players = list(Player.objects.filter(tournament=tournament).order_by("pk")
                       .values_list("pk", flat=True))
        expected = [(line.player, line.rank, line.points)
                    for line in compute_standings(players=players, results=rows,
                                                  settings=settings_for(tournament))]
        stored = [(row.player_id, row.rank, row.points)
                  for row in placed_rows(tournament, scope=Scope.LIVE)]
        public = [(r["player"], r["place"], r["points"]) for r in
                  Client(self.stack.base).get(f"/api/v1/tournaments/{SLUG}/standings")
                  .json()["standings"]]
        report.check("standings = independent recomputation from the records",
                     expected == stored == public,
                     f"({len(expected)} players; stored {'=' if expected == stored else '≠'}, "
                     f"public API {'=' if expected == public else '≠'})")

        gaps = []
        for game in games:
            seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
            if seqs != list(range(len(seqs))) or len(seqs) != game.event_count:
                gaps.append(game.table_id)
        doubled = (GameEvent.objects.exclude(idempotency_key="")
                   .values("game", "idempotency_key").annotate(n=Count("id")).filter(n__gt=1)
                   .count())
        lost = 0
        for table_id, acked in self.stats.acked.items():
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
                     self.stats.dup_sent == self.stats.dup_ok,
                     f"({self.stats.dup_ok}/{self.stats.dup_sent})")

        late = []
        for event in GameEvent.objects.filter(game__in=games, type__in=("auction_stop", "time_up")):
            due = dt.datetime.fromisoformat(event.data["at"])
            late.append(((event.recorded_at - due).total_seconds(), event.type))
        stops = sum(1 for _, kind in late if kind == "auction_stop")
        timeups = sum(1 for _, kind in late if kind == "time_up")
        worst = max((s for s, _ in late), default=0.0)
        self.deadlines = (stops, timeups, worst)
        report.check("server timers: no deadline late by more than one sweep interval",
                     worst <= self.args.sweep + 1.0 and stops > 0
                     and (timeups > 0 or self.args.all_bankrupt),
                     f"({stops} auction stops, {timeups} time limits, worst {worst:.2f} s, "
                     f"sweep {self.args.sweep:.0f} s)")
        ends = dict(Game.objects.filter(table__round__tournament=tournament)
                    .values_list("end_reason").annotate(n=Count("id")))
        self.ends = ends

        outside = [e for e in self.stats.errors_5xx + self.spectators.errors
                   if not any(a <= e[0] <= b for a, b in report.windows)]
        report.check("no 5xx or dropped requests outside fault windows", not outside,
                     f"({len(outside)} outside, "
                     f"{len(self.stats.errors_5xx) + len(self.spectators.errors)} in windows "
                     f"all retried)" if not outside else f"{outside[:5]}")
        report.check("bankers ran without failures", not self.stats.failures,
                     "; ".join(self.stats.failures[:5]))

        anon = Client(self.stack.base)
        # HTML only: the JSON API carries names as data (application/json), escaped by its reader.
        pages = [f"/t/{SLUG}/", f"/t/{SLUG}/tables/", f"/t/{SLUG}/live/standings",
                 f"/t/{SLUG}/screen"]
        bad = [p for p in pages if "<script>alert" in anon.get(p).text]
        report.check("script-laden names escaped on public pages", not bad, f"({bad or 'none'})")
        from . import hostile

        findings = getattr(self, "hostile", None)
        if findings is None:
            report.check("hostile input: the probes ran", False, "(not run)")
        after = hostile.probe_after(self.stack.base, slug=SLUG)
        for probe in [*(findings.probes if findings else []), *after.probes]:
            report.check(f"hostile input: {probe.name}", probe.ok, probe.detail)
        tournament.refresh_from_db()
        if self.args.final:
            report.check("a winner is crowned", tournament.winner_id is not None,
                         f"(status {tournament.status})")
        self.verify_record(tournament)
        self.elapsed = time.monotonic() - started

    def verify_record(self, tournament) -> None:
        """``manage.py verify`` at the end of the day, and again on the tournament rebuilt from
        its own export: every stored figure follows from the records and the rulings."""
        from django.utils import translation

        from exchange import services as exchange
        from scoring.verify import verify_tournament

        report = self.report
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

    # ------------------------------------------------------------------ the day
    def run(self) -> int:
        started = time.monotonic()
        args = self.args
        try:
            self.setup()
            self.spectators = Spectators(self.stack.base, args.spectators)
            self.spectators.start()
            self.watcher = Watcher(self.stack.base, self.stats)
            self.watcher.start()
            fault_plan = {1: ["worker", "offline", "rival"], 2: ["redis"], 3: ["database"]}
            if args.short:
                fault_plan = {1: ["worker", "offline", "rival", "redis", "database"]}
            if args.no_faults:
                fault_plan = {}
            if args.faults:
                fault_plan = {1: args.faults.split(",")}
            play_started = time.monotonic()
            for number in range(1, args.rounds + 1):
                _, tables = self.open_round()
                if args.tables_per_round and len(tables) > args.tables_per_round:
                    raise SystemExit("--tables-per-round must match players / 6")
                self.play_round(number, None, tables, final=False,
                                faults=fault_plan.get(number, []))
            if args.final:
                from desk import rounds as scoring
                from tournament.models import Tournament

                final = scoring.seat_final(tournament=Tournament.objects.get(slug=SLUG))
                _, tables = self.open_round(final.pk)
                self.play_round(final.number, final.pk, tables, final=True, faults=[])
            self.play_seconds = time.monotonic() - play_started
            self.spectators.stop.set()
            self.spectators.join()
            self.watcher.stop.set()
            self.watcher.join()
            self.record_faults()
            print("checks:", flush=True)
            if args.one_after_another:
                self.check_windows_apart()
            self.verify(started)
        except Exception as error:  # noqa: BLE001
            import traceback

            traceback.print_exc()
            self.report.check("the rehearsal ran to the end", False, f"{error}")
            self.elapsed = time.monotonic() - started
            self.play_seconds = self.elapsed
        finally:
            self.stack.stop()
        self.summary()
        limit = 180 if args.short else 600
        self.report.check(f"finished within {limit} s", self.elapsed < limit,
                          f"({self.elapsed:.0f} s)")
        failed = [c for c in self.report.checks if not c[1]] + [f for f in self.report.faults
                                                                 if not f[1]]
        print("REHEARSAL " + ("PASSED" if not failed else f"FAILED ({len(failed)})"), flush=True)
        return 1 if failed else 0

    def record_faults(self) -> None:
        s = self.stats
        if hasattr(self, "worker_window"):
            self.report.fault("celery worker killed (SIGKILL) and restarted", True,
                              "(deadline lateness checked below)")
        if hasattr(self, "redis_window"):
            # Redis away costs speed, not answers: the cache degrades to the database and
            # tasks are left to the sweeps, so no request may fail while it restarts.
            began, down = self.redis_window
            # On a loaded machine the Redis window can reach into the database fault's, whose
            # 5xx (connections terminated, retried with their keys) are not Redis's.
            db_began, db_ended = getattr(self, "db_window", (0.0, 0.0))
            failed = [e for e in s.errors_5xx + self.spectators.errors
                      if began <= e[0] <= began + down + 8 and not db_began <= e[0] <= db_ended]
            answer = Client(self.stack.base).get(f"/api/v1/tournaments/{SLUG}/standings")
            self.report.fault("redis shutdown nosave + restart",
                              answer.status == 200 and not failed,
                              f"(down {down:.1f} s; {len(failed)} requests answered 5xx "
                              f"meanwhile; standings refilled: {answer.status})")
        if hasattr(self, "db_killed"):
            self.report.fault("database connections terminated", self.db_killed >= 0,
                              f"({self.db_killed} backends; requests retried with their keys)")
        if s.offline_queued:
            self.report.fault("banker offline, then synced", s.offline_queued == s.offline_synced,
                              f"({s.offline_synced}/{s.offline_queued} queued events synced)")
        for low, high, told in s.rival:
            self.report.fault("two consoles post at once", (low, high) == (201, 409) and told,
                              f"(answers {low}/{high}, loser told the current seq: {told})")

    def summary(self) -> None:
        s = self.stats
        lat = sorted(s.latencies)
        p95 = percentile(lat, 95) * 1000
        p50 = statistics.median(lat) * 1000 if lat else float("nan")
        handled = s.posted + s.replayed + s.stale + s.refused
        rate = handled / self.play_seconds if getattr(self, "play_seconds", 0) else 0
        fresh = sorted(s.freshness)
        f95 = percentile(fresh, 95)
        codes = getattr(self, "spectators", None).codes if hasattr(self, "spectators") else {}
        stops, timeups, worst = getattr(self, "deadlines", (0, 0, 0.0))
        lines = [
            ("wall time (set-up, play, checks)", f"{getattr(self, 'elapsed', 0):.0f} s"),
            ("console posts handled", f"{handled} ({s.posted} new, {s.replayed} replayed, "
                                      f"{s.stale} stale 409, {s.refused} refused 422)"),
            ("events/s handled (play time)", f"{rate:.1f}"),
            ("console post latency p50 / p95", f"{p50:.0f} ms / {p95:.0f} ms"),
            ("retries after 5xx/no answer", f"{s.retries}"),
            ("leaderboard freshness p50 / p95 / max",
             f"{statistics.median(fresh) if fresh else float('nan'):.2f} / {f95:.2f} / "
             f"{max(fresh) if fresh else float('nan'):.2f} s"),
            ("spectator requests", ", ".join(f"{k}: {v}" for k, v in sorted(codes.items()))),
            ("server deadlines", f"{stops} auction stops, {timeups} time limits, "
                                 f"worst {worst:.2f} s late"),
            ("game ends", ", ".join(f"{k or '-'}: {v}" for k, v in getattr(self, "ends", {})
                                     .items())),
            ("results counted/confirmed via", ", ".join(f"{k}: {v}" for k, v in
                                                        s.counted_via.items())),
            ("faults injected / survived",
             f"{len(self.report.faults)} / {sum(1 for f in self.report.faults if f[1])}"),
            ("checks passed", f"{sum(1 for c in self.report.checks if c[1])} / "
                              f"{len(self.report.checks)}"),
        ]
        width = max(len(k) for k, _ in lines)
        print("\n| what | figure |\n|---|---|")
        for key, value in lines:
            print(f"| {key.ljust(width)} | {value} |")
        print(flush=True)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m rehearsal.run", description=__doc__)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--final", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--tables-per-round", type=int, default=0)
    parser.add_argument("--short", action="store_true",
                        help="CI: one round, 36 players (6 tables), all faults in that round")
    parser.add_argument("--faults", default="", help="comma list to inject in round 1 only: "
                        "worker,redis,database,offline,rival")
    parser.add_argument("--one-after-another", action="store_true",
                        help="the server faults of --faults one at a time, each window closed "
                        "before the next fault (test_faults.py: one stack for every fault)")
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument("--all-bankrupt", action="store_true",
                        help="every game ends by bankruptcies just after the auction stop "
                        "(fault tests: no table waits for the time limit)")
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (2-4)")
    parser.add_argument("--sweep", type=float, default=2.0, help="DEADLINE_SWEEP_SECONDS")
    parser.add_argument("--time-limit", type=int, default=2, help="minutes")
    parser.add_argument("--auction-stop", type=int, default=1, help="minutes")
    parser.add_argument("--offline", type=float, default=20.0, help="seconds a banker is offline")
    parser.add_argument("--db", default=os.environ.get("REHEARSAL_DB", "mcs_rehearsal"))
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if args.short:
        args.players = min(args.players, 36)
        args.rounds, args.final = 1, False
    if args.tables_per_round:
        args.players = args.tables_per_round * 6
    return args


def main(argv: list[str] | None = None) -> int:
    return Rehearsal(parse(argv)).run()


if __name__ == "__main__":
    sys.exit(main())
