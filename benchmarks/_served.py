"""Bench helpers for the 1,000-player demo served by gunicorn: its database, the server, wrk,
a fresh round in which every table plays, and the goals printed beside the figures (issue 29).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHONE = "gzip, deflate, br"  # a phone's Accept-Encoding
NICE = ["nice", "-n", "5"] if shutil.which("nice") else []  # the machine is shared


def decompressed(body: bytes, coding: str) -> bytes:
    """An answer's body as it was before the server compressed it (``coding``: its
    Content-Encoding, ``br``, ``gzip`` or none)."""
    if coding == "br":
        import brotli

        return brotli.decompress(body)
    if coding == "gzip":
        import gzip

        return gzip.decompress(body)
    return body


def server_env(**extra: str) -> dict[str, str]:
    """This process's environment without its database, cache and settings, plus ``extra``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(ALLOWED_HOSTS="127.0.0.1", PYTHONPATH=str(ROOT), **extra)
    return env


def load_demo(path: Path) -> float:
    """The 1,000-player demo in the SQLite file ``path`` (a copy of BENCH_DEMO_DB when given,
    brought up to date; BENCH_KEEP_DEMO=path keeps a copy for the next run; BENCH_DEMO_CACHE=path:
    the first script of a ``make bench`` loads it there, the next ones copy it); seconds taken."""
    started = time.perf_counter()
    cache = os.environ.get("BENCH_DEMO_CACHE")
    given = os.environ.get("BENCH_DEMO_DB") or (cache if cache and Path(cache).exists() else "")
    if given:
        shutil.copy(given, path)
    env = server_env(DATABASE_URL=f"sqlite:///{path}", DJANGO_SETTINGS_MODULE="config.settings",
                     CACHE_DIR=str(path.parent / "cache"))  # not the checkout's var/
    if not given:
        subprocess.run([*NICE, sys.executable, "manage.py", "demo", "--players", "1000",
                        "--no-serve"], cwd=ROOT, env=env, check=True, capture_output=True)
    else:  # an older copy: bring its schema up to date
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                       check=True, capture_output=True)
    for keep in (os.environ.get("BENCH_KEEP_DEMO"), cache):  # for the next run or script
        if keep and not (keep == cache and Path(keep).exists()):
            shutil.copy(path, keep)
    return time.perf_counter() - started


def serve(env: dict[str, str], *, port: int, threads: int = 1,
          app: str = "config.wsgi", nice: bool = True) -> subprocess.Popen:
    """gunicorn with 2 workers on ``port``, once ``/healthz`` answers (``nice=False``: at
    this process's own priority)."""
    server = subprocess.Popen(
        [*(NICE if nice else []), sys.executable, "-m", "gunicorn", app, "--workers", "2",
         "--threads", str(threads), "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env)
    for _ in range(150):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not start")


def workers_cpu(server: subprocess.Popen) -> float:
    """CPU seconds (user + system) the server's workers used so far (Linux /proc)."""
    master = server.pid
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return float("nan")
    ticks = 0
    for pid in children:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def nice_as_the_server() -> None:
    """This process (and what it starts from now on) at the priority the servers run at: a
    load generator on the server's own cores must not take the server's CPU first."""
    if NICE:
        os.nice(max(0, int(NICE[-1]) - os.nice(0)))


def wrk(url: str, *, seconds: str, connections: int = 32, threads: int = 2,
        script: Path | None = None, timeout: int = 10) -> str:
    """wrk's report for ``url`` (a phone's Accept-Encoding, latency distribution; an answer
    later than ``timeout`` seconds counts as an error)."""
    command = [*NICE, "wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
               f"--timeout={timeout}s", "-H", f"Accept-Encoding: {PHONE}"]
    if script is not None:
        command += ["-s", str(script)]
    return subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout


def wrk_rate(out: str) -> float:
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def wrk_errors(out: str) -> int:
    """Answers other than 2xx/3xx and socket errors."""
    found = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return (int(found.group(1)) if found else 0) + (
        sum(int(n) for n in socket.groups()) if socket else 0)


def wrk_percentile(out: str, percent: int) -> str:
    found = re.search(rf"^\s+{percent}%\s+(\S+)", out, re.MULTILINE)
    return found.group(1) if found else "?"


def fresh_round(tournament_id: int) -> list:
    """Every table plays (issue 17: 167 tables at once). The demo's round 1 has tables at
    every stage, a third of them already counted or confirmed; in the bench's copy its
    unfinished games are set aside and the round closed, and round 2 is seated by the
    generator (the bankers carried over), locked and started: the busiest minutes of a
    1,000-player round, every table taking events. Round 1's confirmed results stay in the
    standings. Django must be set up on the bench's copy."""
    from django.utils import timezone

    from referee.models import Game, GameResult
    from tournament.models import Round, Tournament
    from tournament.rounds import services as organizer

    first = Round.objects.get(tournament_id=tournament_id, number=1)
    Game.objects.filter(table__round=first).exclude(
        result__status=GameResult.Status.CONFIRMED).delete()
    Round.objects.filter(pk=first.pk).update(status=Round.Status.COMPLETE,
                                             closed_at=timezone.now())
    tournament = Tournament.objects.get(pk=tournament_id)
    second = organizer.create_round(tournament=tournament)
    tables = organizer.seat_round(round_=second, seconds=1.0).tables
    organizer.lock_round(round_=second)
    organizer.start_round(round_=second)
    return tables


def goal(label: str, figure: str, met: bool | None, target: str) -> None:
    """One line of the goals table: the figure, the goal beside it, met or not (``None``: not
    judged here)."""
    verdict = "met" if met else "NOT MET" if met is not None else "not judged"
    print(f"    {label:48} {figure:>20}   goal {target:28} {verdict}")
