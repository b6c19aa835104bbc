"""Done-when test of ``make serve``: a fresh checkout, the command on a free port, the first
organizer through the printed one-time link, a round played through the console API, the
auction stop recorded by the server with no request arriving (≤ 2 s late), the server killed
mid-round, the last backup restored, every confirmed result found — and served again.

Takes about 1.5 minutes: the shortest auction stop a tournament can set is one minute.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import time

import pytest

from rehearsal.client import Client
from rehearsal.laptop import (
    Serve,
    TableBanker,
    confirmed,
    db_rows,
    fresh_checkout,
    ok,
    server_deadline,
    set_up_round,
    utc,
)
from rehearsal.stack import free_port

SLUG = "laptop"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git for the fresh checkout")
def test_a_round_on_one_laptop_survives_a_crash(tmp_path):
    checkout = fresh_checkout(tmp_path / "checkout")
    data = tmp_path / "data"
    port = free_port()
    serve = Serve(checkout, data, port, workers=2, extra=["--backup-minutes", "60"])
    database = serve.database
    try:
        org = serve.organizer()  # through the one-time link printed at the start
        assert oct((data / "secret_key").stat().st_mode & 0o777) == "0o600"
        assert db_rows(database, "PRAGMA journal_mode")[0][0] == "wal"
        tables = set_up_round(org, slug=SLUG, players=12)
        assert len(tables) == 2
        first, second = (TableBanker(serve.base, table) for table in tables)

        first.post({"type": "start"})
        second.post({"type": "start"})
        for i in range(5):
            first.rent(i)
            second.rent(i)
        first.finish(database)  # confirmed before the auction stop
        assert len({row[0] for row in confirmed(database)}) == 1

        # No request at all from here: the server must record the auction stop itself.
        due = utc(db_rows(database, "SELECT auction_stop_due FROM referee_game "
                          "WHERE table_id = ?", second.id)[0][0])
        assert due > dt.datetime.now(dt.UTC)
        stop = None
        while stop is None and dt.datetime.now(dt.UTC) < due + dt.timedelta(seconds=10):
            time.sleep(0.2)
            stop = server_deadline(database, second.id, "auction_stop")
        assert stop is not None, "the auction stop was not recorded without a request"
        assert stop[0] == due
        assert 0 <= stop[1] <= 2.0, f"auction stop recorded {stop[1]:.2f} s after its deadline"
        print(f"auction stop recorded {stop[1]:.2f} s after the deadline, no request")

        for i in range(3):
            second.rent(i)
        second.finish(database)  # confirmed after the auction stop
        before = confirmed(database)
        events_before = db_rows(database, "SELECT count(*) FROM referee_gameevent")[0][0]
        assert len({row[0] for row in before}) == 2
        assert not first.errors and not second.errors
        # The round is still running: the crash comes right after the last confirmation.
    finally:
        serve.kill()

    # The laptop's disk is lost: only the backup folder is left.
    for name in ("championship.sqlite3", "championship.sqlite3-wal", "championship.sqlite3-shm"):
        (data / name).unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["LAPTOP_DATA_DIR"] = str(data)
    restored = subprocess.run([str(checkout / ".venv/bin/python"), "-m", "laptop", "restore"],
                              cwd=checkout, env=env, capture_output=True, text=True, check=False)
    assert restored.returncode == 0, restored.stderr
    assert "-result.sqlite3" in restored.stdout  # the copy made by the last confirmation
    assert confirmed(database) == before
    assert db_rows(database, "SELECT count(*) FROM referee_gameevent")[0][0] == events_before
    assert first.lost_events(database) == second.lost_events(database) == 0

    # The restored database serves again: the standings show both tables' results.
    serve = Serve(checkout, data, port, workers=1)
    try:
        serve.wait_for(r"Stop with Ctrl-C")
        standings = ok(Client(serve.base).get(f"/api/v1/tournaments/{SLUG}/standings")).json()
        assert sum(1 for row in standings["standings"] if row["rounds"]) == 12
    finally:
        serve.stop()
    assert "Last backup" in "".join(serve.lines)  # Ctrl-C makes one more copy
