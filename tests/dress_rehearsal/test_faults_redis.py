"""Restart Redis (``shutdown nosave``: broker queues, cache and kombu's bindings all gone)
mid-round: no request fails meanwhile (the cache degrades to the database, tasks are left to
the sweeps), the worker reconnects, the cache refills, confirmed results reach the public
standings, and no event is lost or doubled.

Runs the rehearsal on a stack of its own (fresh database, private Redis, gunicorn, Celery
worker and beat), two tables, every game ending by bankruptcies just after the auction stop.
"""

from __future__ import annotations

import re

import pytest

from ._run import run_rehearsal

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.celery_worker]


def test_redis_restart():
    out = run_rehearsal("--short", "--tables-per-round", "2", "--all-bankrupt",
                        "--faults", "redis", "--spectators", "4", db="mcs_rehearsal_redis")
    assert "REHEARSAL PASSED" in out
    assert "fault redis shutdown nosave + restart: survived" in out
    assert "0 requests answered 5xx meanwhile" in out  # pages served from the database
    # Every table's confirmed result became public (the rehearsal fails otherwise).
    assert re.search(r"leaderboard freshness p50 / p95 / max \| \d", out), out[-2000:]
