"""The game's version, part of every ETag of its state, record and console fragment together
with its event count (``referee.timers``): a post moves the count and writes no version (one
cache write fewer per banker action, issue 29); a change without an event replaces it by a
value no ETag named before, also after the cache lost it.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.cache import cache
from django.test import override_settings
from gameplay import T0, linked_game

from referee import rulings, services, timers

pytestmark = pytest.mark.django_db


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def state(client, table, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/api/v1/tables/{table.pk}/state", **headers)


@pytest.fixture
def linked(client, banker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        table, game = linked_game(client, banker, start=at(0))
    return client, table, game


def test_a_post_moves_the_etag_by_its_count_and_writes_no_version(
        linked, django_capture_on_commit_callbacks):
    client, table, game = linked
    with time_machine.travel(at(1), tick=False):
        before = state(client, table)
        version = timers.version(game.pk)
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            services.post_event(game_id=game.pk, event={"type": "pause"}, author=None)
        assert callbacks  # the after-commit work ran
        after = state(client, table, etag=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert timers.version(game.pk) == version


def test_a_ruling_moves_the_version(linked, django_capture_on_commit_callbacks):
    client, table, game = linked
    with time_machine.travel(at(1), tick=False):
        before = state(client, table)
        with django_capture_on_commit_callbacks(execute=True):
            rulings.extra_time(game_id=game.pk, minutes=5, reason="Brett neu", by=None)
        after = state(client, table, etag=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


def test_a_version_the_cache_lost_comes_back_as_one_no_etag_named(
        linked, django_capture_on_commit_callbacks):
    """Extra time at the same event count, then the version evicted: counted from 1 again,
    the state after the ruling would carry the ETag of the state before it (a stale 304)."""
    client, table, game = linked
    with time_machine.travel(at(1), tick=False):
        before = state(client, table)
        with django_capture_on_commit_callbacks(execute=True):
            rulings.extra_time(game_id=game.pk, minutes=5, reason="Brett neu", by=None)
        cache.delete(timers.VERSION_KEY.format(id=game.pk))  # evicted (or Redis restarted)
        after = state(client, table, etag=before["ETag"])
    assert after.status_code == 200, "a stale 304 after the version was lost"
    assert after.json()["clock"]["extra_minutes"] == 5


def test_without_a_cache_no_version_repeats():
    """Redis unreachable drops every write: each read is a new version, so no 304 is
    answered for a change nobody could record."""
    dummy = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    with override_settings(CACHES=dummy):
        assert timers.version(7) != timers.version(7)
