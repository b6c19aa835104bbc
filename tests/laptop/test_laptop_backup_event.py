"""Done-when test of issue 25 on the real laptop server (``python -m laptop serve`` in a
subprocess, as in test_laptop_event.py): the USB stick vanishes mid-round → no folder is
created, the round desk shows the failure, ``/healthz`` names it, the banker's confirmation
says there is no copy; the stick comes back → the next copy and the bar turns to "work again".
Then a ``kill -9`` followed by ``serve`` loses nothing; a restore that would go back in time is
refused and lists what would be lost; after an ``--older`` restore no page shows an event the
database does not hold (the cache of the replaced database is gone).

The folder check and the retry run every 0.5 s / 2 s here (``LAPTOP_BACKUP_CHECK_SECONDS``,
``LAPTOP_BACKUP_RETRY_SECONDS``; 3 s and 30 s at an event); the waits below are the event's
bounds (30 s).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from rehearsal.client import Client
from rehearsal.laptop import (
    Serve,
    TableBanker,
    confirmed,
    db_rows,
    fresh_checkout,
    ok,
    set_up_round,
)
from rehearsal.stack import free_port

SLUG = "stick"
BOUND = 30.0  # seconds: the event's promise for "shows the failure" and "copies again"


def until(condition, seconds: float = BOUND, step: float = 0.25):
    """Poll ``condition`` (a real server: its clock is the wall clock) and return the seconds
    it took; fail after ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(step)
    raise AssertionError(f"not within {seconds} s")


def pay_bank(banker: TableBanker, amount: int, times: int) -> None:
    for i in range(times):
        banker.post({"type": "pay", "from": banker.players[i % len(banker.players)],
                     "to": "bank", "amount": amount, "reason": "tax"})


