"""Driving ``python -m laptop serve`` from outside, as the hall does: the server as a child
process (its output read for the one-time link), the organizer's set-up through the API,
bankers through their private links. Used by the done-when test and ``make bench``."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from .client import Answer, Client
from .stack import free_port

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "Karlsruhe-Laptop-2026"


def fresh_checkout(target: Path) -> Path:
    """The project's files (tracked and new, as git sees them) with the shared virtualenv: a
    laptop as the organizer sets it up, its data folder apart from this working tree."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    (target / ".venv").symlink_to(Path(sys.prefix).resolve())
    return target


class Serve:
    """``python -m laptop serve`` as a user starts it (no terminal), its output kept."""

    def __init__(self, checkout: Path, data: Path, port: int, *, workers: int = 3,
                 extra: list[str] | None = None, https: bool = False) -> None:
        env = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
        env.update(LAPTOP_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
        self.data = data
        self.database = data / "championship.sqlite3"
        self.base = f"{'https' if https else 'http'}://127.0.0.1:{port}"
        # With HTTPS, ``port`` is the staff's HTTPS port and plain HTTP (everyone's) has its own.
        self.http_port = free_port() if https else port
        self.http_base = f"http://127.0.0.1:{self.http_port}"
        self.context = None  # set to an ssl.SSLContext trusting the laptop's authority
        self.proc = subprocess.Popen(
            [str(checkout / ".venv/bin/python"), "-m", "laptop", "serve",
             "--port", str(self.http_port), "--workers", str(workers),
             *(["--https", "--https-port", str(port)] if https else []), *(extra or [])],
            cwd=checkout, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    def wait_for(self, pattern: str, seconds: float = 120) -> re.Match:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = re.search(pattern, line)
                if found:
                    return found
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"no {pattern!r} in the output:\n{''.join(self.lines)[-3000:]}")

    def kill(self) -> None:
        """A crash, not a shutdown: SIGKILL to the whole process group (no final backup)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=20)

    def stop(self) -> None:
        """Ctrl-C: the server stops and makes its last backup."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()

    def organizer(self) -> Client:
        """Set the first organizer's password through the printed one-time link."""
        link = self.wait_for(r"https?://[^/\s]+(/password/set/\S+/)").group(1)
        org = Client(self.base, context=self.context)
        ok(org.get(link))
        uid = link.split("/")[3]
        ok(org.post(f"/password/set/{uid}/set-password/",
                    form={"new_password1": PASSWORD, "new_password2": PASSWORD,
                          "csrfmiddlewaretoken": org.cookie("csrftoken") or ""}))
        return org


def ok(answer: Answer, *codes: int) -> Answer:
    assert answer.status in (codes or (200, 201)), f"{answer.status}: {answer.text[:400]}"
    return answer


def utc(text: str) -> dt.datetime:
    """Django stores UTC without an offset in SQLite."""
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def shown_revision(html: str) -> str:
    """The revision of the table's result that the console's result forms carry (a write
    decided against another one is refused)."""
    found = re.search(r'name="revision" value="(\d+)"', html)
    return found.group(1) if found else ""


def db_rows(database: Path, query: str, *args):
    """Read the laptop's database directly (read-only: no request reaches the server)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=20) as conn:
        return conn.execute(query, args).fetchall()


def set_up_round(org: Client, *, slug: str, players: int, auction_stop: int = 1,
                 time_limit: int = 3) -> list[dict]:
    """A tournament with a short clock, players checked in, round 1 seated and started, a
    private banker link per table."""
    ok(org.post("/api/v1/tournaments/", {
        "name": "Laptop-Turnier", "slug": slug, "date": dt.date.today().isoformat(),
        "ruleset": "karlsruhe", "table_size": 6, "preliminary_rounds": 2, "finalists": 6,
        "time_limit_minutes": time_limit, "auction_stop_minutes": auction_stop,
        "results_public_immediately": True}))
    ok(org.post(f"/api/v1/tournaments/{slug}/transition/", {"status": "registration"}))
    csv = "name;club;public name consent\n" + "".join(
        f"Spieler {i:03d};Club {i % 5};ja\n" for i in range(players))
    ok(org.upload(f"/api/v1/tournaments/{slug}/players/import/", "file", "p.csv", csv.encode()))
    listed = org.get(f"/api/v1/tournaments/{slug}/players/").json()
    for player in listed["results"] if isinstance(listed, dict) else listed:
        ok(org.post(f"/api/v1/tournaments/{slug}/players/{player['id']}/check-in/"))
    ok(org.post(f"/api/v1/tournaments/{slug}/transition/", {"status": "running"}))
    round_id = ok(org.post("/api/v1/rounds/", {"tournament": slug})).json()["id"]
    ok(org.post(f"/api/v1/rounds/{round_id}/seat/", {"seconds": 1}))
    for step in ("lock", "start"):
        ok(org.post(f"/api/v1/rounds/{round_id}/{step}/", {}))
    tables = org.get(f"/api/v1/tables/?round={round_id}").json()
    for table in tables:
        table["link"] = ok(org.post(f"/api/v1/tables/{table['id']}/link/")).json()["url"]
    return tables


class TableBanker:
    """One table's banker: posts with an idempotency key (retried once on a failure), and
    remembers which keys the server acknowledged with which sequence number."""

    def __init__(self, base: str, table: dict) -> None:
        self.client = Client(base)
        ok(self.client.get(table["link"]))  # the private link grants this table's console
        self.id = table["id"]
        self.acked: dict[str, int] = {}
        self.latencies: list[float] = []
        self.errors: list[str] = []
        record = ok(self.client.get(f"/api/v1/tables/{self.id}/record")).json()
        self.players = [p["id"] if isinstance(p, dict) else p for p in record["players"]]
        self.count = len(record["events"])

    def post(self, event: dict) -> dict | None:
        key = uuid.uuid4().hex
        for _attempt in range(2):
            answer = self.client.post(f"/api/v1/tables/{self.id}/events", {"event": event},
                                      headers={"Idempotency-Key": key})
            self.latencies.append(answer.seconds)
            if answer.status in (200, 201):
                body = answer.json()
                self.acked[key] = body.get("seq", -1)
                self.count = max(self.count, body.get("seq", -1) + 1)
                return body
            self.errors.append(f"table {self.id}: {answer.status} {answer.text[:200]}")
        return None

    def rent(self, index: int) -> dict | None:
        p = self.players
        return self.post({"type": "pay", "from": p[index % len(p)],
                          "to": p[(index + 1) % len(p)], "amount": 20, "reason": "rent"})

    def finish(self, database: Path) -> str:
        """Bankruptcies until the game ends, the count, the code from the score sheet; the
        confirmation's answer (the page that says whether a copy was made)."""
        for key in self.players:
            if db_rows(database, "SELECT status FROM referee_game WHERE table_id = ?",
                       self.id)[0][0] == "finished":
                break
            self.post({"type": "bankrupt", "player": key, "creditor": "bank"})
        url = f"/banker/table/{self.id}"
        seq = len(ok(self.client.get(f"/api/v1/tables/{self.id}/record")).json()["events"])
        revision = shown_revision(ok(self.client.get(f"{url}/main/")).text)
        counted = ok(self.client.post(f"{url}/count/",
                                      form={"seq": str(seq), "revision": revision}), 200, 302)
        code = db_rows(database, "SELECT confirmation_code FROM referee_game WHERE table_id = ?",
                       self.id)[0][0]
        return ok(self.client.post(f"{url}/confirm/", form={
            "code": code, "revision": shown_revision(counted.text)}), 200, 302).text

    def lost_events(self, database: Path) -> int:
        """Acknowledged posts whose event is not stored under its key and sequence number."""
        stored = dict(db_rows(database, "SELECT e.idempotency_key, e.seq FROM "
                              "referee_gameevent e JOIN referee_game g ON g.id = e.game_id "
                              "WHERE g.table_id = ?", self.id))
        return sum(1 for key, seq in self.acked.items() if stored.get(key) != seq)


def confirmed(database: Path) -> list[tuple]:
    return db_rows(database, """
        SELECT g.table_id, p.player_id, p.place, p.net_worth
        FROM referee_gameresult r JOIN referee_game g ON g.id = r.game_id
        JOIN referee_placement p ON p.result_id = r.id
        WHERE r.status = 'confirmed' ORDER BY g.table_id, p.place, p.player_id""")


def server_deadline(database: Path, table_id: int, kind: str) -> tuple[dt.datetime, float] | None:
    """(deadline, seconds late) of a recorded auction stop / time limit, or None."""
    rows = db_rows(database, "SELECT e.recorded_at, e.data FROM referee_gameevent e "
                   "JOIN referee_game g ON g.id = e.game_id "
                   "WHERE g.table_id = ? AND e.type = ?", table_id, kind)
    if not rows:
        return None
    import json

    due = dt.datetime.fromisoformat(json.loads(rows[0][1])["at"])
    return due, (utc(rows[0][0]) - due).total_seconds()
