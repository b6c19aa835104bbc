"""The sessions' store (``config.sessions``, issue 29): Django's database sessions, read by a
query compiled once, with the expiry compared after the read — the same answers."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from config.sessions import SessionStore

pytestmark = pytest.mark.django_db


def saved(**data) -> str:
    store = SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def test_it_is_the_projects_engine():
    assert settings.SESSION_ENGINE == "config.sessions"


def test_a_live_session_loads_and_is_compiled_once():
    key = saved(table=7)
    SessionStore(key).load()  # compiled (by this test or an earlier one)
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiled:
        assert SessionStore(key).load() == {"table": 7}
    assert compiled.call_count == 0


def test_an_expired_session_is_empty_and_its_key_dropped():
    key = saved(table=7)
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - dt.timedelta(seconds=1))
    store = SessionStore(key)
    assert store.load() == {} and store.session_key is None


def test_an_unknown_session_is_empty():
    store = SessionStore("x" * 32)
    assert store.load() == {} and store.session_key is None