def restore(checkout: Path, data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env["LAPTOP_DATA_DIR"] = str(data)
    return subprocess.run([str(checkout / ".venv/bin/python"), "-m", "laptop", "restore", *args],
                          cwd=checkout, env=env, capture_output=True, text=True, check=False,
                          timeout=120)


def feed_shows(page: str, amount: int) -> bool:
    return re.search(rf"zahlt\D{{0,8}}\b{amount}\b[^<]{{0,8}} an die Bank", page) is not None


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git for the checkout")
def test_a_pulled_stick_shows_at_once_and_restores_never_go_back_in_time(tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("LAPTOP_BACKUP_CHECK_SECONDS", "0.5")
    monkeypatch.setenv("LAPTOP_BACKUP_RETRY_SECONDS", "2")
    checkout = fresh_checkout(tmp_path / "checkout")
    data = tmp_path / "data"
    mount = tmp_path / "media"  # the stick's mount point
    mount.mkdir()
    stick = mount / "mcs"
    port = free_port()
    extra = ["--backup-dir", str(stick), "--backup-minutes", "60"]
    serve = Serve(checkout, data, port, workers=1, extra=extra)
    database = serve.database
    try:
        org = serve.organizer()
        tables = set_up_round(org, slug=SLUG, players=12)
        first, second = (TableBanker(serve.base, table) for table in tables)
        first.post({"type": "start"})
        second.post({"type": "start"})
        answer = first.finish(database)
        assert "Sicherungskopie davon ist angelegt" in answer, answer[-2000:]
        desk = f"/manage/{SLUG}/desk/live/"
        assert 'data-backup="failing"' not in ok(org.get(desk)).text

        # The stick is pulled: the automounter removes its folder (mount point and all).
        mount.rename(tmp_path / "pulled")
        shown = until(lambda: 'data-backup="failing"' in org.get(desk).text)
        text = org.get(desk).text
        assert "Sicherung fehlgeschlagen seit" in text and "USB-Stick prüfen" in text
        health = org.get("/healthz")
        assert health.status == 503 and "backup" in health.json()["down"]
        assert "gone" in health.json()["checks"]["backup"]["detail"]
        print(f"pulled stick shown on the desk after {shown:.1f} s")

        pay_bank(second, 11, 3)
        answer = second.finish(database)  # a result while the stick is out
        assert "KEINE Sicherungskopie" in answer, answer[-2000:]
        assert 'class="notice notice-warning" role="alert"' in answer
        assert not mount.exists() and not stick.exists()  # nothing re-created on the disk
        assert 'data-backup="failing"' in ok(org.get(f"/manage/{SLUG}/")).text

        # Plugged in again: a copy holding the second result within the bound, the bar goes.
        (tmp_path / "pulled").rename(mount)
        results = confirmed(database)

        def copied() -> bool:
            newest = sorted(stick.glob("championship-*.sqlite3"))
            return bool(newest) and confirmed(newest[-1]) == results

        back = until(copied)
        until(lambda: 'data-backup="recovered"' in org.get(desk).text)
        text = org.get(desk).text
        assert 'data-backup="failing"' not in text and "Sicherungen funktionieren wieder" in text
        assert ok(org.get("/healthz")).json()["checks"]["backup"]["ok"]
        print(f"copy on the stick {back:.1f} s after it was back")

        # A second tournament's table plays on; its public page is looked at (and cached).
        # (long clocks: no deadline event of the server's changes its event count below)
        other = set_up_round(org, slug="second", players=6, auction_stop=45, time_limit=90)[0]
        banker = TableBanker(serve.base, other)
        banker.post({"type": "start"})
        pay_bank(banker, 33, 3)
        public = f"/t/second/tables/{other['number']}/"
        assert feed_shows(ok(Client(serve.base).get(public)).text, 33)
        events = db_rows(database, "SELECT count(*) FROM referee_gameevent")[0][0]
    finally:
        serve.kill()  # a crash: no Ctrl-C, no last copy

    # The same laptop again: `serve` as the README advises first; nothing is lost.
    serve = Serve(checkout, data, port, workers=1, extra=extra)
    try:
        serve.wait_for(r"Stop with Ctrl-C")
        assert db_rows(database, "SELECT count(*) FROM referee_gameevent")[0][0] == events
        assert banker.lost_events(database) == second.lost_events(database) == 0
        assert confirmed(database) == results
        pay_bank(banker, 22, 2)  # after the start's copy: on no stick
        page = ok(Client(serve.base).get(public)).text  # its feed cached under the count
        assert feed_shows(page, 22)
        count = db_rows(database, "SELECT event_count FROM referee_game WHERE table_id = ?",
                        other["id"])[0][0]
    finally:
        serve.kill()

    # A restore now would go back in time: refused, with what would be lost.
    refused = restore(checkout, data)
    assert refused.returncode != 0
    assert str(stick) in refused.stdout  # the stick's copy is the newest by content
    assert "2 events" in refused.stderr and "make serve" in refused.stderr, refused.stderr
    assert db_rows(database, "SELECT count(*) FROM referee_gameevent")[0][0] == events + 2

    # Told so: the older copy goes back; no page shows the two events it does not hold,
    # not even once two other events bring the table's event count back to the same number.
    done = restore(checkout, data, "--older")
    assert done.returncode == 0, done.stderr
    assert "would be lost" in done.stdout
    assert db_rows(database, "SELECT count(*) FROM referee_gameevent")[0][0] == events
    serve = Serve(checkout, data, port, workers=1, extra=extra)
    try:
        serve.wait_for(r"Stop with Ctrl-C")
        banker = TableBanker(serve.base, other)  # copies hold no sessions: the link again
        pay_bank(banker, 44, 2)  # the same event count as the feed cached before
        assert db_rows(database, "SELECT event_count FROM referee_game WHERE table_id = ?",
                       other["id"])[0][0] == count
        spectator = Client(serve.base)
        for page in (public, "/t/second/tables/", "/t/second/"):
            text = ok(spectator.get(page)).text
            assert not feed_shows(text, 22), f"{page} shows events the database does not hold"
        assert feed_shows(ok(spectator.get(public)).text, 44)
    finally:
        serve.stop()
