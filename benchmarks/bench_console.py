"""Console figures: event posts and state reads on a 300-event game (SQLite and PostgreSQL),
and 100 tables posting at once on PostgreSQL with no lost or doubled event.

Runs each database in its own process: ``python benchmarks/bench_console.py``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _django  # noqa: E402
from _timing import run_together  # noqa: E402

POSTS = 200
READS = 200


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[94]


def make_table(number: int, banker):
    from tournament.models import Player, Round, Seat, Table, Tournament

    tournament, _ = Tournament.objects.get_or_create(
        slug="bench", defaults={"name": "Bench", "date": "2026-11-28", "status": "running"}
    )
    round_, _ = Round.objects.get_or_create(tournament=tournament, number=1,
                                            defaults={"status": "running"})
    table = Table.objects.create(round=round_, number=number, banker=banker)
    for position in range(1, 7):
        player = Player.objects.create(tournament=tournament, name=f"P{number}-{position}")
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    return table


def rent_events(players: list[str], count: int, offset: int = 0) -> list[dict]:
    """Legal filler: rent paid around the table (no ledger, so cash is not a limit)."""
    return [
        {"type": "pay", "from": players[(i + offset) % 6], "to": players[(i + offset + 1) % 6],
         "amount": 10 + i % 50, "reason": "rent"}
        for i in range(count)
    ]


def single(kind: str) -> dict:
    _django.setup(_django.fresh_database(kind))
    from django.contrib.auth.models import User
    from django.test import Client

    from referee import services

    banker = User.objects.create_user("bench-banker", password="x")
    table = make_table(1, banker)
    game = services.ensure_game(table=table)
    players = list(game.players)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=banker)
    for event in rent_events(players, 299):
        services.post_event(game_id=game.pk, event=event, author=banker)
    client = Client()
    client.force_login(banker)
    url = f"/api/v1/tables/{table.pk}/events"
    posts = []
    for index, event in enumerate(rent_events(players, POSTS, offset=3)):
        body = json.dumps({"event": event, "expected_seq": 300 + index})
        started = time.perf_counter()
        response = client.post(url, body, content_type="application/json",
                               HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex)
        posts.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 201, response.content
    reads = []
    for _ in range(READS):
        started = time.perf_counter()
        response = client.get(f"/api/v1/tables/{table.pk}/state")
        reads.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return {
        "database": kind,
        "post_p50_ms": round(statistics.median(posts), 2),
        "post_p95_ms": round(p95(posts), 2),
        "state_p50_ms": round(statistics.median(reads), 2),
        "state_p95_ms": round(p95(reads), 2),
    }


def concurrent(tables: int = 100, events: int = 20) -> dict:
    """Every table's banker posts at once; each post is sent twice (a retry) with one key."""
    # Like gunicorn workers sharing a database: at most 40 connections for 100 bankers.
    _django.setup(_django.fresh_database("postgres", pool=40))
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    from referee import services
    from referee.models import GameEvent

    setups = []
    for number in range(1, tables + 1):
        banker = User.objects.create_user(f"banker-{number}", password="x")
        table = make_table(number, banker)
        game = services.ensure_game(table=table)
        setups.append((banker, table, list(game.players)))
    errors: list[str] = []
    barrier = threading.Barrier(tables)

    def run(banker, table, players) -> None:
        client = Client()
        client.force_login(banker)
        connection.close()
        url = f"/api/v1/tables/{table.pk}/events"
        barrier.wait()
        try:
            for event in [{"type": "start"}, *rent_events(players, events - 1)]:
                key = uuid.uuid4().hex
                for _attempt in range(2):  # the retry must not double the event
                    response = client.post(url, json.dumps({"event": event}),
                                           content_type="application/json",
                                           HTTP_IDEMPOTENCY_KEY=key)
                    # The test client keeps its connection; a real request returns it to the pool.
                    connection.close()
                    if response.status_code not in (200, 201):
                        errors.append(f"{table.number}: {response.status_code}")
        finally:
            connection.close()  # back to the pool

    threads = [threading.Thread(target=run, args=setup) for setup in setups]
    elapsed = run_together(threads)
    counts = {}
    for game_id, seq in GameEvent.objects.values_list("game_id", "seq"):
        counts.setdefault(game_id, []).append(seq)
    lost_or_doubled = sum(
        1 for seqs in counts.values() if sorted(seqs) != list(range(events))
    ) + (tables - len(counts))
    return {
        "tables": tables,
        "events_per_table": events,
        "requests": tables * events * 2,
        "seconds": round(elapsed, 2),
        "requests_per_second": round(tables * events * 2 / elapsed, 1),
        "errors": len(errors),
        "tables_with_lost_or_doubled_events": lost_or_doubled,
    }


def main() -> None:
    if len(sys.argv) > 1:
        mode = sys.argv[1]
        result = concurrent() if mode == "concurrent" else single(mode)
        print(json.dumps(result))
        return
    modes = ["sqlite"] + (["postgres", "concurrent"] if _django.postgres_available() else [])
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    for mode in modes:
        out = subprocess.run([sys.executable, __file__, mode], capture_output=True, text=True,
                             env=env, check=False)
        if out.returncode != 0:
            print(f"{mode}: FAILED\n{out.stderr[-2000:]}")
            sys.exit(1)
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if mode == "concurrent":
            print(f"100 tables posting at once (PostgreSQL): {result['requests']} requests "
                  f"(each event sent twice with one idempotency key) in {result['seconds']} s, "
                  f"{result['requests_per_second']} req/s, errors {result['errors']}, "
                  f"tables with lost or doubled events {result['tables_with_lost_or_doubled_events']}")
        else:
            print(f"{mode:8s} post to a 300-event game: p50 {result['post_p50_ms']} ms, "
                  f"p95 {result['post_p95_ms']} ms (goal < 25) | state: p50 "
                  f"{result['state_p50_ms']} ms, p95 {result['state_p95_ms']} ms (goal < 15)")
    if not _django.postgres_available():
        print("PostgreSQL not reachable on 127.0.0.1:5432: its figures were skipped")


if __name__ == "__main__":
    main()
