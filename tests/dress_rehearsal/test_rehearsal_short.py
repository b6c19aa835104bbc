"""The CI rehearsal: one round, six tables, every fault in that round (< 3 minutes)."""

from __future__ import annotations

import pytest

from ._run import run_rehearsal

# One whole stack at a time (see test_faults.py).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.celery_worker,
              pytest.mark.xdist_group("rehearsal")]


@pytest.mark.slow
def test_short_rehearsal_passes():
    out = run_rehearsal("--short", db="mcs_rehearsal_short")
    assert "REHEARSAL PASSED" in out
    assert "NOT survived" not in out
