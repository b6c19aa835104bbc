"""Hot reads of model rows compiled once (issue 29: the banker's post, every few seconds at
every table).

Django compiles a queryset's SQL anew each time it runs: for the console post's table (with
its round and tournament, 39 columns) and its locked game (24 columns) the compilation was
most of the read's CPU, for the same SQL every time. A :class:`PreparedRead` compiles its
queryset once per thread and database connection, keeps the SQL, the columns' converters and
how a row becomes instances (with the ``select_related`` objects), and afterwards only
executes the SQL with the new value.

It serves querysets of one shape: one model, optionally ``select_related`` and
``select_for_update``, filtered by one value that is the SQL's only parameter, no
annotations, no prefetching. A queryset whose compiled parameters are not exactly that value
is run through the ORM every time (nothing kept), so a wrong use is slow, never wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
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


class PreparedRead:
    """``build(value)``: the queryset for one value (e.g. ``Table.objects.filter(pk=value)``).
    :meth:`first` runs it compiled once: the first row's instance, or None."""

    def __init__(self, build: Callable[[Any], QuerySet]) -> None:
        self._build = build
        self._plans = threading.local()  # a connection belongs to its thread

    def first(self, value: Any, *, using: str = DEFAULT_DB_ALIAS) -> Model | None:
        connection = connections[using]
        plans = self._plans.__dict__
        plan = plans.get(id(connection))
        if plan is None:
            plan = self._plan(value, using)
            if plan is None:  # not of the shape served: the ORM, every time
                return self._build(value).using(using).first()
            plans[id(connection)] = plan
        if (plan.for_update and connection.features.has_select_for_update
                and connection.get_autocommit() and connection.features.supports_transactions):
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction.")
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, [value])
            row = cursor.fetchone()
        if row is None:
            return None
        if plan.converters:
            row = next(iter(plan.compiler.apply_converters([row], plan.converters)))
        instance = plan.model.from_db(using, plan.init_list, row[plan.start:plan.end])
        for populator in plan.populators:
            populator.populate(row, instance)
        return instance

    def _plan(self, value: Any, using: str) -> _Plan | None:
        queryset = self._build(value)[:1]
        query = queryset.query
        if (query.annotations or queryset._prefetch_related_lookups
                or queryset._known_related_objects or query.extra or query.combinator):
            return None
        compiler = query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if list(params) != [value]:
            return None
        klass_info = compiler.klass_info
        fields = [column[0] for column in compiler.select[:compiler.col_count]]
        select_fields = klass_info["select_fields"]
        start, end = select_fields[0], select_fields[-1] + 1
        return _Plan(
            sql=sql, compiler=compiler, converters=compiler.get_converters(fields),
            model=klass_info["model"], start=start, end=end,
            init_list=[column[0].target.attname for column in compiler.select[start:end]],
            populators=get_related_populators(klass_info, compiler.select, using),
            for_update=query.select_for_update,
        )
