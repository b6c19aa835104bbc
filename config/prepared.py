"""Hot reads of model rows compiled once (issue 29: the banker's post, every few seconds at
every table).

Django compiles a queryset's SQL anew each time it runs: for the console post's table (with
its round and tournament, 39 columns) and its locked game (24 columns) the compilation was
most of the read's CPU, for the same SQL every time. A :class:`PreparedRead` compiles its
queryset once per thread and database connection, keeps the SQL, the columns' converters and
how a row becomes instances (with the ``select_related`` objects), and afterwards only
executes the SQL with the new values; a :class:`PreparedRows` does the same for a
``values_list`` read.

It serves querysets of one shape: one model, optionally ``select_related`` and
``select_for_update``, filtered by the values it is built from, which are exactly the SQL's
parameters in their order, no annotations, no prefetching. A queryset whose compiled
parameters are not exactly those values is run through the ORM every time (nothing kept), so
a wrong use is slow, never wrong.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import ValuesListIterable, get_related_populators
from django.db.transaction import TransactionManagementError


@dataclass(frozen=True)
class _Plan:
    sql: str
    compiler: Any
    converters: dict
    model: type[Model]
    start: int
    end: int
    init_list: list[str]
    populators: list
    for_update: bool
    names: tuple[str, ...] | None = None


#: What a database's integer column holds (64 bits): the ORM answers "no rows" for a larger
#: key (a URL's ``<int:…>`` takes any size) instead of sending it; so do the reads here —
#: the SQL is compiled once, so the ORM's check is not made again for a new value.
_INTEGER_RANGE = (-(2**63), 2**63 - 1)


def _holds_no_row(values: tuple[Any, ...]) -> bool:
    low, high = _INTEGER_RANGE
    return any(isinstance(value, int) and not low <= value <= high for value in values)


def _bound(sql: str, count: int, connection) -> tuple[str, tuple[str, ...] | None]:
    """The statement as executed, and the names its values are bound to (None: in order).

    SQLite's cursor turns each ``%s`` into ``?`` with a regular expression on every execution,
    ~60 µs for the console's table with its link (five tables' columns); with named
    parameters it formats the names in instead (issue 29). The same statement: checked here
    against the expression's, else the values stay in order."""
    if connection.vendor != "sqlite":
        return sql, None
    from django.db.backends.sqlite3.base import FORMAT_QMARK_REGEX

    names = tuple(f"p{index}" for index in range(count))
    numbered = iter(names)
    try:
        named = FORMAT_QMARK_REGEX.sub(lambda _match: f"%({next(numbered)})s", sql)
        executed = named % {name: f":{name}" for name in names}
    except (StopIteration, TypeError, ValueError, KeyError):
        return sql, None
    expected = FORMAT_QMARK_REGEX.sub("?", sql).replace("%%", "%")
    if next(numbered, None) is not None or _NAME.sub("?", executed) != expected:
        return sql, None
    return named, names


_NAME = re.compile(r":p\d+\b")


def _values(names: tuple[str, ...] | None, values) -> list | dict:
    return list(values) if names is None else dict(zip(names, values, strict=True))


class PreparedRead:
    """``build(*values)``: the queryset for these values (e.g. ``Table.objects.filter(pk=value)``).
    :meth:`first` runs it compiled once: the first row's instance, or None."""

    def __init__(self, build: Callable[[Any], QuerySet]) -> None:
        self._build = build
        self._plans = threading.local()  # a connection belongs to its thread

    def first(self, *values: Any, using: str = DEFAULT_DB_ALIAS) -> Model | None:
        if _holds_no_row(values):
            return None
        connection = connections[using]
        plans = self._plans.__dict__
        plan = plans.get(id(connection))
        if plan is None:
            plan = self._plan(values, using)
            if plan is None:  # not of the shape served: the ORM, every time
                return self._build(*values).using(using).first()
            plans[id(connection)] = plan
        if (plan.for_update and connection.features.has_select_for_update
                and connection.get_autocommit() and connection.features.supports_transactions):
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction.")
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, _values(plan.names, values))
            row = cursor.fetchone()
        if row is None:
            return None
        if plan.converters:
            row = next(iter(plan.compiler.apply_converters([row], plan.converters)))
        instance = plan.model.from_db(using, plan.init_list, row[plan.start:plan.end])
        for populator in plan.populators:
            populator.populate(row, instance)
        return instance

    def _plan(self, values: tuple[Any, ...], using: str) -> _Plan | None:
        queryset = self._build(*values)[:1]
        query = queryset.query
        if (query.annotations or queryset._prefetch_related_lookups
                or queryset._known_related_objects or query.extra or query.combinator):
            return None
        compiler = query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if list(params) != list(values):
            return None
        sql, names = _bound(sql, len(values), connections[using])
        klass_info = compiler.klass_info
        fields = [column[0] for column in compiler.select[:compiler.col_count]]
        select_fields = klass_info["select_fields"]
        start, end = select_fields[0], select_fields[-1] + 1
        return _Plan(
            sql=sql, compiler=compiler, converters=compiler.get_converters(fields),
            model=klass_info["model"], start=start, end=end,
            init_list=[column[0].target.attname for column in compiler.select[start:end]],
            populators=get_related_populators(klass_info, compiler.select, using),
            for_update=query.select_for_update, names=names,
        )


