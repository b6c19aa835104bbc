"""Backups that fail loudly and restores that never go back in time (issue 25, findings 1–4, 6):
a backup never creates its folder, a pulled stick is a failure shared by every process (the
staff pages' red bar, ``/healthz``), retried every 30 s on the scheduler's driven clock; copies
hold no sessions and need no file modes; restore takes the newest copy by content and refuses
one older than the database, saying what would be lost."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

from laptop import backup, status
from laptop.scheduler import BackupPolicy, Scheduler, milestones

ROOT = Path(__file__).resolve().parents[2]


def live_copy(database: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    live = folder / "championship.sqlite3"
    backup.copy_database(database, live)
    return live


def sql(path: Path, query: str, *args):
    with sqlite3.connect(path) as conn:
        rows = conn.execute(query, args).fetchall()
    conn.close()
    return rows


def add_history(path: Path, *, events: int, at: str, slug: str = "cup") -> None:
    """A tournament with one table's game and ``events`` events recorded at ``at``."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA foreign_keys=OFF")
        conn.execute("PRAGMA ignore_check_constraints=ON")  # a bare row is enough here
        if not conn.execute("SELECT 1 FROM tournament_tournament WHERE slug = ?",
                            (slug,)).fetchone():
            columns = [row[1] for row in conn.execute("PRAGMA table_info(tournament_tournament)")
                       if row[3] and row[4] is None and row[1] != "id"]
            values = dict.fromkeys(columns, 0)
            values.update(slug=slug, name=slug)
            conn.execute(f"INSERT INTO tournament_tournament ({', '.join(values)}) VALUES "
                         f"({', '.join('?' * len(values))})", list(values.values()))
        start = conn.execute("SELECT coalesce(max(seq) + 1, 0) FROM referee_gameevent "
                             "WHERE game_id = 1").fetchone()[0]
        for seq in range(start, start + events):
            conn.execute("INSERT INTO referee_gameevent (game_id, seq, type, data, recorded_at, "
                         "idempotency_key) VALUES (1, ?, 'pay', '{}', ?, ?)", (seq, at, f"{slug}-{seq}"))


# --------------------------------------------------------------------------- the folder


def test_a_backup_never_creates_a_missing_folder(database, tmp_path):
    stick = tmp_path / "media" / "usb" / "mcs"
    with pytest.raises(backup.BackupError, match="gone"):
        backup.backup_now(database=database, folder=stick, keep=5)
    assert not (tmp_path / "media").exists()


def test_the_folder_is_made_at_the_start_only_where_its_mount_point_exists(tmp_path):
    with pytest.raises(backup.BackupError, match="mounted"):
        backup.prepare_folder(tmp_path / "usb" / "mcs")
    assert not (tmp_path / "usb").exists()
    assert backup.prepare_folder(tmp_path / "mcs") == (tmp_path / "mcs").stat().st_dev


@pytest.mark.parametrize(("at_start", "now", "fine"), [
    (7, 7, True),  # the same device
    (7, 1, False),  # the stick's folder now on the laptop's disk (an empty mount point)
    (7, 9, True),  # the stick re-plugged: another number, still not the laptop's disk
    (1, 9, False),  # a folder on the laptop's disk now elsewhere
])
def test_the_folder_must_stay_on_its_device(tmp_path, monkeypatch, at_start, now, fine):
    real = os.stat
    monkeypatch.setattr(os, "stat", lambda path, *a, **k: os.stat_result(
        (*real(path)[:2], now, *real(path)[3:])) if Path(path) == tmp_path else real(path))
    problem = backup.folder_problem(tmp_path, device=at_start, home_device=1)
    assert (problem is None) is fine


# --------------------------------------------------------------------------- what a copy holds


