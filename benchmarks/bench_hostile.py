"""Issue 15's figures: what a hostile body costs a worker before it is refused, and what the
console's ``/record`` costs for a large game (first read, a repeat, a conditional repeat).

In-process through Django's test client on a fresh SQLite database:
``python benchmarks/bench_hostile.py`` (``--root DIR`` measures another checkout, e.g. the
code before the change).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if "--root" in sys.argv:
    ROOT = Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
import _django  # noqa: E402

if "--root" in sys.argv:
    _django.ROOT = ROOT  # type: ignore[attr-defined]

NESTED = b'{"event":' + b"[" * 1_200_000 + b"]" * 1_200_000 + b"}"  # 2.4 MB
RECORD_EVENTS = 20_000


def timed(call, repeat: int = 5) -> tuple[float, int]:
    samples, status = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        status = call()
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 1), status


def main() -> dict:
    _django.setup(_django.fresh_database("sqlite"))
    import logging

    from bench_console import rent_events, started_game
    from django.test import Client

    from referee import services

    logging.disable(logging.CRITICAL)  # the refused requests' warnings
    banker, table, game, players = started_game()
    url = f"/api/v1/tables/{table.pk}/events"
    anonymous, writer = Client(raise_request_exception=False, enforce_csrf_checks=True), Client(
        raise_request_exception=False)
    writer.force_login(banker)
    # The attacker fetched a page first: a CSRF cookie, sent back as the header too (without
    # one the CSRF check refuses before reading the body).
    token = "csrf" * 8
    anonymous.cookies["csrftoken"] = token

    def post(client, body):
        return lambda: client.post(url, body, content_type="application/json",
                                   HTTP_X_CSRFTOKEN=token).status_code

    out = {}
    out["anonymous_2_4_MB_nested_ms"], out["anonymous_status"] = timed(post(anonymous, NESTED))
    out["writer_2_4_MB_nested_ms"], out["writer_status"] = timed(post(writer, NESTED))
    deep = b'{"event":' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    out["writer_100_kB_nested_ms"], out["writer_deep_status"] = timed(post(writer, deep))

    services.load_events(game_id=game.pk, events=rent_events(players, RECORD_EVENTS))
    record = f"/api/v1/tables/{table.pk}/record"
    started = time.perf_counter()
    first = writer.get(record)
    out[f"record_{RECORD_EVENTS}_events_first_ms"] = round((time.perf_counter() - started) * 1000)
    out["record_bytes"] = len(first.content)
    out["record_repeat_ms"], _ = timed(lambda: writer.get(record).status_code)
    etag = first.get("ETag")
    if etag:
        out["record_304_ms"], out["record_304_status"] = timed(
            lambda: writer.get(record, HTTP_IF_NONE_MATCH=etag).status_code)
    return out


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
