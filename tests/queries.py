"""Counting what a request costs the database, Zulip style: the tests that pin a hot path's
query count (a console post, a poll, a confirmation, the player page) count the same way."""

from __future__ import annotations


def counted(captured) -> list[str]:
    """The statements that reach the database (a test's savepoints are a BEGIN/COMMIT in
    production, not a query)."""
    return [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def explain(queries: list[str]) -> str:
    """The queries, one line each (an assertion's message when a count is off)."""
    return "\n".join(q[:160] for q in queries)
