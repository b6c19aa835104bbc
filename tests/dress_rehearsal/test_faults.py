"""Every fault on one rehearsal stack (fresh database, private Redis, gunicorn, Celery worker
and beat), one fault after another (``--one-after-another``: each fault's window closes before
the next fault begins, checked by the rehearsal), two tables, every game ending by
bankruptcies just after the auction stop. One stack for all five (it takes as long as one
fault did on a stack of its own: the auction stop is a minute away); each fault's own lines of
the report are checked:

- ``worker``: the Celery worker is killed (SIGKILL) across the auction stop (an auction stop
  falls due while it is down) and restarted: every deadline is recorded no later than one
  sweep interval;
- ``redis``: Redis restarts (``shutdown nosave``: broker queues, cache and kombu's bindings all
  gone) mid-round: no request fails meanwhile (the cache degrades to the database, tasks are
  left to the sweeps), the worker reconnects, the cache refills, confirmed results reach the
  public standings, and no event is lost or doubled;
- ``database``: every database connection is terminated mid-round: requests fail cleanly and
  retries with the same idempotency key never double an event;
- ``offline``: a banker goes offline, queues events with idempotency keys and syncs them in
  order;
- ``rival``: two consoles post to one table at once: one 201, the other 409 with the current
  seq.

Every test also needs the whole rehearsal to pass (every record replays to its result, the
standings, no 5xx outside the fault windows, the hostile probes ...). ``test_rehearsal_short``
injects the same faults all at once on six tables.
"""

from __future__ import annotations

import re

import pytest

from ._run import rehearse

FAULTS = ["worker", "redis", "database", "offline", "rival"]

#: The line of each fault in the rehearsal's report, and the checks that prove it.
SURVIVED = {
    "worker": ["fault celery worker killed (SIGKILL) and restarted: survived",
               "[ok] server timers: no deadline late by more than one sweep interval",
               "[ok] faults one after another: no two fault windows overlap"],
    "redis": ["fault redis shutdown nosave + restart: survived",
              "0 requests answered 5xx meanwhile",  # pages served from the database
              "[ok] faults one after another: no two fault windows overlap",
              "[ok] no event lost or doubled"],
    "database": ["fault database connections terminated: survived",
                 "[ok] no event lost or doubled",
                 "[ok] duplicate posts (same key) answered as replays"],
    "offline": ["fault banker offline, then synced: survived",
                "[ok] no event lost or doubled"],
    "rival": ["fault two consoles post at once: survived"],
}

# the rehearsal runs in a subprocess for up to 400 s (see _run.py); the default timeout is 300 s.
# One whole stack at a time: under pytest-xdist the rehearsals share one worker (`make test`
# runs with --dist loadgroup), so two stacks never fight over the machine's cores.
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.celery_worker,
              pytest.mark.timeout(600), pytest.mark.xdist_group("rehearsal"), pytest.mark.slow]


def test_the_rehearsal_survives_every_fault_one_after_another():
    """One test, not one per fault sharing a module-scoped fixture: in a whole `make test` run
    (2026-11-27) that fixture was set up twice (a second stack, 106 s; the cause was not
    found); a single test starts exactly one stack. Each fault is still checked on its own,
    and the message names every fault whose lines are missing."""
    code, out = rehearse("--short", "--tables-per-round", "2", "--all-bankrupt",
                         "--faults", ",".join(FAULTS), "--one-after-another", "--spectators", "4",
                         db="mcs_rehearsal_faults")
    missing = {fault: [line for line in lines if line not in out]
               for fault, lines in SURVIVED.items()}
    # Every table's confirmed result became public (the rehearsal fails otherwise).
    if not re.search(r"leaderboard freshness p50 / p95 / max \| \d", out):
        missing["redis"].append("leaderboard freshness figures")
    failed = {fault: lines for fault, lines in missing.items() if lines}
    assert not failed, f"not survived: {failed}\n{out[-6000:]}"
    assert code == 0 and "REHEARSAL PASSED" in out, out[-6000:]
    assert "NOT survived" not in out
