"""Public standings under load: `GET /api/v1/tournaments/demo/standings` and the HTML page
against `/healthz`, side by side on one gunicorn server (2 workers, wrk, 32 connections),
for the 1,000-player demo. Goal: API ≥ 0.8× and page ≥ 0.5× the requests/s of /healthz.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = 8765
DURATION = os.environ.get("BENCH_SECONDS", "10")


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


def main() -> None:
    if not shutil.which("wrk"):
        print("wrk is not installed (apt-get install wrk): standings load figures skipped")
        return
    workdir = Path(tempfile.mkdtemp(prefix="mcs-standings-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}", ALLOWED_HOSTS="127.0.0.1",
               DJANGO_SETTINGS_MODULE="config.settings")
    if redis_available():
        env.update(REDIS_URL="redis://127.0.0.1:6379/3", CACHE_KEY_PREFIX=f"bench{os.getpid()}")
    python = sys.executable
    started = time.perf_counter()
    subprocess.run([python, "manage.py", "demo", "--players", "1000", "--no-serve"], cwd=ROOT,
                   env=env, check=True, capture_output=True)
    setup = time.perf_counter() - started
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
        shutil.rmtree(workdir, ignore_errors=True)
    cache = "Redis" if "REDIS_URL" in env else "local memory"
    print(f"1,000-player demo loaded in {setup:.1f} s; gunicorn 2 workers, cache: {cache}, "
          f"wrk 32 connections, {DURATION} s each")
    print(f"  /healthz                                {health:8.0f} req/s")
    print(f"  /api/v1/tournaments/demo/standings      {api:8.0f} req/s  "
          f"= {api / health:.2f}× healthz (goal ≥ 0.8)")
    print(f"  /t/demo/ (HTML standings)               {page:8.0f} req/s  "
          f"= {page / health:.2f}× healthz (goal ≥ 0.5)")


if __name__ == "__main__":
    main()
