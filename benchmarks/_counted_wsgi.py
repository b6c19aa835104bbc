"""Bench only (``bench_hall.py``): the application behind a header that counts the SQL queries
of every write.

The hall's figures are taken on a real server, where the test client's query capture cannot
look: each POST's answer carries ``X-Bench-Queries: <queries> <writes to standings rows>``
(transaction control not counted, as in ``bench_console.py``). Reads (the spectators' polls)
are passed through untouched, so their bytes on the wire stay the real ones. BENCH_QUERY_LOG=path
appends each write's queries there (a JSON line per request: the path and the statements).
"""

from __future__ import annotations

import json
import os

from django.db import connection

from config.wsgi import application as django_application

HEADER = "X-Bench-Queries"
CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")
LOG = os.environ.get("BENCH_QUERY_LOG", "")


def application(environ, start_response):
    if environ.get("REQUEST_METHOD") in ("GET", "HEAD", "OPTIONS"):
        return django_application(environ, start_response)
    counted = [0, 0]
    statements: list[str] = []

    def count(execute, sql, params, many, context):
        head = sql.lstrip()[:20].upper()
        if not head.startswith(CONTROL):
            counted[0] += 1
            if LOG:
                statements.append(sql[:300])
            if "scoring_standingrow" in sql and not head.startswith("SELECT"):
                counted[1] += 1
        return execute(sql, params, many, context)

    def start(status, headers, exc_info=None):
        # Django calls this once the view is done: every query of the request is counted.
        if LOG:
            with open(LOG, "a") as log:
                log.write(json.dumps({"path": environ.get("PATH_INFO"), "status": status,
                                      "queries": statements}) + "\n")
        return start_response(status, [*headers, (HEADER, f"{counted[0]} {counted[1]}")],
                              exc_info)

    with connection.execute_wrapper(count):
        return django_application(environ, start)
