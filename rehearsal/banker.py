"""A simulated banker: one thread per table, random legal play through the console API.

The banker keeps a local mirror of the game (the rules engine, rebuilt from the server's own
events), picks a legal event locally and posts it with ``expected_seq`` and an
``Idempotency-Key``. A failed request (5xx, connection error) is retried with the same key; a
409 or 422 makes the banker re-read the record. The server's timers record the auction stop
and the time limit: the banker never posts them.
"""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from referee import rules
from referee.rules.simulate import random_step

from .client import Client

SERVER_ONLY = ("auction_stop", "time_up", "end", "pause", "resume")


@dataclass
class Plan:
    mode: str = "time"  # "time": the server's time limit ends it; "bankrupt": two bankruptcies
    end_after: float = 80.0  # seconds after the start, bankrupt mode
    gap: tuple[float, float] = (0.25, 0.8)  # seconds between events
    pause: tuple[float, float] | None = None  # (at, length) seconds
    offline: tuple[float, float] | None = None  # (at, length) seconds: queue, then sync
    rival_at: float | None = None  # a second console posts at the same moment
    duplicate_rate: float = 0.04  # re-send an answered post with its key (a lost answer)
    void_rate: float = 0.03


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: list[float] = field(default_factory=list)
    posted: int = 0  # 201
    replayed: int = 0  # 200 for a retried key
    stale: int = 0  # 409
    refused: int = 0  # 422
    retries: int = 0  # 5xx / connection errors retried with the same key
    errors_5xx: list[tuple[float, int, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    dup_sent: int = 0
    dup_ok: int = 0
    rival: list[tuple[int, int, bool]] = field(default_factory=list)
    offline_queued: int = 0
    offline_synced: int = 0
    acked: dict[int, dict[str, int]] = field(default_factory=dict)  # table -> key -> seq
    freshness: list[float] = field(default_factory=list)
    counted_via: dict[str, int] = field(default_factory=dict)

    def add(self, name: str, value: int = 1) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + value)

    def fail(self, message: str) -> None:
        with self.lock:
            self.failures.append(message)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Banker(threading.Thread):
    def __init__(self, *, base: str, table_id: int, link: str, plan: Plan, stats: Stats,
                 seed: int, finisher, rival_client: Client | None = None) -> None:
        super().__init__(name=f"banker-{table_id}", daemon=True)
        self.base = base
        self.table_id = table_id
        self.link = link
        self.plan = plan
        self.stats = stats
        self.rng = random.Random(seed)
        self.client = Client(base)
        self.events: list[dict[str, Any]] = []
        self.record: dict[str, Any] | None = None
        self.finisher = finisher  # callable(banker): count and confirm
        self.rival_client = rival_client
        self.acked: dict[str, int] = stats.acked.setdefault(table_id, {})
        self.url = f"/api/v1/tables/{table_id}/events"

    # ------------------------------------------------------------------ the mirror
    def sync(self) -> None:
        for _ in range(10):
            answer = self.client.get(f"/api/v1/tables/{self.table_id}/record")
            if answer.status == 200:
                self.record = answer.json()
                self.events = list(self.record["events"])
                return
            time.sleep(0.5)
        raise RuntimeError(f"table {self.table_id}: record unreadable ({answer.status})")

    def mirror(self) -> rules.Game:
        game = rules.parse_record({**self.record, "events": []}).new_game()
        game.extend(self.events)
        return game

    @property
    def finished(self) -> bool:
        return self.mirror().status == "finished"

    # ------------------------------------------------------------------ posting
    def post(self, event: dict, *, key: str | None = None, expected: int | None = None,
             client: Client | None = None) -> tuple[str, Any]:
        key = key or uuid.uuid4().hex
        expected = len(self.events) if expected is None else expected
        client = client or self.client
        body = {"event": event, "expected_seq": expected}
        for attempt in range(12):
            answer = client.post(self.url, body, headers={"Idempotency-Key": key})
            if answer.status in (200, 201, 409, 422):
                with self.stats.lock:
                    self.stats.latencies.append(answer.seconds)
            if answer.status in (200, 201):
                data = answer.json()
                self.stats.add("posted" if answer.status == 201 else "replayed")
                with self.stats.lock:
                    self.acked[key] = data["seq"]
                if data["seq"] == len(self.events):
                    self.events.append(data["event"])
                else:
                    self.sync()
                return ("ok", data)
            if answer.status == 409:
                self.stats.add("stale")
                self.sync()
                return ("stale", answer.json())
            if answer.status == 422:
                self.stats.add("refused")
                self.sync()
                return ("refused", answer.json())
            # 5xx or no answer: the same key again, after a moment
            self.stats.add("retries")
            with self.stats.lock:
                self.stats.errors_5xx.append((time.time(), answer.status, self.url))
            if 400 <= answer.status < 500:
                self.stats.fail(f"table {self.table_id}: {answer.status} {answer.text[:200]}")
                return ("error", None)
            time.sleep(min(0.2 * 2**attempt, 3.0))
        self.stats.fail(f"table {self.table_id}: gave up after retries")
        return ("error", None)

    def pick(self) -> dict | None:
        for _ in range(30):
            game = self.mirror()
            event = random_step(game, self.rng.choice, allow_ending=False,
                                allow_void=self.rng.random() < self.plan.void_rate, at=_now())
            if event is None or event["type"] in SERVER_ONLY:
                continue
            if event["type"] == "void":
                target = self.events[event["event"]] if event["event"] < len(self.events) else {}
                if target.get("type") in SERVER_ONLY:
                    continue
            event.pop("at", None)
            return event
        return None

    def step(self) -> None:
        event = self.pick()
        if event is None:
            return
        status, _ = self.post(event)
        if status == "ok" and self.rng.random() < self.plan.duplicate_rate:
            # The answer was "lost": the console sends it again with the same key.
            key = next(k for k, s in self.acked.items() if s == len(self.events) - 1)
            self.stats.add("dup_sent")
            before = len(self.events)
            status2, data = self.post(event, key=key, expected=before - 1)
            if status2 == "ok" and data["replayed"] and data["seq"] == before - 1:
                self.stats.add("dup_ok")
            else:
                self.stats.fail(f"table {self.table_id}: duplicate post not replayed: {data}")
            self.events = self.events[:before]

    # ------------------------------------------------------------------ faults of one table
    def go_offline(self, seconds: float) -> None:
        """The phone loses the Wi-Fi: events are queued against the local mirror, then synced."""
        game = self.mirror()
        queue: list[tuple[str, int, dict]] = []
        until = time.monotonic() + seconds
        base = len(self.events)
        while time.monotonic() < until:
            event = random_step(game, self.rng.choice, allow_ending=False, allow_void=False,
                                at=_now())
            if event is not None and event["type"] not in SERVER_ONLY:
                event.pop("at", None)
                queue.append((uuid.uuid4().hex, base + len(queue), event))
            time.sleep(self.rng.uniform(*self.plan.gap))
        self.stats.add("offline_queued", len(queue))
        for index, (key, expected, event) in enumerate(queue):
            status, _ = self.post(event, key=key, expected=expected)
            if status != "ok":
                self.stats.fail(f"table {self.table_id}: offline queue item {index} {status}")
                break
            self.stats.add("offline_synced")
            if index == 0:  # the first answer of the sync was lost: sent again
                self.stats.add("dup_sent")
                before = len(self.events)
                status2, data = self.post(event, key=key, expected=expected)
                if status2 == "ok" and data["replayed"] and data["seq"] == expected:
                    self.stats.add("dup_ok")
                self.events = self.events[:before]

    def race(self) -> None:
        """Two consoles post to this table at the same instant with the same expected_seq."""
        first, second = self.pick(), self.pick()
        if first is None or second is None or self.rival_client is None:
            return
        expected = len(self.events)
        barrier = threading.Barrier(2)
        answers: list = [None, None]

        def send(slot: int, client: Client, event: dict) -> None:
            barrier.wait()
            answers[slot] = client.post(self.url, {"event": event, "expected_seq": expected},
                                        headers={"Idempotency-Key": uuid.uuid4().hex})

        threads = [threading.Thread(target=send, args=(0, self.client, first)),
                   threading.Thread(target=send, args=(1, self.rival_client, second))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = sorted(answer.status for answer in answers)
        loser = next((a for a in answers if a.status == 409), None)
        told = bool(loser and loser.json().get("state", {}).get("seq") == expected + 1)
        with self.stats.lock:
            self.stats.rival.append((codes[0], codes[1], told))
        for answer in answers:
            if answer.status == 201:
                data = answer.json()
                with self.stats.lock:
                    self.acked[f"race-{self.table_id}-{data['seq']}"] = data["seq"]
        self.sync()

    # ------------------------------------------------------------------ the game
    def bankrupt_one(self) -> None:
        game = self.mirror()
        active = list(game.state.active_players)
        self.rng.shuffle(active)
        for player in active:
            event = {"type": "bankrupt", "player": player, "creditor": rules.BANK}
            try:
                game.check({**event, "at": _now().isoformat()})
            except rules.RuleViolation:
                continue
            self.post(event)
            return
        self.step()

    def run(self) -> None:
        try:
            self.play()
        except Exception as error:  # noqa: BLE001 - reported in the summary
            self.stats.fail(f"table {self.table_id}: {type(error).__name__}: {error}")

    def play(self) -> None:
        opened = self.client.get(self.link)
        if opened.status != 200:
            raise RuntimeError(f"banker link answered {opened.status}")
        self.sync()
        started = None
        paused = offline = raced = False
        while not self.finished:
            if started is None:
                self.step()
                if self.mirror().state.started:
                    started = time.monotonic()
                continue
            elapsed = time.monotonic() - started
            plan = self.plan
            if plan.offline and not offline and elapsed >= plan.offline[0]:
                offline = True
                self.go_offline(plan.offline[1])
            elif plan.rival_at is not None and not raced and elapsed >= plan.rival_at:
                raced = True
                self.race()
            elif plan.pause and not paused and elapsed >= plan.pause[0]:
                paused = True
                if self.post({"type": "pause"})[0] == "ok":
                    time.sleep(plan.pause[1])
                    self.post({"type": "resume"})
            elif plan.mode == "bankrupt" and elapsed >= plan.end_after:
                self.bankrupt_one()
            else:
                self.step()
            time.sleep(self.rng.uniform(*plan.gap))
            if elapsed > 600:
                raise RuntimeError("the game did not end within 10 minutes")
        self.finisher(self)
