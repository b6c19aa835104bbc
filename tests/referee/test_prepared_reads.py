"""The console post's hot reads compiled once (issue 29, ``config.prepared``): the table with
its round and tournament, the locked game, and rows (the events a kept engine lacks, the
players' names). The same instances as the ORM's, the SQL
compiled on the first read only, and a queryset of another shape run by the ORM."""

from __future__ import annotations

import contextlib
from unittest import mock

import pytest
from django.db import connection, transaction
from django.db.models.sql.compiler import SQLCompiler, SQLInsertCompiler, SQLUpdateCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from factories import seated_table
from queries import counted

from config.prepared import PreparedRead
from referee import api, services, writability
from referee.models import Game
from tournament.models import Table

pytestmark = pytest.mark.django_db


def values(instance) -> dict:
    return {field.attname: getattr(instance, field.attname)
            for field in type(instance)._meta.concrete_fields}


def test_the_table_is_the_orms_with_its_round_and_tournament(banker):
    table = seated_table(banker=banker)
    orm = Table.objects.select_related("round__tournament").get(pk=table.pk)
    for _ in range(2):  # compiled, then kept
        read = api._table(table.pk)
        assert values(read) == values(orm) and read._state.adding is False
        with CaptureQueriesContext(connection) as ctx:
            assert values(read.round) == values(orm.round)
            assert values(read.round.tournament) == values(orm.round.tournament)
        assert counted(ctx.captured_queries) == []


def test_a_missing_table_is_a_404():
    from django.http import Http404

    with pytest.raises(Http404):
        api._table(987654)


def test_the_sql_is_compiled_once(banker):
    table = seated_table(banker=banker)
    read = PreparedRead(lambda pk: Table.objects.select_related("round__tournament").filter(pk=pk))
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiled:
        first, second = read.first(table.pk), read.first(table.pk)
    assert compiled.call_count == 1
    assert first.pk == second.pk == table.pk and first is not second


def test_the_locked_game_converts_its_columns(banker):
    table = seated_table(banker=banker)
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    with transaction.atomic():
        read = services._LOCKED_GAME.first(table.pk)
    stored = Game.objects.get(pk=game.pk)
    assert values(read) == values(stored)
    assert isinstance(read.players, list) and read.started_at.tzinfo is not None


def test_another_shape_is_run_by_the_orm(banker):
    """Two parameters: nothing is kept, the ORM answers every time."""
    table = seated_table(banker=banker)
    read = PreparedRead(lambda number: Table.objects.filter(number=number, round__number=1))
    assert read.first(table.number).pk == table.pk
    assert read.first(999) is None
    assert not read._plans.__dict__


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_locked_read_locks_and_wants_a_transaction(banker):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…)")
    table = seated_table(banker=banker)
    services.ensure_game(table=table)
    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        assert services._LOCKED_GAME.first(table.pk).table_id == table.pk
    assert "FOR UPDATE" in ctx.captured_queries[-1]["sql"]
    with pytest.raises(TransactionManagementError):
        services._LOCKED_GAME.first(table.pk)


def test_the_consoles_reads_are_not_compiled_again(banker):
    """The post's table and its locked game: compiled at most once per thread."""
    table = seated_table(banker=banker)
    services.ensure_game(table=table)
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiled:
        for _ in range(3):
            api._table(table.pk)
            with transaction.atomic():
                services._LOCKED_GAME.first(table.pk)
    assert compiled.call_count <= 2


def test_nobody_listens_to_the_saves_the_post_writes_without_the_orm():
    """The post's INSERT and UPDATE (``PreparedInsert``/``PreparedUpdate``) send no save
    signal: a receiver (an audit log of games, say) must make them ordinary saves again."""
    from django.db.models.signals import post_save, pre_save

    from referee.models import GameEvent

    for model in (Game, GameEvent):
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model)


