"""Standings on the 1,000-player demo: what a confirmation costs, and how the public reads hold.

1. A confirmation with the 1,000-player recompute (issue 29), in process on a copy of the
   demo (SQLite): each of the demo's counted results (up to BENCH_CONFIRMATIONS, 20; one more
   first, untimed, to warm up) is confirmed with its code as a player would
   (``referee.results.confirm_result``, whose after-commit steps recompute the standings).
   Printed: median and max seconds, queries per confirmation and the standings rows written
   (rows new or with changed values, and rows deleted: a snapshot before and after).
   Goal: median ≤ 0.25 s, ≤ 15 queries plus the changed rows.
2. Under load: `GET /api/v1/tournaments/demo/standings` and the HTML page against `/healthz`,
   side by side on one gunicorn server (2 workers, wrk, 32 connections). Goal: API ≥ 0.8×
   and page ≥ 0.5× the requests/s of /healthz. Skipped without wrk.

Environment: BENCH_SECONDS (wrk, per run: 10), BENCH_CONFIRMATIONS (20), BENCH_DEMO_DB (a copy
of an already loaded 1,000-player demo database, to skip the minutes of loading;
BENCH_KEEP_DEMO=path keeps one), BENCH_CONFIRM_ONLY=1 (part 1 only).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = 8765
DURATION = os.environ.get("BENCH_SECONDS", "10")
CONFIRMATIONS = int(os.environ.get("BENCH_CONFIRMATIONS", "20"))
GOAL_MEDIAN = 0.25  # seconds (issue 29)
GOAL_QUERIES = 15  # plus the changed rows


def redis_available() -> bool:
    if not shutil.which("redis-cli"):
        return False
    probe = subprocess.run(["redis-cli", "-h", "127.0.0.1", "ping"], capture_output=True,
                           text=True, check=False)
    return probe.stdout.strip() == "PONG"


def wrk(url: str) -> float:
    out = subprocess.run(
        ["wrk", "-t2", "-c32", f"-d{DURATION}s", "--latency", url],
        capture_output=True, text=True, check=True,
    ).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non_2xx:
        raise SystemExit(f"{url}: {non_2xx.group(1)} error responses\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def _env(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{database}", ALLOWED_HOSTS="127.0.0.1",
               DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(ROOT))
    return env


def load_demo(path: Path) -> float:
    """The 1,000-player demo in ``path`` (or a copy of BENCH_DEMO_DB, migrated); seconds."""
    started = time.perf_counter()
    given = os.environ.get("BENCH_DEMO_DB")
    if given:
        shutil.copy(given, path)
        command = ["manage.py", "migrate", "-v0"]  # an older copy: its schema brought up to date
    else:
        command = ["manage.py", "demo", "--players", "1000", "--no-serve"]
    subprocess.run([sys.executable, *command], cwd=ROOT, env=_env(path), check=True,
                   capture_output=True)
    if os.environ.get("BENCH_KEEP_DEMO") and not given:  # for the next run's BENCH_DEMO_DB
        shutil.copy(path, os.environ["BENCH_KEEP_DEMO"])
    return time.perf_counter() - started


def _snapshot(model) -> dict[int, tuple]:
    """Every stored standings row, by id, with all its values (JSON as sorted text)."""
    columns = [field.attname for field in model._meta.concrete_fields]
    return {
        values[0]: tuple(json.dumps(v, sort_keys=True) if isinstance(v, dict | list) else v
                         for v in values)
        for values in model.objects.values_list(*columns)
    }


def measure_confirmations() -> None:
    """Part 1, in the child process (Django set up on the copy given by DATABASE_URL): a JSON
    line with the seconds, queries and rows written of each confirmation."""
    sys.path.insert(0, str(ROOT))
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from referee import results
    from referee.models import GameResult
    from scoring.models import StandingRow

    counted = list(
        GameResult.objects.filter(status=GameResult.Status.COUNTED,
                                  game__table__round__tournament__slug="demo")
        .order_by("game__table__number")
        .values_list("game_id", "game__confirmation_code")[: CONFIRMATIONS + 1]
    )
    players = StandingRow.objects.filter(tournament__slug="demo", scope="live").count()
    measured = []
    for index, (game_id, code) in enumerate(counted):
        before = _snapshot(StandingRow)
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            results.confirm_result(game_id=game_id, revision=results.revision_of(game_id),
                                   code=code, by=None)
            seconds = time.perf_counter() - started
        after = _snapshot(StandingRow)
        written = sum(1 for pk, row in after.items() if before.get(pk) != row)
        deleted = sum(1 for pk in before if pk not in after)
        statements = [q["sql"] for q in queries.captured_queries
                      if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        if index:  # the first one warms up (imports, caches)
            measured.append({"seconds": seconds, "queries": len(statements),
                             "written": written, "deleted": deleted})
    print(json.dumps({"players": players, "confirmations": measured}))


def confirmations(demo: Path, workdir: Path) -> None:
    copy = workdir / "confirm.sqlite3"
    shutil.copy(demo, copy)
    out = subprocess.run([sys.executable, __file__, "--confirmations"], cwd=ROOT,
                         env=_env(copy), check=True, capture_output=True, text=True).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    done = figures["confirmations"]
    if not done:
        print("no counted result in the demo to confirm")
        return
    seconds = [c["seconds"] for c in done]
    queries = [c["queries"] for c in done]
    written = [c["written"] for c in done]
    deleted = [c["deleted"] for c in done]
    median = statistics.median(seconds)
    print(f"Confirmation with the recompute of {figures['players']} players' standings "
          f"(in process, SQLite, {len(done)} confirmations after one to warm up):")
    print(f"  seconds: median {median:.3f}, max {max(seconds):.3f} "
          f"(goal: median ≤ {GOAL_MEDIAN}) {'ok' if median <= GOAL_MEDIAN else 'MISSED'}")
    print(f"  standings rows written (new or changed, both scopes of {2 * figures['players']}):"
          f" median {statistics.median(written):.0f}, min {min(written)}, max {max(written)};"
          f" deleted: median {statistics.median(deleted):.0f}")
    print(f"  queries: median {statistics.median(queries):.0f}, min {min(queries)}, "
          f"max {max(queries)} (goal: ≤ {GOAL_QUERIES} plus the changed rows)")


def load(demo: Path, workdir: Path) -> None:
    if not shutil.which("wrk"):
        print("wrk is not installed (apt-get install wrk): standings load figures skipped")
        return
    env = _env(demo)
    env.pop("PYTHONPATH")
    if redis_available():
        env.update(REDIS_URL="redis://127.0.0.1:6379/3", CACHE_KEY_PREFIX=f"bench{os.getpid()}")
    python = sys.executable
    server = subprocess.Popen(
        [python, "-m", "gunicorn", "config.wsgi", "--workers", "2", "--bind",
         f"127.0.0.1:{PORT}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )
    base = f"http://127.0.0.1:{PORT}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        for path in ("/api/v1/tournaments/demo/standings", "/t/demo/"):
            for _ in range(4):  # warm both workers' caches
                urllib.request.urlopen(base + path, timeout=30).read()
        health = wrk(f"{base}/healthz")
        api = wrk(f"{base}/api/v1/tournaments/demo/standings")
        page = wrk(f"{base}/t/demo/")
    finally:
        server.terminate()
        server.wait(timeout=10)
    cache = "Redis" if "REDIS_URL" in env else "local memory"
    print(f"Under load: gunicorn 2 workers, cache: {cache}, wrk 32 connections, "
          f"{DURATION} s each")
    print(f"  /healthz                                {health:8.0f} req/s")
    print(f"  /api/v1/tournaments/demo/standings      {api:8.0f} req/s  "
          f"= {api / health:.2f}× healthz (goal ≥ 0.8)")
    print(f"  /t/demo/ (HTML standings)               {page:8.0f} req/s  "
          f"= {page / health:.2f}× healthz (goal ≥ 0.5)")


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="mcs-standings-"))
    try:
        demo = workdir / "db.sqlite3"
        setup = load_demo(demo)
        print(f"1,000-player demo loaded in {setup:.1f} s")
        confirmations(demo, workdir)
        if not os.environ.get("BENCH_CONFIRM_ONLY"):
            load(demo, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--confirmations"]:
        measure_confirmations()
    else:
        main()
