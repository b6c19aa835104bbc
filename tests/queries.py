"""Counting what a request costs the database, Zulip style: the tests that pin a hot path's
query count (a console post, a poll, a confirmation, the player page) count the same way."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext


def counted(captured) -> list[str]:
    """The statements that reach the database (a test's savepoints are a BEGIN/COMMIT in
    production, not a query)."""
    return [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def explain(queries: list[str]) -> str:
    """The queries, one line each (an assertion's message when a count is off)."""
    return "\n".join(q[:160] for q in queries)


def state_poll(client, table, etag=None):
    """A GET of the table's state API (``etag``: as ``If-None-Match``, as the console and the
    table page poll): (the response, the statements it took)."""
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/api/v1/tables/{table.pk}/state", **headers)
    return response, counted(ctx.captured_queries)
