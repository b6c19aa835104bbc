"""Console figures: event posts and state reads on a 300-event game (SQLite and PostgreSQL),
posts while three threads read the same table (``mixed``: what readers and writers of one
engine cost each other), 100 tables posting at once on PostgreSQL with no lost or doubled
event, and what one banker action costs on the wire (``action``: requests, bytes, queries;
the console as it was, a post and then the fragment ``/main/``, against one post whose answer
carries the fragment, issue 29).

Runs each database in its own process: ``python benchmarks/bench_console.py``; one mode:
``python benchmarks/bench_console.py action``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _django  # noqa: E402
from _served import decompressed  # noqa: E402
from _timing import percentiles, run_together  # noqa: E402

POSTS = 200
READS = 200


def make_table(number: int, banker):
    from tournament.models import (
        Player,
        Round,
        Seat,
        Table,
        Tournament,
    )

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


def started_game(filler: int = 0):
    """Table 1 banked by ``bench-banker``, its game started and ``filler`` rent events played:
    (banker, table, game, the players' keys)."""
    from django.contrib.auth.models import User

    from referee import services

    banker = User.objects.create_user("bench-banker", password="x")
    table = make_table(1, banker)
    game = services.ensure_game(table=table)
    players = list(game.players)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=banker)
    post_rent(game, banker, players, filler)
    return banker, table, game, players


def post_rent(game, banker, players: list[str], count: int) -> None:
    """``count`` rent events through the service (no request: the game's history)."""
    from referee import services

    for event in rent_events(players, count):
        services.post_event(game_id=game.pk, event=event, author=banker)


def timed_posts(client, table, players: list[str], *, first_seq: int = 300) -> list[float]:
    """``POSTS`` rent events through the events API, as a console sends them: milliseconds each."""
    url = f"/api/v1/tables/{table.pk}/events"
    posts = []
    for index, event in enumerate(rent_events(players, POSTS, offset=3)):
        body = json.dumps({"event": event, "expected_seq": first_seq + index})
        started = time.perf_counter()
        response = client.post(url, body, content_type="application/json",
                               HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex)
        posts.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 201, response.content
    return posts


def single(kind: str) -> dict:
    _django.setup(_django.fresh_database(kind))
    from django.test import Client

    banker, table, _game, players = started_game(299)
    client = Client()
    client.force_login(banker)
    posts = timed_posts(client, table, players)
    reads = []
    for _ in range(READS):
        started = time.perf_counter()
        response = client.get(f"/api/v1/tables/{table.pk}/state")
        reads.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return {
        "database": kind,
        **percentiles("post", posts),
        **percentiles("state", reads),
    }


#: Issue 29's goal for one banker action: one request, at most 8 kB on the wire, 10 queries.
ACTION_GOAL = {"requests": 1, "down_bytes": 8 * 1024, "queries": 10}
ACTIONS = 50
CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")  # not counted as queries
PHONE = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br", "HTTP_ACCEPT_LANGUAGE": "de"}