class PreparedRows:
    """``build(*values)``: a ``values_list`` queryset for these values. :meth:`all` runs it
    compiled once per thread, connection and number of values (an ``IN`` list's length is
    part of the SQL): its rows as tuples, each column converted as the ORM converts it. Of
    another shape (the compiled parameters are not exactly the values): the ORM, every time."""

    def __init__(self, build: Callable[..., QuerySet]) -> None:
        self._build = build
        self._plans = threading.local()

    def all(self, *values: Any, using: str = DEFAULT_DB_ALIAS) -> list[tuple]:
        if _holds_no_row(values):
            return []
        connection = connections[using]
        plans = self._plans.__dict__
        plan = plans.get((id(connection), len(values)))
        if plan is None:
            queryset = self._build(*values)
            if queryset._iterable_class is not ValuesListIterable:
                raise TypeError("PreparedRows reads a values_list() queryset (not flat)")
            compiler = queryset.query.get_compiler(using=using)
            sql, params = compiler.as_sql()
            if list(params) != list(values):  # not of the shape served: the ORM, every time
                return list(queryset.using(using))
            fields = [column[0] for column in compiler.select[:compiler.col_count]]
            plan = plans[(id(connection), len(values))] = (
                *_bound(sql, len(values), connection), compiler, compiler.get_converters(fields))
        sql, names, compiler, converters = plan
        with connection.cursor() as cursor:
            cursor.execute(sql, _values(names, values))
            rows = cursor.fetchall()
        if converters:
            rows = [tuple(row) for row in compiler.apply_converters(rows, converters)]
        return rows


class PreparedUpdate:
    """``instance.save(update_fields=fields)`` with its SQL written once per connection: the
    same values (each field's ``pre_save``, so ``auto_now`` too, then ``get_db_prep_save``, as
    Django's update compiler takes them), no compilation. No ``pre_save``/``post_save``
    signal is sent: for models nobody listens to (as ``QuerySet.update``)."""

    def __init__(self, model: type[Model], fields: tuple[str, ...]) -> None:
        self.model = model
        self.fields = [model._meta.get_field(name) for name in fields]
        self._sql: dict[int, tuple[str, tuple[str, ...] | None]] = {}

    def save(self, instance: Model, *, using: str = DEFAULT_DB_ALIAS) -> None:
        connection = connections[using]
        statement = self._sql.get(id(connection))
        if statement is None:
            quote = connection.ops.quote_name
            statement = self._sql[id(connection)] = _bound("UPDATE {} SET {} WHERE {} = %s".format(
                quote(self.model._meta.db_table),
                ", ".join(f"{quote(field.column)} = %s" for field in self.fields),
                quote(self.model._meta.pk.column),
            ), len(self.fields) + 1, connection)
        sql, names = statement
        params = [field.get_db_prep_save(field.pre_save(instance, False), connection)
                  for field in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(sql, _values(names, [*params, instance.pk]))
            if cursor.rowcount != 1:
                raise self.model.DoesNotExist(f"{self.model.__name__} {instance.pk} not updated")


class PreparedInsert:
    """``Model.objects.create(**values)`` with its SQL written once per connection (every
    concrete field but the automatic primary key, each field's ``pre_save`` and
    ``get_db_prep_save`` as Django's insert compiler takes them; the new key from RETURNING
    where the database has it). No ``pre_save``/``post_save`` signal is sent: for models
    nobody listens to."""

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        self.fields = [field for field in model._meta.concrete_fields if not field.primary_key]
        self._sql: dict[int, tuple[str, tuple[str, ...] | None]] = {}

    def create(self, *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> Model:
        connection = connections[using]
        meta = self.model._meta
        returning = connection.features.can_return_columns_from_insert
        statement = self._sql.get(id(connection))
        if statement is None:
            quote = connection.ops.quote_name
            sql = "INSERT INTO {} ({}) VALUES ({})".format(
                quote(meta.db_table), ", ".join(quote(field.column) for field in self.fields),
                ", ".join(["%s"] * len(self.fields)),
            )
            if returning:
                clause, _params = connection.ops.return_insert_columns([meta.pk])
                sql = f"{sql} {clause}"
            statement = self._sql[id(connection)] = _bound(sql, len(self.fields), connection)
        sql, names = statement
        instance = self.model(**values)
        params = [field.get_db_prep_save(field.pre_save(instance, True), connection)
                  for field in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(sql, _values(names, params))
            if returning:
                pk = cursor.fetchone()[0]
            else:
                pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
        instance.pk = meta.pk.to_python(pk)
        instance._state.adding = False
        instance._state.db = using
        return instance
