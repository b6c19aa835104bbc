"""The hall bench's phones (``bench_hall.py``): the spectators' keep-alive connections polling
like ``static/js/public.js`` (one asyncio process for the whole crowd), and the bankers' HTTP
client made a phone's (compressed answers, every request's cost noted)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
import urllib.parse

from _served import PHONE, decompressed

PORT = int(os.environ.get("BENCH_HALL_PORT", "8766"))
SLUG = "demo"
POLL = 1.5  # seconds: the pages' version poll (public.views.VERSIONS_POLL_MS)


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
        """The answer, read with as few awaits as a phone's network stack would cost us: the
        status line and headers at once, then the body (the load generator shares the two
        cores with the server, so its own CPU per poll is kept small)."""
        reader = self.reader
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as error:
            if not error.partial:
                raise EOFError("closed") from None
            raise
        wire = len(head)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
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
    return decompressed(body, headers.get("content-encoding", "")).decode()


class Spectator:
    """A phone on the leaderboard or the tables page, polling like static/js/public.js: the
    version document every 1.5 s (the whole one first, then only what changed since the one
    it has: ``?since=g``; a poll is skipped while the last one is still busy), then
    the standings fragment when their generation moved; on the tables page the delta carries
    the changed cards (``&cards=1``), a card it lacks is fetched (the whole tables fragment
    when more than 60 changed, or the round changed)."""

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
        try:  # a phone gives up after 30 s (TimeoutError is an OSError)
            async with asyncio.timeout(30):  # no task per request, unlike wait_for
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
            if since:  # the tables page asks for the changed cards with the delta
                status, headers, body = await self.fetch(
                    f"/t/{SLUG}/live/v?since={since}" + ("&cards=1" if tables else ""))
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
                    else:
                        carried = doc.get("c") or {}
                        cards.update({n: doc["t"][n] for n in changed if n in carried})
                        missing = [n for n in changed if n not in carried]
                        if missing:
                            status, _, _ = await self.fetch(f"/t/{SLUG}/live/cards?n="
                                                            + ",".join(missing))
                            if status == 200:
                                cards.update({n: doc["t"][n] for n in missing})
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
    GIL are elsewhere), so the figures are the server's, not the client's; with the CPU
    seconds the crowd itself used (it shares the two cores with the server)."""
    started = time.process_time()
    crowd = asyncio.run(_spectate(count, seconds))
    out.put((crowd, time.process_time() - started))


def phone_client_class():
    """The bankers' HTTP client (rehearsal.client, Django-free) made a phone's: it asks for
    compressed answers as a browser does and notes what every request cost."""
    from rehearsal.client import Answer, Client

    class PhoneClient(Client):
        """Each request's cost in ``costs``: (kind, status, bytes down on the wire — status
        line, headers and the body as sent —, bytes up — the request's body —, queries and
        standings rows written by the server — ``_counted_wsgi`` —, seconds, whether a 2xx
        event post's answer carried the fragment). Bodies are handed on decompressed."""

        def __init__(self, base: str) -> None:
            super().__init__(base)
            self.costs: list[tuple] = []

        def request(self, method: str, path: str, *, headers: dict | None = None,
                    **kw) -> Answer:
            answer = super().request(method, path, headers={"Accept-Encoding": PHONE,
                                                            **(headers or {})}, **kw)
            head = {name.lower(): value for name, value in answer.headers.items()}
            counted = head.pop("x-bench-queries", "")  # the bench's, not on a phone's wire
            wire = (17 + sum(len(name) + len(value) + 4 for name, value in head.items())
                    + 2 + len(answer.body))
            body = decompressed(answer.body, head.get("content-encoding", ""))
            answer.body = body
            if kw.get("json_body") is not None:
                up = len(json.dumps(kw["json_body"]))
            elif kw.get("form"):
                up = len(urllib.parse.urlencode(kw["form"]))
            else:
                up = len(kw.get("data") or b"")
            queries, writes = (int(n) for n in counted.split()) if counted else (-1, -1)
            kind = ("follow" if path.endswith("/state") else "post" if "/events" in path else "confirm" if path.endswith("/confirm/")
                    else "count" if path.endswith("/count/") else "record"
                    if path.endswith("/record") else "other")
            fragment = kind == "post" and answer.status in (200, 201) and \
                b'"main"' in body
            self.costs.append((kind, answer.status, wire, up, queries, writes,
                               answer.seconds, fragment))
            return answer

    return PhoneClient
