"""A console opened by its banker link: its table read with the session's live link in one
statement (issue 29: a banker's post read the table, then the link); the permission check and
the author then ask no more, and a link that is not live is found as before."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from factories import seated_table
from queries import counted

from tournament import access, banker_links
from tournament.models import Round, Table


@pytest.fixture
def banker(django_user_model):
    return django_user_model.objects.create_user("link-banker", password="x")


def _request(link=None, table=None):
    request = RequestFactory().post("/")
    request.session = SessionStore()
    if link is not None:
        banker_links.grant(request.session, link)
    elif table is not None:  # a nonce the table never had
        request.session[banker_links.SESSION_KEY] = {str(table.pk): "forged"}
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    return request


@pytest.mark.django_db
def test_a_live_link_brings_its_table_round_and_tournament_in_one_read(banker):
    table = seated_table(banker=banker)
    link = banker_links.issue_link(table=table)
    request = _request(link)
    with CaptureQueriesContext(connection) as ctx:
        read = access.table_by_link(request, table.pk)
        assert read.pk == table.pk and read.round.tournament.pk == table.round.tournament_id
        assert access.can_run_table(request, read)
        assert access.table_author(request, read) == banker
    assert len(counted(ctx.captured_queries)) == 1
    orm = Table.objects.select_related("round__tournament").get(pk=table.pk)
    for field in Table._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(orm, field.attname)
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiled:
        access.table_by_link(_request(link), table.pk)
    assert compiled.call_count == 0  # compiled once, kept


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["revoked", "round closed", "forged"])
def test_a_link_not_live_reads_the_table_alone_and_is_refused_without_another_read(
    banker, how
):
    table = seated_table(banker=banker)
    link = banker_links.issue_link(table=table)
    if how == "revoked":
        link.revoked_at = timezone.now()
        link.save()
    elif how == "round closed":
        Round.objects.filter(pk=table.round_id).update(status=Round.Status.COMPLETE)
    request = _request(None if how == "forged" else link, table=table)
    with CaptureQueriesContext(connection) as ctx:
        assert access.table_by_link(request, table.pk) is None
        fresh = Table.objects.select_related("round__tournament").get(pk=table.pk)
        assert not access.can_run_table(request, fresh)
    assert len(counted(ctx.captured_queries)) == 2  # the link, the table: nothing more


@pytest.mark.django_db
def test_no_link_in_the_session_reads_nothing(banker):
    table = seated_table(banker=banker)
    with CaptureQueriesContext(connection) as ctx:
        assert access.table_by_link(_request(), table.pk) is None
        assert access.table_by_link(_request(), 2**63) is None
    assert counted(ctx.captured_queries) == []