def test_the_posts_writes_are_not_compiled(linked_post):
    """The event's INSERT and the game's UPDATE: written once, never compiled by the ORM."""
    table, game = linked_post
    compilers = (SQLCompiler, SQLInsertCompiler, SQLUpdateCompiler)
    with contextlib.ExitStack() as stack:
        compiled = [stack.enter_context(mock.patch.object(
            compiler, "as_sql", autospec=True, side_effect=compiler.as_sql))
            for compiler in compilers]
        services.post_event(table=table, event={"type": "cash", "player": game.players[0],
                                                "amount": 5}, author=None, expected_seq=1)
    assert [spy.call_count for spy in compiled] == [0, 0, 0]
    stored = Game.objects.get(pk=game.pk)
    assert stored.event_count == 2 and stored.events.get(seq=1).data["amount"] == 5


@pytest.fixture
def linked_post(banker):
    table = seated_table(banker=banker)
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    game = services.ensure_game(table=table)
    services.post_event(table=table, event={"type": "start"}, author=None, expected_seq=0)
    return table, game


def test_rows_are_the_orms_converted_and_compiled_once_per_length(linked_post):
    """``PreparedRows``: the rows the ORM reads (a JSON column decoded), compiled once per
    number of values (an ``IN`` list's length is in the SQL), never a plan of another length."""
    from config.prepared import PreparedRows
    from referee.models import GameEvent
    from tournament.models import Player

    table, game = linked_post
    services.post_event(table=table, event={"type": "cash", "player": game.players[0],
                                            "amount": 7}, author=None, expected_seq=1)
    events = PreparedRows(lambda game_id, first: GameEvent.objects.filter(game_id=game_id)
                          .filter(seq__gte=first).order_by("seq").values_list("seq", "data"))
    names = PreparedRows(lambda *ids: Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    ids = [int(key) for key in game.players]
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiled:
        assert events.all(game.pk, 0) == list(
            GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "data"))
        assert compiled.call_count == 2  # the plan's, and the ORM's in the comparison
        assert events.all(game.pk, 1)[0][1]["amount"] == 7  # decoded: a dict, not text
        assert sorted(names.all(*ids[:2])) == sorted(
            Player.objects.filter(pk__in=ids[:2]).values_list("pk", "name"))
        assert sorted(names.all(*ids)) == sorted(
            Player.objects.filter(pk__in=ids).values_list("pk", "name"))
        assert len(names.all(*ids[1:3])) == 2
        # a plan for two ids and one for all (each beside its ORM comparison); the third read
        # (two other ids) takes the plan for two
        assert compiled.call_count == 6
    assert events.all(987654, 0) == []


def test_rows_of_another_shape_are_read_by_the_orm_and_a_model_queryset_is_refused(banker):
    from config.prepared import PreparedRows

    table = seated_table(banker=banker)
    # The round's number is a second parameter the values do not name: the ORM, every time.
    shaped = PreparedRows(lambda number: Table.objects.filter(number=number, round__number=1)
                          .values_list("pk"))
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiled:
        assert shaped.all(table.number) == [(table.pk,)]
        assert shaped.all(table.number) == [(table.pk,)]
    assert compiled.call_count >= 2
    with pytest.raises(TypeError):
        PreparedRows(lambda pk: Table.objects.filter(pk=pk)).all(table.pk)


def test_an_engine_one_event_behind_reads_the_event_it_lacks_without_compiling(linked_post):
    """In a hall served by two processes every other post of a table finds its kept engine one
    event behind (the other process took the last post): it reads only the event it lacks,
    with SQL compiled once."""
    from referee import engine_cache

    table, game = linked_post
    compiles = []
    for amount in (3, 4):
        stored = Game.objects.get(pk=game.pk)
        behind = engine_cache.engine_for(stored)
        services.post_event(table=table, event={"type": "cash", "player": game.players[0],
                                                "amount": amount}, author=None)
        with engine_cache._lock:  # as the other process's post left this one's copy
            engine_cache._games[game.pk] = (engine_cache._identity(stored), behind)
        fresh = Game.objects.get(pk=game.pk)
        with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                               side_effect=SQLCompiler.as_sql) as compiled, \
                CaptureQueriesContext(connection) as ctx:
            engine = engine_cache.engine_for(fresh)
        compiles.append(compiled.call_count)
        assert len(engine) == fresh.event_count == len(behind) + 1
        rebuilt = engine_cache.new_engine(fresh)
        rebuilt.extend(fresh.events.order_by("seq").values_list("data", flat=True))
        assert engine.state.cash == rebuilt.state.cash
        assert len(counted(ctx.captured_queries)) == 1
    assert compiles[1] == 0 and compiles[0] <= 1


