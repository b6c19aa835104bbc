"""Two consoles post to one table at once: one 201, the other 409 with the current seq.

Runs the rehearsal on a stack of its own (fresh database, private Redis, gunicorn, Celery
worker and beat), two tables, every game ending by bankruptcies just after the auction stop.
"""

from __future__ import annotations

import pytest

from ._run import run_rehearsal

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.celery_worker]


def test_rival():
    out = run_rehearsal("--short", "--tables-per-round", "2", "--all-bankrupt",
                        "--faults", "rival", "--spectators", "4", db="mcs_rehearsal_rival")
    assert "REHEARSAL PASSED" in out
    assert "survived" in out
