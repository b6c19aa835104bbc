"""``make demo`` behind gunicorn with two workers and no Redis (issue 25, finding 8): the
auction stop of a table nobody opens is recorded by the laptop's scheduler within 2 s, and the
login limit is counted in one cache that both workers share.

The demo is loaded as if some minutes ago, so that the running table's auction stop falls due
about 60 s after the load began, while nobody looks at it (the test checks that the scheduler
was running before then). The workers' process ids come from
gunicorn's access log: every probe after the twelve wrong passwords is refused, by both
workers. With a cache per process (the old embedded default) the twelve attempts are split
between them, and the worker that saw fewer than ten lets the next one through.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.env import database_config, database_identity
from rehearsal.client import Client
from rehearsal.laptop import db_rows, utc
from rehearsal.stack import free_port

ROOT = Path(__file__).resolve().parents[2]
#: Seconds after the load began (after the migration): time for the load and the scheduler to
#: start. The load takes ~22 s on two cores under a load average of 8 (2026-11-27); every
#: second above that is waited for idle. The test fails with a clear message if the scheduler
#: was not running by then.
DUE_AFTER = 60
SCHEDULER_STARTED = "Deadlines           recorded by this process"
LOOK_ALIKE = "\uff42anker6"  # "ｂanker6": a fullwidth b, folded to banker6 by the login


def _log(log: Path) -> list[tuple[str, int, str, str]]:
    """gunicorn's access log: (worker's process id, status, method, path) per request."""
    rows = []
    for line in log.read_text().splitlines() if log.exists() else []:
        pid, status, method, path = line.split(" ", 3)
        rows.append((pid, int(status), method, path))
    return rows


def _wait_healthy(base: str, process: subprocess.Popen, output: Path) -> dt.datetime:
    """Until the demo answers; when its scheduler started (seen at the latest then)."""
    client = Client(base, timeout=5)
    deadline = time.monotonic() + 240
    scheduler = None
    while time.monotonic() < deadline:
        assert process.poll() is None, output.read_text()[-3000:]
        if scheduler is None and SCHEDULER_STARTED in output.read_text():
            scheduler = dt.datetime.now(dt.UTC)
        if client.get("/healthz").status == 200:
            assert SCHEDULER_STARTED in output.read_text(), output.read_text()[-3000:]
            return scheduler or dt.datetime.now(dt.UTC)
        time.sleep(0.5)
    pytest.fail(f"the demo did not answer within 240 s:\n{output.read_text()[-3000:]}")


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_the_demo_with_two_workers_records_deadlines_and_shares_its_cache(tmp_path):
    database = tmp_path / "demo.sqlite3"
    url = f"sqlite:///{database}"
    cache_dir = ROOT / "var" / "cache-embedded" / database_identity(
        database_config(url, sqlite_path=str(database)))
    log = tmp_path / "access.log"
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in ("REDIS_URL", "CACHE_DIR", "DJANGO_SETTINGS_MODULE")}
    env.update(
        DATABASE_URL=url, PYTHONUNBUFFERED="1",
        GUNICORN_CMD_ARGS=f"--access-logfile {log} --access-logformat '%(p)s %(s)s %(m)s %(U)s'",
    )
    minutes_ago = 20 - DUE_AFTER / 60  # the running table started 25 minutes before the load
    output = tmp_path / "demo.out"
    with output.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "demo", "--addr", f"127.0.0.1:{port}",
             "--minutes-ago", f"{minutes_ago:.4f}"],
            cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        scheduler_started = _wait_healthy(base, process, output)
        # The running table (started 25 minutes before the load; the other running one is past
        # its auction stop already). If the load took so long that its auction stop is past
        # already, the lateness below tells whether the scheduler was running by then.
        (game_id, started), = db_rows(
            database, "SELECT id, started_at FROM referee_game WHERE status = 'running' "
                      "ORDER BY started_at DESC LIMIT 1")
        due = utc(started) + dt.timedelta(minutes=45)
        # Else the lateness below would measure the load, not the scheduler.
        assert scheduler_started < due, (
            f"the scheduler started {(scheduler_started - due).total_seconds():.1f} s after the "
            f"auction stop fell due: the load took longer than DUE_AFTER = {DUE_AFTER} s")

        # Twelve wrong passwords, then look-alike names: every worker refuses them.
        guesser = Client(base)
        guesser.get("/login/")
        token = guesser.cookie("csrftoken") or ""

        def attempt(username: str) -> int:
            return guesser.request("POST", "/login/", form={
                "username": username, "password": "not-the-password",
                "csrfmiddlewaretoken": token}).status

        first = [attempt("banker6") for _ in range(12)]
        assert first[0] == 200, first  # the form answered (a wrong password), not refused
        probes: list[int] = []
        while len(probes) < 40:
            probes.append(attempt(LOOK_ALIKE))
            posts = [pid for pid, _, method, path in _log(log)
                     if method == "POST" and path == "/login/"]
            if len(probes) >= 4 and len(set(posts[12:])) == 2:
                break
        posts = [pid for pid, _, method, path in _log(log)
                 if method == "POST" and path == "/login/"]
        assert len(set(posts[12:])) == 2, "one worker answered every probe: cannot tell"
        # Refused by both workers: each counts the failures the other saw.
        assert set(probes) == {429}, probes

        # Nobody opens the running table: its auction stop is recorded all the same.
        recorded = None
        while recorded is None and dt.datetime.now(dt.UTC) < due + dt.timedelta(seconds=10):
            recorded = db_rows(database, "SELECT recorded_at, data FROM referee_gameevent "
                                         "WHERE game_id = ? AND type = 'auction_stop'", game_id)
            recorded = recorded or None
            time.sleep(0.2)
        assert recorded, f"no auction stop 10 s after it fell due:\n{output.read_text()[-2000:]}"
        at = dt.datetime.fromisoformat(json.loads(recorded[0][1])["at"])
        assert at == due
        late = (utc(recorded[0][0]) - due).total_seconds()
        assert 0 <= late <= 2, late
        table_requests = [path for _, _, _, path in _log(log) if "/tables/" in path]
        assert table_requests == []  # nobody looked
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(cache_dir, ignore_errors=True)
