"""The laptop's scheduler runs the beat tasks themselves: deadlines recorded once, even when
the sweep runs again, and a backup whenever a result is confirmed."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from gameplay import T0, started_game

from laptop.scheduler import Scheduler, beat_task, milestones
from referee import results, services
from referee.models import Game
from referee.results import revision_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return started_game(start=T0)


def test_the_deadline_job_is_the_beat_task_and_records_the_auction_stop_once(game):
    sweep = beat_task("referee.sweep_deadlines")
    with time_machine.travel(T0 + dt.timedelta(minutes=44, seconds=59), tick=False):
        assert sweep() == 0
    with time_machine.travel(T0 + dt.timedelta(minutes=45, seconds=1), tick=False):
        assert sweep() == 1
        assert sweep() == 0  # a second sweep (or a request) changes nothing
    stops = list(game.events.filter(type="auction_stop").values_list("data", flat=True))
    assert [d["at"] for d in stops] == [(T0 + dt.timedelta(minutes=45)).isoformat()]


def test_the_standings_job_exists():
    assert beat_task("scoring.refresh_running_standings")() >= 0


def test_the_scheduler_counts_what_its_deadline_job_recorded(game):
    scheduler = Scheduler(backups=None, deadline_seconds=0.1, standings_seconds=60, tick=0.05)
    with time_machine.travel(T0 + dt.timedelta(minutes=90, seconds=1), tick=False):
        scheduler._run(scheduler.jobs[0])
        scheduler._run(scheduler.jobs[0])
    assert scheduler.recorded == 2  # the auction stop, then the time limit
    assert list(game.events.filter(author=None).exclude(type="start")
                .values_list("type", flat=True)) == ["auction_stop", "time_up"]


def test_a_confirmed_result_is_copied_in_its_own_request(game, settings, tmp_path,
                                                        monkeypatch,
                                                        django_capture_on_commit_callbacks):
    from laptop import backup

    copies = []
    monkeypatch.setattr(backup, "backup_now", lambda **kw: copies.append(kw) or tmp_path / "c")
    settings.LAPTOP_BACKUP_DIR = tmp_path
    settings.DATA_DIR = tmp_path
    settings.LAPTOP_BACKUP_DEVICE = None
    settings.LAPTOP_BACKUP_KEEP = 3
    settings.DATABASE_FILE = tmp_path / "db.sqlite3"
    # The copy is the last step after a changed result (settings.RESULT_STEPS).
    assert settings.RESULT_STEPS[-1] == "laptop.receivers.backup_after_result"
    later = T0 + dt.timedelta(minutes=1)
    for key in game.players[:5]:  # bankruptcies to the bank until the game ends
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        services.post_event(game_id=game.pk, event={"type": "bankrupt", "player": key,
                                                    "creditor": "bank"}, author=None,
                            now=later)
    with django_capture_on_commit_callbacks(execute=True):
        results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=None, now=later)
    assert copies == []  # counted is not final yet
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                               code=game.confirmation_code, by=None,
                                now=later)
    assert [c["reason"] for c in copies] == ["result"]
    assert copies[0]["folder"] == tmp_path and copies[0]["keep"] == 3


def test_milestones_change_when_a_round_is_closed(game):
    from tournament.models import Round

    before = milestones()
    Round.objects.filter(pk=game.table.round_id).update(closed_at=T0, status="complete")
    assert milestones() != before


def test_the_scheduler_copies_the_database_when_it_changed_and_when_a_round_closed(
        game, tmp_path):
    import shutil
    import sqlite3

    from laptop.scheduler import BackupPolicy
    from tournament.models import Round

    # A real database file stands for the laptop's (the test database lives in memory).
    live = tmp_path / "live.sqlite3"
    with sqlite3.connect(live) as conn:
        conn.executescript("CREATE TABLE django_migrations (id INTEGER);"
                           "CREATE TABLE referee_gameevent (id INTEGER);")
    folder = tmp_path / "usb"
    folder.mkdir()  # made by `serve` at its start: a backup never creates it
    policy = BackupPolicy(database=live, folder=folder, keep=10, minutes=0)
    scheduler = Scheduler(backups=policy, deadline_seconds=60, standings_seconds=60)
    scheduler._marks = milestones()

    scheduler._backup_if_needed(now=1.0)  # first look: counts as changed, periodic is due
    assert [p.name.rsplit("-", 1)[1] for p in policy.made] == ["periodic.sqlite3"]
    scheduler._backup_if_needed(now=2.0)  # nothing changed since: no copy
    assert len(policy.made) == 1
    with sqlite3.connect(live) as conn:
        conn.execute("INSERT INTO referee_gameevent VALUES (1)")
    scheduler._backup_if_needed(now=3.0)
    assert len(policy.made) == 2
    Round.objects.filter(pk=game.table.round_id).update(closed_at=T0, status="complete")
    scheduler._backup_if_needed(now=4.0)
    assert policy.made[-1].name.endswith("-round.sqlite3")
    copy = tmp_path / "check.sqlite3"
    shutil.copy(policy.made[-1], copy)
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM referee_gameevent").fetchone()[0] == 1
    assert scheduler.stop(final_backup=True).name.endswith("-shutdown.sqlite3")
