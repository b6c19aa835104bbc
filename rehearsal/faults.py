"""The faults of the day (docs/rehearsal.md, "Faults"): which round suffers which, when each
server fault strikes, the windows they open (where a failed request is forgiven), the
``--one-after-another`` check that those windows stay apart, and each fault's verdict."""

from __future__ import annotations

import argparse
import datetime as dt
import time

from .banker import Stats
from .client import Client
from .report import Report
from .stack import Stack
from .watchers import SLUG

#: When each server fault is due, seconds after the round started (the worker's 8 s
#: before the auction stop: it is down across it).
FAULT_AT = {"redis": 30.0, "database": 40.0, "worker": -8.0}


def fault_plan(args: argparse.Namespace) -> dict[int, list[str]]:
    """Round number → its faults: spread over three rounds for the whole day, all in the one
    round of ``--short``, none with ``--no-faults``, ``--faults`` in round 1."""
    plan = {1: ["worker", "offline", "rival"], 2: ["redis"], 3: ["database"]}
    if args.short:
        plan = {1: ["worker", "offline", "rival", "redis", "database"]}
    if args.no_faults:
        plan = {}
    if args.faults:
        plan = {1: args.faults.split(",")}
    return plan


def fresh_connection() -> None:
    """This thread's database connection may have been terminated by a fault: start anew."""
    from django.db import connection

    connection.close()


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.monotonic()))


class Faults:
    """The server faults on one stack, and the windows (wall-clock seconds) they opened."""

    def __init__(self, *, stack: Stack | None, report: Report, auction_stop: int,
                 one_after_another: bool) -> None:
        self.stack = stack
        self.report = report
        self.auction_stop = auction_stop
        self.one_after_another = one_after_another
        self.worker_window: tuple[float, float] | None = None  # down, up
        self.redis_window: tuple[float, float] | None = None  # began, seconds down
        self.db_window: tuple[float, float] | None = None
        self.db_killed: int | None = None

    def inject(self, faults: list[str], t0: float) -> None:
        """The server faults of ``faults`` at their moments. ``--one-after-another``: in the
        order of those moments, each only once the previous fault's window has closed, so that
        every window holds one fault alone (``check_apart`` checks it)."""
        stop_at = self.auction_stop * 60
        due = {fault: (at if at >= 0 else stop_at + at) for fault, at in FAULT_AT.items()}
        strike = {"worker": self._kill_worker, "redis": self._restart_redis,
                  "database": self._terminate_db_connections}
        apart = self.one_after_another
        if apart:
            faults = sorted((f for f in faults if f in due), key=due.__getitem__)
        free_from = t0  # monotonic: the previous fault's window has closed
        for fault in faults:
            if fault not in due:
                continue
            sleep_until(max(t0 + due[fault], free_from) if apart else t0 + due[fault])
            tail = strike[fault]()
            free_from = time.monotonic() + tail + 0.5

    def _kill_worker(self) -> float:
        """SIGKILL the Celery worker, start it again 10 s later; the window's tail in seconds."""
        began = time.time()
        self.stack.kill_worker()
        time.sleep(10)  # across the auction stop
        self.stack.start_worker()
        self.report.windows.append((began, time.time() + 5))
        self.worker_window = (began, time.time())
        return 5.0

    def _restart_redis(self) -> float:
        began = time.time()
        down = self.stack.restart_redis(down_seconds=2.0)
        self.report.windows.append((began, time.time() + 8))
        self.redis_window = (began, down)
        return 8.0

    def _terminate_db_connections(self) -> float:
        began = time.time()
        killed = self.stack.terminate_db_connections()
        self.report.windows.append((began, time.time() + 5))
        self.db_window = (began, time.time() + 5)
        self.db_killed = killed
        return 5.0

    def check_apart(self) -> None:
        """``--one-after-another``: no two fault windows overlap, the worker is down across the
        auction stop, and the Redis window (began … began + down + 8 s, where no request may
        fail) ends before the database's begins."""
        windows = sorted(self.report.windows)
        overlapping = [(a, b) for a, b in zip(windows, windows[1:], strict=False)
                       if b[0] <= a[1]]
        ok = not overlapping
        detail = f"({len(windows)} windows"
        if self.redis_window is not None and self.db_window is not None:
            began, down = self.redis_window
            ok = ok and began + down + 8 < self.db_window[0]
        if self.worker_window is not None:
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

    def record(self, *, stats: Stats, spectator_errors: list[tuple[float, int, str]],
               base: str) -> None:
        """Each fault's verdict in the report, the bankers' own (offline, rival) included."""
        s = stats
        if self.worker_window is not None:
            self.report.fault("celery worker killed (SIGKILL) and restarted", True,
                              "(deadline lateness checked below)")
        if self.redis_window is not None:
            # Redis away costs speed, not answers: the cache degrades to the database and
            # tasks are left to the sweeps, so no request may fail while it restarts.
            began, down = self.redis_window
            # On a loaded machine the Redis window can reach into the database fault's, whose
            # 5xx (connections terminated, retried with their keys) are not Redis's.
            db_began, db_ended = self.db_window or (0.0, 0.0)
            failed = [e for e in s.errors_5xx + spectator_errors
                      if began <= e[0] <= began + down + 8 and not db_began <= e[0] <= db_ended]
            answer = Client(base).get(f"/api/v1/tournaments/{SLUG}/standings")
            self.report.fault("redis shutdown nosave + restart",
                              answer.status == 200 and not failed,
                              f"(down {down:.1f} s; {len(failed)} requests answered 5xx "
                              f"meanwhile; standings refilled: {answer.status})")
        if self.db_killed is not None:
            self.report.fault("database connections terminated", self.db_killed >= 0,
                              f"({self.db_killed} backends; requests retried with their keys)")
        if s.offline_queued:
            self.report.fault("banker offline, then synced", s.offline_queued == s.offline_synced,
                              f"({s.offline_synced}/{s.offline_queued} queued events synced)")
        for low, high, told in s.rival:
            self.report.fault("two consoles post at once", (low, high) == (201, 409) and told,
                              f"(answers {low}/{high}, loser told the current seq: {told})")