def test_a_copy_holds_no_sessions(database, tmp_path):
    live = live_copy(database, tmp_path / "live")
    key = "k" * 32 + "sessionkeythatmustnotleak"
    with sqlite3.connect(live) as conn:
        conn.execute("INSERT INTO django_session VALUES (?, 'data-of-the-organizer', "
                     "'2099-01-01')", (key,))
    (tmp_path / "usb").mkdir()
    copy = backup.backup_now(database=live, folder=tmp_path / "usb", keep=5)
    assert sql(copy, "SELECT count(*) FROM django_session") == [(0,)]
    assert key.encode() not in copy.read_bytes()  # not even in a free page
    assert sql(live, "SELECT count(*) FROM django_session") == [(1,)]


def test_a_stick_without_file_modes_still_takes_copies(database, tmp_path, monkeypatch):
    def fat(path, mode, *args, **kwargs):
        raise PermissionError(1, "Operation not permitted")  # vfat mounted without `quiet`

    (tmp_path / "usb").mkdir()
    monkeypatch.setattr(os, "chmod", fat)
    copy = backup.backup_now(database=database, folder=tmp_path / "usb", keep=5)
    backup.check(copy)


# --------------------------------------------------------------------------- shared state


def test_failures_and_recovery_are_shared_and_said_once(tmp_path):
    t0 = dt.datetime(2026, 11, 28, 14, 5, tzinfo=dt.UTC)
    assert status.read(tmp_path).ok
    first, is_first = status.failed(tmp_path, "gone", now=t0)
    again, is_first_again = status.failed(tmp_path, "still", now=t0 + dt.timedelta(seconds=30))
    assert is_first and not is_first_again
    assert again.since() == t0 and again.error == "still"
    done, recovered = status.succeeded(tmp_path, tmp_path / "c", now=t0 + dt.timedelta(minutes=1))
    assert recovered and done.ok
    assert done.recovered(t0 + dt.timedelta(minutes=2)) == t0 + dt.timedelta(minutes=1)
    assert done.recovered(t0 + dt.timedelta(minutes=30)) is None  # shown for a while only


@pytest.mark.django_db
def test_the_scheduler_notices_a_pulled_stick_and_copies_when_it_is_back(database, tmp_path):
    data = tmp_path / "data"
    live = live_copy(database, data)
    stick = tmp_path / "stick"
    device = backup.prepare_folder(stick)
    policy = BackupPolicy(database=live, folder=stick, keep=10, minutes=60, data_dir=data,
                          device=device, home_device=None, check_seconds=3,
                          retry_seconds=30)
    scheduler = Scheduler(backups=policy, deadline_seconds=60, standings_seconds=60)
    scheduler._marks = milestones()
    scheduler._next_periodic = 10**9
    scheduler._backup_if_needed(now=0.0)
    assert status.read(data).ok

    stick.rename(tmp_path / "pulled")  # the automounter removes the mount point
    scheduler._backup_if_needed(now=1.0)  # not yet looked again
    assert status.read(data).ok
    scheduler._backup_if_needed(now=3.0)
    failing = status.read(data)
    assert not failing.ok and "gone" in failing.error
    assert scheduler.backup("result") is None
    assert not stick.exists()  # nothing re-created on the laptop's disk

    (tmp_path / "pulled").rename(stick)  # plugged in again
    scheduler._backup_if_needed(now=6.0)
    back = status.read(data)
    assert back.ok and back.recovered_at and policy.made
    assert Path(back.last_copy).parent == stick


@pytest.mark.django_db
def test_a_failing_copy_is_retried_every_30_seconds(database, tmp_path, monkeypatch):
    data = tmp_path / "data"
    live = live_copy(database, data)
    stick = tmp_path / "stick"
    policy = BackupPolicy(database=live, folder=stick, keep=10, minutes=60, data_dir=data,
                          device=backup.prepare_folder(stick), retry_seconds=30)
    scheduler = Scheduler(backups=policy, deadline_seconds=60, standings_seconds=60)
    scheduler._marks = milestones()
    scheduler._next_periodic = 10**9
    tries = []
    real = backup.backup_now

    def read_only(**kwargs):
        tries.append(kwargs["reason"])
        if len(tries) < 3:
            raise backup.BackupError("read-only file system")
        return real(**kwargs)

    monkeypatch.setattr(backup, "backup_now", read_only)
    status.failed(data, "read-only file system")  # a web process's copy failed
    scheduler._backup_if_needed(now=0.0)
    assert tries == ["retry"]
    scheduler._backup_if_needed(now=29.0)
    assert tries == ["retry"]
    scheduler._backup_if_needed(now=30.0)
    assert tries == ["retry", "retry"] and not status.read(data).ok
    scheduler._backup_if_needed(now=60.0)
    assert len(tries) == 3 and status.read(data).ok


