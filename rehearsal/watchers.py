"""The hall's side of the rehearsal: spectators polling, and one screen timing freshness."""

from __future__ import annotations

import threading
import time

from .banker import Stats
from .client import Client

#: The rehearsal championship's slug.
SLUG = "rehearsal"


class Spectators(threading.Thread):
    """Hall screens and phones: poll the standings with ETags (and the page now and then)."""

    def __init__(self, base: str, count: int) -> None:
        super().__init__(name="spectators", daemon=True)
        self.clients = [Client(base) for _ in range(count)]
        self.etags: list[str | None] = [None] * count
        self.stop = threading.Event()
        self.codes: dict[int, int] = {}
        self.errors: list[tuple[float, int, str]] = []

    def run(self) -> None:
        index = 0
        while not self.stop.is_set():
            client = self.clients[index % len(self.clients)]
            slot = index % len(self.clients)
            path = f"/api/v1/tournaments/{SLUG}/standings" if index % 7 else f"/t/{SLUG}/"
            headers = {"If-None-Match": self.etags[slot]} if self.etags[slot] and index % 7 else {}
            answer = client.get(path, headers=headers)
            self.codes[answer.status] = self.codes.get(answer.status, 0) + 1
            if answer.status >= 500 or answer.status == 0:
                self.errors.append((time.time(), answer.status, path))
            elif index % 7 and answer.status == 200:
                self.etags[slot] = answer.headers.get("ETag")
            index += 1
            time.sleep(0.02)


class Watcher(threading.Thread):
    """One hall screen polling the public standings API (5 Hz): a confirmed table counts as
    public once every one of its players shows a result for that round there."""

    def __init__(self, base: str, stats: Stats) -> None:
        super().__init__(name="watcher", daemon=True)
        self.client = Client(base)
        self.stats = stats
        self.pending: dict[int, tuple[set[str], str, float]] = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def expect(self, table_id: int, players: set[str], round_number: str, since: float) -> None:
        with self.lock:
            self.pending[table_id] = (players, round_number, since)

    def run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                waiting = dict(self.pending)
            if waiting:
                answer = self.client.get(f"/api/v1/tournaments/{SLUG}/standings")
                if answer.status == 200:
                    seen = answer.json()["standings"]
                    now = time.monotonic()
                    for table_id, (players, round_number, since) in waiting.items():
                        shown = {str(r["player"]) for r in seen
                                 if round_number in (r["rounds"] or {})}
                        if players <= shown:
                            with self.lock:
                                self.pending.pop(table_id, None)
                            with self.stats.lock:
                                self.stats.freshness.append(now - since)
            time.sleep(0.2)

    def wait_empty(self, seconds: float = 60) -> list[int]:
        """Tables still not public after ``seconds`` from their confirmation."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                if not self.pending:
                    return []
            time.sleep(0.1)
        with self.lock:
            return sorted(self.pending)
