"""The rehearsal's own check for ``--one-after-another`` (test_faults.py runs every fault on one
stack and relies on it): overlapping fault windows fail it, and so does a worker that was not
down while an auction stop fell due."""

from __future__ import annotations

import datetime as dt

import pytest
from factories import seated_table

from referee import services as referee
from rehearsal import faults
from rehearsal.faults import Faults
from rehearsal.report import Report
from rehearsal.watchers import SLUG


def _faults(*windows: tuple[float, float]) -> Faults:
    # No stack: only the check is tried.
    return Faults(stack=None, report=Report(windows=list(windows)), auction_stop=1,
                  one_after_another=True)


def _verdict(checked: Faults) -> bool:
    checked.check_apart()
    (name, ok, _detail), = checked.report.checks
    assert name == "faults one after another: no two fault windows overlap"
    return ok


def test_windows_one_after_another_pass_and_overlapping_ones_fail():
    assert _verdict(_faults((100.0, 110.0), (111.0, 120.0), (121.0, 130.0)))
    assert not _verdict(_faults((100.0, 110.0), (109.0, 120.0)))


def test_the_redis_window_where_nothing_may_fail_must_end_before_the_database_fault():
    apart = _faults((100.0, 112.0), (115.0, 120.0))
    apart.redis_window, apart.db_window = (100.0, 3.0), (115.0, 120.0)
    assert _verdict(apart)
    # began + down + 8 s reaches into the database's window (the report windows do not).
    close = _faults((100.0, 105.0), (108.0, 113.0))
    close.redis_window, close.db_window = (100.0, 3.0), (108.0, 113.0)
    assert not _verdict(close)


@pytest.mark.django_db
def test_the_worker_must_be_down_while_an_auction_stop_falls_due(monkeypatch):
    # The rehearsal starts a fresh connection after its faults; here it would close the test's
    # own (PostgreSQL) connection inside the test's transaction.
    monkeypatch.setattr(faults, "fresh_connection", lambda: None)
    table = seated_table(tournament_kwargs={"slug": SLUG, "auction_stop_minutes": 1})
    game = referee.ensure_game(table=table)
    start = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=start)
    recorded = referee.enforce_deadlines(game_id=game.pk, now=start + dt.timedelta(minutes=1))
    assert [event.type for event in recorded] == ["auction_stop"]
    due = dt.datetime.fromisoformat(recorded[0].data["at"]).timestamp()

    across = _faults((due - 8, due + 7))
    across.worker_window = (due - 8, due + 2)
    assert _verdict(across)
    before = _faults((due - 30, due - 15))
    before.worker_window = (due - 30, due - 20)
    assert not _verdict(before)