# --------------------------------------------------------------------------- what staff see


@pytest.fixture
def laptop_settings(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    settings.DATABASE_FILE = tmp_path / "championship.sqlite3"
    settings.LAPTOP_BACKUP_DIR = tmp_path / "backups"
    settings.LAPTOP_BACKUP_KEEP = 3
    settings.LAPTOP_BACKUP_DEVICE = None
    settings.LAPTOP_BACKUP_DIR.mkdir()
    options = settings.TEMPLATES[0]["OPTIONS"]
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "OPTIONS": {
        **options, "context_processors": [*options["context_processors"],
                                          "laptop.context.backup"]}}]
    settings.HEALTH_EXTRA_CHECKS = ["laptop.health.backup"]
    return settings


@pytest.mark.django_db
def test_staff_pages_and_healthz_show_a_failing_backup(client, laptop_settings):
    from factories import OrganizerFactory, RoundFactory, TournamentFactory

    tournament = TournamentFactory(status="running")
    RoundFactory(tournament=tournament, number=1, status="running")
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    slug = tournament.slug
    pages = [f"/manage/{slug}/", f"/manage/{slug}/desk/", f"/manage/{slug}/desk/live/",
             f"/manage/{slug}/rounds/", f"/manage/{slug}/rounds/1/",
             f"/manage/{slug}/rounds/1/bankers/", f"/manage/{slug}/print/"]
    for page in pages:
        assert 'data-backup="failing"' not in client.get(page, follow=True).text
    assert client.get("/healthz").json()["checks"]["backup"]["ok"]

    since = dt.datetime(2026, 11, 28, 13, 5, tzinfo=dt.UTC)  # 14:05 in Karlsruhe
    status.failed(laptop_settings.DATA_DIR, "the backup folder is gone", now=since)
    for page in pages:
        text = client.get(page, HTTP_ACCEPT_LANGUAGE="de", follow=True).text
        assert 'data-backup="failing"' in text, page
        assert "Sicherung fehlgeschlagen seit 14:05 – USB-Stick prüfen" in text
    health = client.get("/healthz")
    assert health.status_code == 503 and "backup" in health.json()["down"]

    status.succeeded(laptop_settings.DATA_DIR, laptop_settings.LAPTOP_BACKUP_DIR / "c")
    text = client.get(pages[0], HTTP_ACCEPT_LANGUAGE="de").text
    assert "Sicherungen funktionieren wieder" in text and 'data-backup="failing"' not in text
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_healthz_names_a_pulled_stick_before_any_copy_failed(client, laptop_settings):
    laptop_settings.LAPTOP_BACKUP_DIR.rmdir()
    health = client.get("/healthz").json()
    assert not health["checks"]["backup"]["ok"] and "gone" in health["checks"]["backup"]["detail"]


@pytest.mark.django_db
def test_the_banker_is_told_whether_the_copy_exists(laptop_settings):
    from config.safekeeping import take_copy_note
    from laptop import receivers
    from referee.changes import Kind, ResultChange
    from referee.console.views import _confirmed_notice
    from tournament.models import Tournament

    receivers.backup_after_result(ResultChange(  # no database file: no copy
        game_id=1, kind=Kind.CONFIRMED, tournament_id=1, tournament_slug="ka", round_id=1,
        tournament=Tournament(pk=1, slug="ka"),
    ))
    note = take_copy_note()
    assert note is not None and not note.made
    with translation.override("en"):
        assert "NO backup copy" in _confirmed_notice(note)
    assert not status.read(laptop_settings.DATA_DIR).ok  # and the staff pages show it
    with translation.override("de"):
        assert "Eine Sicherungskopie davon ist angelegt" in _confirmed_notice(
            type(note)(made=True, detail="x"))


