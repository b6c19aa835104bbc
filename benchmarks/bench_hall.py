"""A hall of spectators (issue 17), on the 1,000-player demo.

1. Throughput, embedded default (SQLite, local-memory cache), gunicorn -w 2, wrk -c32 with a
   phone's ``Accept-Encoding``, side by side with ``/healthz`` in one run (ROUNDS rounds of
   healthz → standings API → leaderboard, every ratio printed): goals API ≥ 0.8×, page ≥ 0.5×.
2. On the wire (compressed as a phone takes it): leaderboard ≤ 40 kB, standings API ≤ 25 kB.
3. A simulated hall (SQLite in WAL mode, Redis as the cache the web processes share,
   gunicorn -w 2 --threads 4): in the bench's copy of the demo, round 1 is closed (its
   unfinished games set aside: a third of its tables had results already, so only ~100 took
   events) and round 2 is seated and started, so all 167 tables play. Every table posts
   through the console API at a real pace (an event every 10–30 s per table); from the 20th
   second one table every 3.6 s ends its game, counts it and has it confirmed through the
   console (167 results in 10 minutes; the request recomputes the standings). 300 spectators,
   one asyncio process with a keep-alive connection each, poll like the pages' script does
   (the version document every 1.5 s, skipped while the last poll is busy, then only the
   changed cards or standings). Printed: bytes per spectator per minute (response headers +
   bodies, downloaded), aim < 100 kB; how many polls were answered within the 1.5 s.

Environment: BENCH_SECONDS (wrk, per run: 5), BENCH_ROUNDS (3), BENCH_HALL_SECONDS (120),
BENCH_SPECTATORS (300), BENCH_HALL_PORT (8766), BENCH_REDIS_URL (redis://127.0.0.1:6379/4),
BENCH_HALL_ONLY=1 (part 3 only), BENCH_DEMO_DB (a copy of an already loaded 1,000-player demo database,
to skip the 3-minute load; BENCH_KEEP_DEMO=path keeps one). Runs under ``nice``: the machine is shared.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PORT = int(os.environ.get("BENCH_HALL_PORT", "8766"))
DURATION = os.environ.get("BENCH_SECONDS", "5")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
HALL_SECONDS = float(os.environ.get("BENCH_HALL_SECONDS", "120"))
SPECTATORS = int(os.environ.get("BENCH_SPECTATORS", "300"))
PHONE = "gzip, deflate, br"
SLUG = "demo"
POLL = 1.5  # seconds: the pages' version poll (scoring.public.views.VERSIONS_POLL_MS)
NICE = ["nice", "-n", "5"] if shutil.which("nice") else []


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(ALLOWED_HOSTS="127.0.0.1", PYTHONPATH=str(ROOT), **extra)
    return env


def load_demo(path: Path) -> float:
    started = time.perf_counter()
    given = os.environ.get("BENCH_DEMO_DB")
    if given:
        shutil.copy(given, path)
    env = _env(DATABASE_URL=f"sqlite:///{path}", DJANGO_SETTINGS_MODULE="config.settings")
    if not given:
        subprocess.run([*NICE, sys.executable, "manage.py", "demo", "--players", "1000",
                        "--no-serve"], cwd=ROOT, env=env, check=True, capture_output=True)
    else:  # an older copy: bring its schema up to date
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                       check=True, capture_output=True)
    if os.environ.get("BENCH_KEEP_DEMO"):  # for the next run's BENCH_DEMO_DB
        shutil.copy(path, os.environ["BENCH_KEEP_DEMO"])
    return time.perf_counter() - started


def serve(env: dict[str, str], *, threads: int = 1) -> subprocess.Popen:
    server = subprocess.Popen(
        [*NICE, sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "2",
         "--threads", str(threads), "--bind", f"127.0.0.1:{PORT}", "--log-level", "warning"],
        cwd=ROOT, env=env)
    for _ in range(150):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not start")


def get(path: str, *, encoding: str = PHONE, etag: str = "") -> tuple[int, dict, bytes, int]:
    """(status, headers, body, bytes on the wire: status line, headers and body)."""
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    headers = {"Accept-Encoding": encoding}
    if etag:
        headers["If-None-Match"] = etag
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    head = response.getheaders()
    connection.close()
    wire = 17 + sum(len(k) + len(v) + 4 for k, v in head) + 2 + len(body)
    return response.status, {k.lower(): v for k, v in head}, body, wire


def wrk(path: str) -> float:
    out = subprocess.run(
        [*NICE, "wrk", "-t2", "-c32", f"-d{DURATION}s", "-H", f"Accept-Encoding: {PHONE}",
         f"http://127.0.0.1:{PORT}{path}"],
        capture_output=True, text=True, check=True).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non_2xx:
        raise SystemExit(f"{path}: {non_2xx.group(1)} error responses\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


# --------------------------------------------------------------------------- 1 and 2


def throughput_and_sizes(db: Path) -> None:
    env = _env(DATABASE_URL=f"sqlite:///{db}", DJANGO_SETTINGS_MODULE="config.settings")
    server = serve(env)
    api, page = "/api/v1/tournaments/demo/standings", "/t/demo/"
    try:
        for path in (api, page, "/t/demo/tables/", "/t/demo/live/v", "/healthz"):
            for _ in range(6):  # warm both workers' caches
                get(path)
        print("On the wire (Accept-Encoding: gzip, deflate, br; plain size in brackets):")
        goals = {page: 40_000, api: 25_000}
        for path in (page, api, "/t/demo/?all=1", "/t/demo/tables/",
                     "/api/v1/tournaments/demo/tables", "/t/demo/live/v",
                     "/t/demo/live/standings/top"):
            _, headers, body, wire = get(path)
            _, _, plain, _ = get(path, encoding="identity")
            goal = f"  (goal ≤ {goals[path] // 1000} kB)" if path in goals else ""
            print(f"  {path:40} {len(body) / 1000:7.1f} kB {headers.get('content-encoding', '-'):5}"
                  f" [{len(plain) / 1000:6.1f} kB]{goal}")
        if not shutil.which("wrk"):
            print("wrk is not installed (apt-get install wrk): throughput skipped")
            return
        print(f"Throughput, gunicorn 2 workers, wrk 32 connections, {DURATION} s each, "
              f"{ROUNDS} rounds side by side:")
        api_ratios, page_ratios = [], []
        for n in range(ROUNDS):
            health = wrk("/healthz")
            api_rate = wrk(api)
            page_rate = wrk(page)
            api_ratios.append(api_rate / health)
            page_ratios.append(page_rate / health)
            print(f"  round {n + 1}: /healthz {health:6.0f} req/s · standings API {api_rate:6.0f}"
                  f" = {api_rate / health:.2f}× · leaderboard {page_rate:6.0f}"
                  f" = {page_rate / health:.2f}×")
        print(f"  standings API {min(api_ratios):.2f}–{max(api_ratios):.2f}× healthz "
              f"(goal ≥ 0.8 every time); leaderboard {min(page_ratios):.2f}–"
              f"{max(page_ratios):.2f}× (goal ≥ 0.5)")
    finally:
        server.terminate()
        server.wait(timeout=20)


# --------------------------------------------------------------------------- 3: the hall


class Connection:
    """One phone's keep-alive HTTP/1.1 connection (asyncio streams): a browser keeps its
    connection between polls; a closed one is opened again once."""

    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def get(self, path: str, etag: str = "") -> tuple[int, dict, bytes, int]:
        """(status, headers, body, bytes on the wire: status line, headers and body)."""
        request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\n"
                   f"Accept-Encoding: {PHONE}\r\n"
                   + (f"If-None-Match: {etag}\r\n" if etag else "") + "\r\n").encode()
        for attempt in (1, 2):
            reused = self.writer is not None
            if not reused:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", PORT)
            try:
                self.writer.write(request)
                await self.writer.drain()
                return await self._answer()
            except (ConnectionError, asyncio.IncompleteReadError, EOFError):
                self.close()
                if attempt == 2 or not reused:
                    raise
        raise AssertionError("unreachable")

    async def _answer(self) -> tuple[int, dict, bytes, int]:
        reader = self.reader
        line = await reader.readline()
        if not line:
            raise EOFError("closed")
        wire = len(line)
        status = int(line.split()[1])
        headers: dict[str, str] = {}
        while True:
            line = await reader.readline()
            wire += len(line)
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if status in (204, 304):
            body = b""
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size_line = await reader.readline()
                wire += len(size_line)
                size = int(size_line.split(b";")[0], 16)
                chunk = await reader.readexactly(size + 2)
                wire += len(chunk)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            body = b"".join(parts)
            wire -= len(body)  # counted below
        else:
            body = await reader.read()
            self.close()
        wire += len(body)
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body, wire


def decoded(headers: dict, body: bytes) -> str:
    coding = headers.get("content-encoding", "")
    if coding == "br":
        import brotli

        body = brotli.decompress(body)
    elif coding == "gzip":
        import gzip

        body = gzip.decompress(body)
    return body.decode()


class Spectator:
    """A phone on the leaderboard or the tables page, polling like static/js/public.js: the
    version document every 1.5 s (the whole one first, then only what changed since the one
    it has: ``?since=g``; a poll is skipped while the last one is still busy), then
    the standings fragment when their generation moved and only the cards that changed (the
    whole tables fragment when more than 60 did, or the round changed)."""

    def __init__(self, index: int, page: str) -> None:
        self.index, self.page = index, page
        self.connection = Connection()
        self.rng = random.Random(index)
        self.bytes = 0
        self.requests = 0
        self.errors = 0
        self.polls = 0  # polls done
        self.skipped = 0  # polls not started because the previous one was still busy
        self.in_time = 0  # polls answered (version document and what changed) within 1.5 s
        self.poll_seconds: list[float] = []
        self.poll_bytes = 0  # bytes after the page load (the steady part)
        self.watched = 0.0  # seconds from the page load to the end
        self.kinds: dict[str, list[int]] = {}  # what was fetched: [requests, bytes]

    async def fetch(self, path: str, etag: str = "") -> tuple[int, dict, bytes]:
        try:
            status, headers, body, wire = await self.connection.get(path, etag)
        except (OSError, EOFError, asyncio.IncompleteReadError, ValueError, IndexError):
            self.errors += 1
            self.connection.close()
            return 0, {}, b""
        self.bytes += wire
        self.requests += 1
        kind = path.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
        kind = kind if kind in ("v", "cards", "tables", "standings", "top") else "page"
        kind += "" if status != 304 else " 304"
        self.kinds[kind] = [self.kinds.get(kind, [0, 0])[0] + 1,
                            self.kinds.get(kind, [0, 0])[1] + wire]
        if status >= 500:
            self.errors += 1
        return status, headers, body

    async def run(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(self.rng.uniform(0, POLL * 3))  # arrivals spread out
        opened = loop.time()
        status, headers, body = await self.fetch(self.page)
        html = decoded(headers, body) if status == 200 else ""
        tables = "data-live-tables" in html
        cards = dict(re.findall(r'data-table="(\d+)" data-v="([^"]*)"', html))
        standings = re.search(r'data-live-standings="([^"]+)" data-etag="([^"]*)"', html)
        standings_url, standings_etag = (standings.group(1), standings.group(2)) if standings \
            else ("", "")
        round_key = (re.search(r'data-round="([^"]*)"', html) or [None, None])[1]
        tables_etag = ""
        version_etag, generation = "", None
        since, known = None, {}  # the document the page has: ?since=g asks only what changed
        loaded = self.bytes
        tick = loop.time()
        while True:
            tick += POLL
            now = loop.time()
            if now > tick:  # setInterval fired while busy: those polls never happened
                missed = int((now - tick) // POLL) + 1
                self.skipped += missed
                tick += missed * POLL
            if tick >= until:
                break
            await asyncio.sleep(tick - loop.time())
            started = loop.time()
            if since:
                status, headers, body = await self.fetch(f"/t/{SLUG}/live/v?since={since}")
            else:
                status, headers, body = await self.fetch(f"/t/{SLUG}/live/v", version_etag)
            self.polls += 1
            if status == 200:
                version_etag = headers.get("etag", version_etag)
                doc = json.loads(decoded(headers, body))
                if "d" in doc:
                    known.update(doc["d"])
                else:
                    known = dict(doc["t"])
                since, doc["t"] = doc.get("g"), known
                if generation is not None and doc["s"] != generation and standings_url:
                    status, headers, _ = await self.fetch(standings_url, standings_etag)
                    if status == 200:
                        standings_etag = headers.get("etag", standings_etag)
                generation = doc["s"]
                if tables:
                    changed = [n for n, v in doc["t"].items() if cards.get(n) != v]
                    if doc["r"] != round_key or len(changed) > 60:
                        status, headers, _ = await self.fetch(f"/t/{SLUG}/live/tables",
                                                              tables_etag)
                        if status == 200:
                            tables_etag = headers.get("etag", "")
                        round_key = doc["r"]
                        cards = dict(doc["t"])
                    elif changed:
                        status, _, _ = await self.fetch(f"/t/{SLUG}/live/cards?n="
                                                        + ",".join(changed))
                        if status == 200:
                            cards.update({n: doc["t"][n] for n in changed})
            seconds = loop.time() - started
            self.poll_seconds.append(seconds)
            self.in_time += status != 0 and seconds <= POLL
            self.poll_bytes = self.bytes - loaded
        self.watched = loop.time() - opened
        self.connection.close()


async def _spectate(count: int, seconds: float) -> list[dict]:
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    crowd = [Spectator(i, f"/t/{SLUG}/" if i % 2 == 0 else f"/t/{SLUG}/tables/")
             for i in range(count)]
    await asyncio.gather(*(spectator.run(until) for spectator in crowd))
    return [{"bytes": s.bytes, "requests": s.requests, "errors": s.errors, "polls": s.polls,
             "skipped": s.skipped, "in_time": s.in_time, "poll_bytes": s.poll_bytes,
             "watched": s.watched, "poll_seconds": s.poll_seconds, "kinds": s.kinds}
            for s in crowd]


def spectators_process(count: int, seconds: float, out) -> None:
    """The crowd in a process of its own (one event loop; the bankers' threads and their
    GIL are elsewhere), so the figures are the server's, not the client's."""
    out.put(asyncio.run(_spectate(count, seconds)))


def fresh_round(tournament_id: int) -> list:
    """Every table plays (issue 17: 167 tables at once). The demo's round 1 has tables at
    every stage, a third of them already counted or confirmed; in the bench's copy its
    unfinished games are set aside and the round closed, and round 2 is seated by the
    generator (the bankers carried over), locked and started: the busiest minutes of a
    1,000-player round, every table taking events. Round 1's confirmed results stay in the
    standings."""
    from django.utils import timezone

    from referee.models import Game, GameResult
    from tournament import services as organizer
    from tournament.models import Round, Tournament

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


def hall(db: Path) -> None:
    """Several web processes need a shared cache: SQLite (WAL) and Redis, as a hall with a few
    hundred phones would run it. No Celery worker: a confirmation recomputes the standings in
    its own request."""
    copy = db.parent / "hall.sqlite3"
    shutil.copy(db, copy)
    import sqlite3

    with sqlite3.connect(copy) as connection:  # readers never wait for a writer
        connection.execute("PRAGMA journal_mode=WAL")
    extra = {"DATABASE_URL": f"sqlite:///{copy}", "DJANGO_SETTINGS_MODULE": "config.settings",
             "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4"),
             "CACHE_KEY_PREFIX": f"benchhall{os.getpid()}"}
    env = _env(**extra)
    os.environ.update(extra)
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    import django

    django.setup()
    from django.db import close_old_connections

    from referee.models import Game, GameResult
    from rehearsal.banker import Banker, Plan, Stats
    from tournament import banker_links
    from tournament.models import Tournament

    tournament_id = Tournament.objects.get(slug=SLUG).pk
    tables = fresh_round(tournament_id)
    links = {table.pk: banker_links.link_path(banker_links.issue_link(table=table,
                                                                       banker=table.banker))
             for table in tables}
    close_old_connections()
    server = serve(env, threads=4)  # like the event laptop's gthread workers
    stop = threading.Event()
    stats = Stats()
    plan = Plan(gap=(10.0, 30.0), duplicate_rate=0.0, void_rate=0.02)
    confirmed: list[float] = []  # seconds the confirming request took (standings included)

    class HallBanker(Banker):
        """Plays at a table's pace; told to, ends the game (two bankruptcies), counts it and
        has a player's code confirm it, all through the console as a phone would."""

        wake: threading.Event
        finish: threading.Event

        def play(self) -> None:
            self.wake.wait(self.rng.uniform(0, 20))  # not all at once
            opened = self.client.get(self.link)
            if opened.status != 200:
                raise RuntimeError(f"banker link answered {opened.status}")
            self.sync()
            while not stop.is_set() and not self.finished:
                if self.finish.is_set():
                    self.end_and_confirm()
                    return
                self.step()
                self.wake.wait(self.rng.uniform(*self.plan.gap))

        def end_and_confirm(self) -> None:
            for _ in range(20):
                if self.finished:
                    break
                if not self.mirror().state.started:
                    self.post({"type": "start"})
                else:
                    self.bankrupt_one()
            url = f"/banker/table/{self.table_id}"
            code = Game.objects.filter(table_id=self.table_id).values_list(
                "confirmation_code", flat=True).get()
            close_old_connections()
            self.client.post(f"{url}/count/", form={"seq": str(len(self.events))})
            answer = self.client.post(f"{url}/confirm/", form={"code": code})
            if answer.status < 400:
                confirmed.append(answer.seconds)
            else:
                self.stats.fail(f"table {self.table_id}: confirm answered {answer.status}")

    bankers = []
    for index, table in enumerate(tables):
        banker = HallBanker(base=f"http://127.0.0.1:{PORT}", table_id=table.pk,
                            link=links[table.pk], plan=plan, stats=stats, seed=index,
                            finisher=lambda b: None)
        banker.wake, banker.finish = threading.Event(), threading.Event()
        bankers.append(banker)

    def confirmer() -> None:
        """From the 20th second on, one table ends and is confirmed every 3.6 s (167 results
        in 10 minutes)."""
        if stop.wait(20):
            return
        for banker in bankers:
            banker.finish.set()
            banker.wake.set()
            if stop.wait(3.6):
                return

    import multiprocessing

    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    crowd = context.Process(target=spectators_process, args=(SPECTATORS, HALL_SECONDS, out),
                            daemon=True)
    try:
        crowd.start()
        started = time.monotonic()
        for thread in [*bankers, threading.Thread(target=confirmer, daemon=True)]:
            thread.start()
        results = out.get(timeout=HALL_SECONDS + 120)
        stop.set()
        elapsed = time.monotonic() - started
        for banker in bankers:
            banker.wake.set()
        for banker in bankers:
            banker.join(timeout=30)
        crowd.join(timeout=30)
        results_db = GameResult.objects.filter(game__table__round__tournament_id=tournament_id,
                                               game__table__round__number=2,
                                               status=GameResult.Status.CONFIRMED).count()
    finally:
        server.terminate()
        server.wait(timeout=20)
    events = stats.posted + stats.replayed
    took_events = sum(1 for banker in bankers if stats.acked.get(banker.table_id))
    latencies = sorted(stats.latencies)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p95 = latencies[int(0.95 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
    print(f"Simulated hall, {elapsed:.0f} s (SQLite WAL, Redis as the shared cache, "
          "gunicorn 2 workers × 4 threads; spectators: one asyncio process, keep-alive):")
    print(f"  {len(bankers)} tables seated in a fresh round, {took_events} took events: "
          f"{events} events = {events / elapsed:.1f}/s, post p50 {p50:.0f} ms, p95 {p95:.0f} ms,"
          f" {len(stats.failures)} failures")
    slowest = max(confirmed) * 1000 if confirmed else float("nan")
    print(f"  {results_db} results confirmed through the console (one every 3.6 s from the "
          f"20th second; the request recomputes the 1,000-player standings: median "
          f"{statistics.median(confirmed) * 1000 if confirmed else float('nan'):.0f} ms, "
          f"max {slowest:.0f} ms)")
    requests = sum(r["requests"] for r in results)
    errors = sum(r["errors"] for r in results)
    print(f"  {len(results)} spectators (half on the leaderboard, half on the tables page): "
          f"{requests / elapsed:.0f} req/s, {errors} errors")
    per_minute = [r["bytes"] / (r["watched"] / 60) for r in results if r["watched"] > 0]
    steady = [r["poll_bytes"] / (r["watched"] / 60) for r in results if r["watched"] > 0]
    polls = [r["polls"] / (r["watched"] / 60) for r in results if r["watched"] > 0]
    every = sorted(s for r in results for s in r["poll_seconds"])
    done = sum(r["polls"] for r in results)
    in_time = sum(r["in_time"] for r in results)
    skipped = sum(r["skipped"] for r in results)
    if per_minute:
        print(f"  bytes per spectator per minute: median {statistics.median(per_minute) / 1000:.1f}"
              f" kB, max {max(per_minute) / 1000:.1f} kB with the page load "
              f"(aim < 100 kB); polls alone median {statistics.median(steady) / 1000:.1f} kB,"
              f" max {max(steady) / 1000:.1f} kB")
        print(f"  polls per spectator per minute: median {statistics.median(polls):.1f} "
              f"(the page polls {60 / POLL:.0f}); {in_time} of {done} polls answered within "
              f"{POLL} s ({100 * in_time / max(done, 1):.1f} %), {skipped} skipped while busy;"
              f" a poll (version document and what changed) p50 "
              f"{every[len(every) // 2] * 1000:.0f} ms, p95 "
              f"{every[int(0.95 * (len(every) - 1))] * 1000:.0f} ms, max {every[-1] * 1000:.0f} ms")
    kinds: dict[str, list[int]] = {}
    for r in results:
        for kind, (n, size) in r["kinds"].items():
            kinds[kind] = [kinds.get(kind, [0, 0])[0] + n, kinds.get(kind, [0, 0])[1] + size]
    print("  what the spectators fetched (requests, mean bytes, share of all bytes): " + "; ".join(
        f"{kind} {n} × {size / n:.0f} B = {100 * size / max(1, sum(b for _, b in kinds.values())):.0f} %"
        for kind, (n, size) in sorted(kinds.items(), key=lambda item: -item[1][1])))
    for failure in stats.failures[:5]:
        print("   ", failure)


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="mcs-hall-"))
    try:
        db = workdir / "demo.sqlite3"
        setup = load_demo(db)
        print(f"1,000-player demo ready in {setup:.0f} s")
        if not os.environ.get("BENCH_HALL_ONLY"):
            throughput_and_sizes(db)
        hall(db)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
