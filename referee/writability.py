"""Whether the console may write at a table now: the round runs and the game is not counted
(``check_writable``), with the idempotency key's earlier event, read in one statement after the
game's lock (issue 29: the ORM compiled the same joins and subquery on every post)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.db import connection

from referee import errors
from referee.models import Game, GameEvent, GameResult
from tournament.models import Round, Table


@dataclass(frozen=True)
class WritableFacts:
    """What decides whether the console may write (``check_writable``), read in one query."""

    round_number: int
    round_status: str
    table_number: int
    result_status: str | None
    #: The id of the game's event posted with the post's idempotency key, if any.
    replayed: int | None = None
    #: The result was entered from the paper sheet at the desk (None: no result).
    result_from_paper: bool | None = None


@functools.cache
def facts_sql() -> str:
    """``_writable_facts``' statement, written once: the ORM compiled the same joins and the
    subquery anew on every post (a third of the write's CPU, issue 29). Names from the models;
    plain SQL that SQLite and PostgreSQL read alike."""
    def name(model, field: str | None = None) -> str:
        return connection.ops.quote_name(
            model._meta.get_field(field).column if field else model._meta.db_table)

    table, round_, result, event = Table, Round, GameResult, GameEvent
    return (
        f"SELECT r.{name(round_, 'number')}, r.{name(round_, 'status')}, "
        f"t.{name(table, 'number')}, res.{name(result, 'status')}, "
        f"(SELECT e.{name(event, 'id')} FROM {name(event)} e "
        f"WHERE e.{name(event, 'game')} = %s AND e.{name(event, 'idempotency_key')} = %s "
        # the partial unique index's own condition, word for word: the planners then read
        # the key from that index instead of every event of the game (SQLite proves no
        # implication from a parameter: with "%s <> ''" each post read all the game's rows)
        f"AND NOT (e.{name(event, 'idempotency_key')} = '') LIMIT 1), "
        f"res.{name(result, 'from_paper')} "
        f"FROM {name(table)} t "
        f"INNER JOIN {name(round_)} r ON r.{name(round_, 'id')} = t.{name(table, 'round')} "
        f"LEFT OUTER JOIN {name(result)} res ON res.{name(result, 'game')} = %s "
        f"WHERE t.{name(table, 'id')} = %s"
    )


def read_facts(game: Game, idempotency_key: str = "") -> WritableFacts:
    """The round, the table, the result's status and (with a key) the event a first post with
    that key stored: one query."""
    with connection.cursor() as cursor:
        cursor.execute(facts_sql(), [game.pk, idempotency_key, game.pk, game.table_id])
        row = cursor.fetchone()
    if row is None:
        raise Table.DoesNotExist
    return WritableFacts(*row)


def check_writable(game: Game, *, facts: WritableFacts | None = None) -> dict[str, Any] | None:
    """The console writes only while the table's round runs and until the count.

    Once counted, the figures the players confirm are frozen: an event after the count (a cash
    correction, a void) would make the record say something else than the result, so it is
    refused until the count is reopened (``referee.results.reopen_count``). A result from the
    paper sheet is refused with its own reason: the desk or the head referee decides. One query for all
    of it (none when the caller read the ``facts`` already, after the game's lock).
    """
    facts = facts or read_facts(game)
    if facts.round_status != Round.Status.RUNNING:
        raise errors.RoundNotRunning(errors.ROUND_NOT_RUNNING,
                                     params={"number": facts.round_number})
    if facts.result_status == GameResult.Status.CONFIRMED:
        raise errors.ResultConfirmed(errors.RESULT_CONFIRMED,
                                     params={"table": facts.table_number})
    if facts.result_status is not None and facts.result_from_paper:
        # Not "reopen the count": the console offers no reopening of a sheet (README).
        raise errors.ResultFromPaper(errors.RESULT_FROM_PAPER,
                                     params={"table": facts.table_number})
    if facts.result_status is not None:
        raise errors.ResultCounted(errors.RESULT_COUNTED)
    return None


#: The console post's locked read of its table's game, compiled once (issue 29: the
#: compilation of its 24 columns was most of the read). One game per table: no ORDER BY.