@pytest.mark.django_db
def test_only_a_confirmation_is_copied_and_an_unforeseen_failure_is_told(laptop_settings,
                                                                        monkeypatch):
    """Counted, disputed or reopened is not final: no copy. A copy that fails in a way the
    copier did not foresee still tells the banker that no copy exists (the steps' runner logs
    it and runs on)."""
    from config.safekeeping import take_copy_note
    from laptop import copies, receivers
    from referee.changes import Kind, ResultChange
    from tournament.models import Tournament

    def change(kind):
        return ResultChange(game_id=1, kind=kind, tournament_id=1, tournament_slug="ka",
                            round_id=1, tournament=Tournament(pk=1, slug="ka"))

    made = []
    monkeypatch.setattr(copies, "make_copy", lambda target, reason: made.append(reason))
    for kind in Kind:
        if kind != Kind.CONFIRMED:
            receivers.backup_after_result(change(kind))
    assert made == [] and take_copy_note() is None

    def broken(target, reason):
        raise OSError("the stick vanished mid-copy")

    monkeypatch.setattr(copies, "make_copy", broken)
    with pytest.raises(OSError):
        receivers.backup_after_result(change(Kind.CONFIRMED))
    note = take_copy_note()
    assert note is not None and not note.made and "vanished" in note.detail


# --------------------------------------------------------------------------- restore


def restore(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "LAPTOP_DATA_DIR": str(data)}
    env.pop("DATABASE_URL", None)
    env.pop("LAPTOP_BACKUP_DIR", None)
    return subprocess.run([sys.executable, "-m", "laptop", "restore", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False, timeout=120)


def test_restore_takes_the_newest_copy_by_content_and_never_goes_back_in_time(database,
                                                                             tmp_path):
    data = tmp_path / "data"
    live = live_copy(database, data)
    stick, own = tmp_path / "stick", data / "backups"
    stick.mkdir()
    own.mkdir()
    (data / "backup-folders").write_text(f"{stick}\n")
    add_history(live, events=3, at="2026-11-28 13:00:00")
    old = backup.backup_now(database=live, folder=own, keep=5)
    add_history(live, events=4, at="2026-11-28 13:10:00")
    newer = backup.backup_now(database=live, folder=stick, keep=5)
    # A misleading name: sorts last, holds the least.
    old.rename(own / "championship-99999999-999999-000000-periodic.sqlite3")
    add_history(live, events=2, at="2026-11-28 13:20:00", slug="second")

    refused = restore(data)
    assert refused.returncode != 0
    assert str(newer) in refused.stdout  # the stick's copy, not the newest name
    assert "2 events" in refused.stderr and "second" in refused.stderr
    assert "make serve" in refused.stderr
    assert sql(live, "SELECT count(*) FROM referee_gameevent") == [(9,)]  # untouched

    done = restore(data, "--older")
    assert done.returncode == 0, done.stderr
    assert "would be lost" in done.stdout and f"restored {newer}" in done.stdout
    assert sql(live, "SELECT count(*) FROM referee_gameevent") == [(7,)]
    assert any("before-restore" in p.name for p in backup.backups(own))


def test_restore_without_a_database_puts_the_newest_copy_back(database, tmp_path):
    data = tmp_path / "data"
    live = live_copy(database, data)
    (data / "backups").mkdir()
    add_history(live, events=3, at="2026-11-28 13:00:00")
    backup.backup_now(database=live, folder=data / "backups", keep=5)
    live.unlink()  # a dead disk: only the copies are left
    done = restore(data)
    assert done.returncode == 0, done.stderr
    assert sql(live, "SELECT count(*) FROM referee_gameevent") == [(3,)]
