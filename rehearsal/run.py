"""The dress rehearsal: ``python -m rehearsal.run [--players 120] [--rounds 3] [--final] [--short]``.

Starts the real stack (fresh PostgreSQL database, a private Redis, gunicorn, Celery worker and
beat), runs a whole championship through the organizer and console APIs with simulated bankers
and spectators, injects faults, then checks every record, the standings and the event logs.
Exit status 0 only when every check passed. See docs/rehearsal.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import threading
import time

from . import checks
from .banker import Banker, Plan, Stats
from .client import Client
from .faults import Faults, fault_plan, fresh_connection, sleep_until
from .report import Report, print_summary
from .stack import Stack
from .watchers import SLUG, Spectators, Watcher

ORGANIZER = ("organizer", "rehearsal-organizer-pw")
XSS_NAME = '<script>alert("xss")</script> Mallory'


class Rehearsal:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.stack = Stack(db=args.db, workers=args.workers, sweep=args.sweep)
        self.stats = Stats()
        self.report = Report()
        self.faults = Faults(stack=self.stack, report=self.report, auction_stop=args.auction_stop,
                             one_after_another=args.one_after_another)
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
            banker.client.post(f"{url}/count/", form={"seq": str(game.event_count),
                                                      "revision": game.result_revision})
            if GameResult.objects.filter(game=game).exists():
                break
            game.refresh_from_db()
            time.sleep(0.5)
        else:
            via = "service"
            results.count_result(game_id=game.pk, revision=results.revision_of(game.pk),
                                 author=None)
        banker.client.post(f"{url}/confirm/", form={"code": game.confirmation_code,
                                                    "revision": results.revision_of(game.pk)})
        result = GameResult.objects.get(game=game)
        if result.status != GameResult.Status.CONFIRMED:
            via = "service"
            results.confirm_result(game_id=game.pk, revision=results.revision_of(game.pk),
                                   code=game.confirmation_code, by=None)
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
        injector = threading.Thread(target=self.faults.inject, args=(faults, t0), daemon=True)
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

        sleep_until(t0 + 10)  # the tables are running and have events; no fault yet
        try:
            organizer = Client(self.stack.base)  # its own: the main thread keeps self.org
            organizer.login(*ORGANIZER)
            self.hostile = hostile.probe(self.stack.base, organizer, slug=SLUG)
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            self.hostile = hostile.Findings()
            self.hostile.add("hostile input: the probes ran", False, repr(error))

    # ------------------------------------------------------------------ checks
    def verify(self, started: float) -> None:
        """The checks after the day (``rehearsal.checks``), in the order the report lists them."""
        from django.db.models import Count

        from referee.models import Game
        from tournament.models import Tournament

        report, base, args = self.report, self.stack.base, self.args
        fresh_connection()
        tournament = Tournament.objects.get(slug=SLUG)
        games = list(Game.objects.filter(table__round__tournament=tournament)
                     .select_related("table__round").order_by("table__round__number",
                                                              "table__number"))
        rows = checks.check_records(report=report, org=self.org, games=games)
        checks.check_standings(report=report, base=base, tournament=tournament, rows=rows)
        checks.check_events(report=report, stats=self.stats, games=games)
        self.deadlines = checks.check_deadlines(report=report, games=games, sweep=args.sweep,
                                                all_bankrupt=args.all_bankrupt)
        self.ends = dict(Game.objects.filter(table__round__tournament=tournament)
                         .values_list("end_reason").annotate(n=Count("id")))
        checks.check_requests(report=report, stats=self.stats,
                              spectator_errors=self.spectators.errors)
        checks.check_escaped(report=report, base=base)
        checks.check_hostile(report=report, base=base, findings=getattr(self, "hostile", None))
        tournament.refresh_from_db()
        if args.final:
            report.check("a winner is crowned", tournament.winner_id is not None,
                         f"(status {tournament.status})")
        checks.check_verify(report=report, tournament=tournament)
        self.elapsed = time.monotonic() - started

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
            plan = fault_plan(args)
            play_started = time.monotonic()
            for number in range(1, args.rounds + 1):
                _, tables = self.open_round()
                if args.tables_per_round and len(tables) > args.tables_per_round:
                    raise SystemExit("--tables-per-round must match players / 6")
                self.play_round(number, None, tables, final=False,
                                faults=plan.get(number, []))
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
            self.faults.record(stats=self.stats, spectator_errors=self.spectators.errors,
                               base=self.stack.base)
            print("checks:", flush=True)
            if args.one_after_another:
                self.faults.check_apart()
            self.verify(started)
        except Exception as error:  # noqa: BLE001
            import traceback

            traceback.print_exc()
            self.report.check("the rehearsal ran to the end", False, f"{error}")
            self.elapsed = time.monotonic() - started
            self.play_seconds = self.elapsed
        finally:
            self.stack.stop()
        print_summary(report=self.report, stats=self.stats, elapsed=getattr(self, "elapsed", 0),
                      play_seconds=getattr(self, "play_seconds", 0),
                      codes=self.spectators.codes if hasattr(self, "spectators") else {},
                      deadlines=getattr(self, "deadlines", (0, 0, 0.0)),
                      ends=getattr(self, "ends", {}))
        limit = 180 if args.short else 600
        self.report.check(f"finished within {limit} s", self.elapsed < limit,
                          f"({self.elapsed:.0f} s)")
        failed = [c for c in self.report.checks if not c[1]] + [f for f in self.report.faults
                                                                 if not f[1]]
        print("REHEARSAL " + ("PASSED" if not failed else f"FAILED ({len(failed)})"), flush=True)
        return 1 if failed else 0

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