def test_the_idempotency_key_is_looked_up_in_its_index(linked_post):
    """Every post asks whether its key was stored before: through the partial unique index on
    (game, key), not by reading every event of the game (a post's cost must not grow with the
    game's length: the saturation bench's posts grew ~3 ms over 250 events)."""
    table, game = linked_post
    params = [game.pk, "some-key", game.pk, game.table_id]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + writability.facts_sql(), params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + writability.facts_sql(), params)
        plan = " ".join(str(part) for row in cursor.fetchall() for part in row)
    assert "game_event_idempotency_unique" in plan, plan


def test_a_key_beyond_the_columns_reads_no_row_as_the_orm_does(linked_post):
    """A URL's ``<int:…>`` takes any size: the ORM answers no rows for a key no column holds,
    and so do the prepared reads (the SQL is compiled once; sending 2**63 is an error on
    SQLite and PostgreSQL — the API fuzzer's 500s)."""
    from django.http import Http404

    from config.prepared import PreparedRows
    from referee.models import GameEvent

    table, game = linked_post
    api._table(table.pk)  # compiled
    for huge in (2**63, -(2**63) - 1, 10**30):
        with pytest.raises(Http404):
            api._table(huge)
        assert not Table.objects.filter(pk=huge).exists()  # the ORM's answer
        rows = PreparedRows(lambda game_id: GameEvent.objects.filter(game_id=game_id)
                            .values_list("seq"))
        assert rows.all(game.pk) and rows.all(huge) == []


def test_on_sqlite_the_values_are_bound_by_name_without_the_cursors_regex(banker):
    """Issue 29: SQLite's cursor turned each ``%s`` into ``?`` with a regular expression on
    every execution (65 µs for the console's table with its link); named values are
    formatted in instead. The same rows, the same statement in the captured queries."""
    from django.db.backends.sqlite3 import base as sqlite_base

    from config.prepared import _bound

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's cursor only")
    table = seated_table(banker=banker)
    read = PreparedRead(lambda pk: Table.objects.select_related("round__tournament").filter(pk=pk))
    read.first(table.pk)  # compiled
    with mock.patch.object(sqlite_base, "FORMAT_QMARK_REGEX") as regex, \
            CaptureQueriesContext(connection) as ctx:
        again = read.first(table.pk)
    assert again.pk == table.pk and again.round.tournament.pk == table.round.tournament_id
    assert regex.sub.call_count == 0
    with CaptureQueriesContext(connection) as orm:
        Table.objects.select_related("round__tournament").filter(pk=table.pk)[:1].get()
    assert ctx.captured_queries[-1]["sql"] == orm.captured_queries[-1]["sql"]
    assert _bound("SELECT '%%' || %s, %s", 2, connection) == (
        "SELECT '%%' || %(p0)s, %(p1)s", ("p0", "p1"))
    with connection.cursor() as cursor:  # a literal percent sign stays one
        cursor.execute(*(_bound("SELECT '%%' || %s", 1, connection)[0],), {"p0": "x"})
        assert cursor.fetchone() == ("%x",)
    assert _bound("SELECT %s", 2, connection) == ("SELECT %s", None)  # not its values: in order


def test_on_sqlite_the_posts_writes_bind_their_values_by_name_too(linked_post):
    from django.db.backends.sqlite3 import base as sqlite_base

    from config.prepared import PreparedInsert, PreparedUpdate
    from referee.models import GameEvent

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's cursor only")
    _table, game = linked_post
    update, insert = PreparedUpdate(Game, ("event_count",)), PreparedInsert(GameEvent)
    update.save(game)  # written once
    insert.create(game=game, seq=98, type="cash", data={"amount": 0})
    game.event_count = 7
    with mock.patch.object(sqlite_base, "FORMAT_QMARK_REGEX") as regex:
        update.save(game)
        made = insert.create(game=game, seq=99, type="cash", data={"amount": 1})
    assert regex.sub.call_count == 0
    assert Game.objects.get(pk=game.pk).event_count == 7
    assert GameEvent.objects.get(pk=made.pk).data == {"amount": 1}