def _wire(response) -> int:
    """Bytes of an answer on the wire: the status line, the headers and the body as sent
    (compressed when it was)."""
    head = len(f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n")
    head += sum(len(f"{name}: {value}\r\n") for name, value in response.items()) + 2
    return head + len(response.content)


def _plain(response) -> int:
    """The body's size before compression."""
    return len(_decoded(response))


def action(database: str = "sqlite") -> dict:
    """One banker action on a dealt 300-event game, as the console makes it: before issue 29 a
    post (answered with the full state) and the fragment fetched again; now one post asking for
    the fragment (``?fragment=main&player=``). Requests, bytes down (compressed as a phone
    takes them, headers included) and up (the request bodies), queries and time per action."""
    _django.setup(_django.fresh_database(database))
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from referee import services

    banker, table, game, players = started_game()
    deeds = ["badstrasse", "turmstrasse", "parkstrasse", "schlossallee", "seestrasse",
             "hafenstrasse", "suedbahnhof", "muenchner-strasse", "chausseestrasse",
             "elisenstrasse", "poststrasse", "westbahnhof"]
    dealt = 0
    for index, deed in enumerate(deeds):  # a game in play: every player holds deeds
        try:
            services.post_event(game_id=game.pk, author=banker,
                                event={"type": "deal", "player": players[index % 6], "deed": deed})
            dealt += 1
        except Exception:  # noqa: BLE001 - a ruleset without the deal: buy instead
            services.post_event(game_id=game.pk, author=banker, event={
                "type": "buy", "player": players[index % 6], "deed": deed})
            dealt += 1
    post_rent(game, banker, players, 299 - dealt)
    client = Client()
    client.force_login(banker)
    events_url = f"/api/v1/tables/{table.pk}/events"
    main_url = f"/banker/table/{table.pk}/main/"
    selected = players[0]
    seq = 300
    figures = {}
    for way in ("two_trips", "one_trip"):
        requests = down = plain = up = queries = 0
        times, cpu = [], []
        with_fragment = True
        for event in rent_events(players, ACTIONS, offset=3):
            body = json.dumps({"event": event, "expected_seq": seq})
            started, cpu_started = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as ctx:
                if way == "two_trips":
                    answers = [
                        client.post(events_url, body, content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex, **PHONE),
                        client.get(main_url, {"player": selected}, **PHONE),
                    ]
                else:
                    answers = [client.post(
                        f"{events_url}?fragment=main&player={selected}", body,
                        content_type="application/json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
                        **PHONE,
                    )]
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
            assert answers[0].status_code == 201, answers[0].content
            if way == "one_trip" and "main" not in json.loads(_decoded(answers[0])):
                with_fragment = False  # a server from before issue 29: the flag is ignored
            seq += 1
            requests += len(answers)
            down += sum(_wire(answer) for answer in answers)
            plain += sum(_plain(answer) for answer in answers)
            up += len(body)
            queries += sum(1 for q in ctx.captured_queries if not q["sql"].startswith(CONTROL))
        figures[way] = {
            "requests": requests / ACTIONS,
            "down_bytes": round(down / ACTIONS),
            "uncompressed_bytes": round(plain / ACTIONS),
            "up_bytes": round(up / ACTIONS),
            "queries": round(queries / ACTIONS, 1),
            **percentiles("", times),
            # this process's CPU per action: what a busy machine's other jobs hardly change
            "cpu_p50_ms": percentiles("", cpu)["p50_ms"],
            "supported": with_fragment,
        }
    # The fragment asked again while nothing changed (a poll that saw no new event).
    first = client.get(main_url, {"player": selected}, **PHONE)
    again = client.get(main_url, {"player": selected}, HTTP_IF_NONE_MATCH=first.get("ETag", ""),
                       **PHONE)
    figures["main_again"] = {"status": again.status_code, "down_bytes": _wire(again),
                             "first_down_bytes": _wire(first)}
    return figures


def _decoded(response) -> bytes:
    """The body as it was before compression."""
    return decompressed(response.content, response.get("Content-Encoding", ""))


def mixed(readers: int = 3) -> dict:
    """One banker posting while ``readers`` other threads of the same worker read the same
    table (the console's picture, the public table page: ``selectors.game_state``), as on the
    laptop (SQLite in WAL mode, 4 threads per worker): what readers cost the post path, and
    what a post costs them."""
    _django.setup(_django.fresh_database("sqlite"))
    from django.db import connection
    from django.test import Client

    from referee import selectors
    from referee.models import Game

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode=WAL")
    banker, table, game, players = started_game(299)
    connection.close()
    done = threading.Event()
    reads: list[float] = []
    failures: list[str] = []

    def read() -> None:
        try:
            while not done.is_set():
                started = time.perf_counter()
                state = selectors.game_state(Game.objects.get(pk=game.pk), public=False)
                reads.append((time.perf_counter() - started) * 1000)
                if sum(p["cash"] for p in state["players"]) != 6 * 1500:  # rent moves cash
                    failures.append(f"inconsistent state at seq {state['seq']}")
        except Exception as error:  # noqa: BLE001 - reported with the figures
            failures.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=read) for _ in range(readers)]
    for thread in threads:
        thread.start()
    client = Client()
    client.force_login(banker)
    posts: list[float] = []
    try:
        posts = timed_posts(client, table, players)
    finally:
        done.set()
        for thread in threads:
            thread.join()
    return {
        "readers": readers,
        **percentiles("post", posts),
        **percentiles("read", reads),
        "reads": len(reads),
        "failures": failures[:3],
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
        if mode == "action":
            print_action(action())
            return
        result = (concurrent() if mode == "concurrent" else mixed() if mode == "mixed"
                  else single(mode))
        print(json.dumps(result))
        return
    modes = ["sqlite", "mixed", "action"] + (
        ["postgres", "concurrent"] if _django.postgres_available() else []
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    for mode in modes:
        out = subprocess.run([sys.executable, __file__, mode], capture_output=True, text=True,
                             env=env, check=False)
        if out.returncode != 0:
            print(f"{mode}: FAILED\n{out.stderr[-2000:]}")
            sys.exit(1)
        if mode == "action":
            print(out.stdout.rstrip())
            continue
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if mode == "mixed":
            print(f"post while {result['readers']} threads read the table (SQLite, WAL): "
                  f"post p50 {result['post_p50_ms']} ms, p95 {result['post_p95_ms']} ms | "
                  f"{result['reads']} reads: p50 {result['read_p50_ms']} ms, p95 "
                  f"{result['read_p95_ms']} ms | inconsistent reads "
                  f"{len(result['failures'])}")
        elif mode == "concurrent":
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


def print_action(figures: dict) -> None:
    goal = ACTION_GOAL
    print(f"one banker action (SQLite, a dealt 300-event game, {ACTIONS} actions, "
          f"compressed as a phone takes it):")
    for way, label in (("two_trips", "post + fragment fetched again"),
                       ("one_trip", "post answered with the fragment")):
        f = figures[way]
        if not f["supported"]:
            print(f"  {label:32s} not supported by this server (the answer has no fragment)")
            continue
        print(f"  {label:32s} {f['requests']:.0f} request(s) (goal {goal['requests']}), "
              f"{f['down_bytes'] / 1024:.1f} kB down (goal <= {goal['down_bytes'] / 1024:.0f}; "
              f"{f['uncompressed_bytes'] / 1024:.1f} kB uncompressed), {f['up_bytes']} B up, "
              f"{f['queries']} queries (goal <= {goal['queries']}), "
              f"p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, CPU p50 {f['cpu_p50_ms']} ms")
    again = figures["main_again"]
    print(f"  the fragment asked again unchanged: {again['status']}, {again['down_bytes']} B "
          f"(first answer {again['first_down_bytes'] / 1024:.1f} kB)")
    print("JSON " + json.dumps(figures))


if __name__ == "__main__":
    main()
