"""The broker away: queueing answers False instead of raising, so a banker's committed event
is answered 201 and its timers and standings are left to the periodic sweeps. A closed port
stands in for the broker (connections are really refused); the rehearsal's Redis fault test
restarts a real Redis mid-round."""

from __future__ import annotations

import pytest
from celery import Celery
from factories import UserFactory, seated_table

import referee.tasks
from config.celery import app
from config.queue import enqueue
from referee.models import Game

CLOSED = "redis://127.0.0.1:1/0"


@pytest.fixture
def unreachable():
    """A Celery app whose broker refuses connections (a closed port on this machine)."""
    away = Celery("outage", broker=CLOSED, set_as_current=False)
    away.conf.broker_connection_timeout = 0.2
    away.conf.broker_transport_options = {"socket_connect_timeout": 0.2}
    return away


def test_enqueue_answers_false_when_the_broker_refuses(unreachable):
    @unreachable.task(name="outage.noop", shared=False)
    def noop():
        return None

    assert enqueue(noop) is False


def test_enqueue_queues_when_the_broker_is_there():
    # Eager (embedded default): the task runs in-process and enqueue reports success.
    assert app.conf.task_always_eager
    assert enqueue(app.tasks["config.ping"]) is True


@pytest.mark.django_db
def test_a_bankers_event_is_answered_201_while_the_broker_is_away(
    client, settings, monkeypatch, unreachable, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # timers are planned only with a broker
    planned = []

    @unreachable.task(name="referee.fire_deadlines", shared=False)
    def fire_deadlines(game_id):
        planned.append(game_id)

    monkeypatch.setattr(referee.tasks, "fire_deadlines", fire_deadlines)
    banker = UserFactory(username="bank1")
    table = seated_table(banker=banker)
    client.force_login(banker)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/tables/{table.pk}/events", {"event": {"type": "start"}},
                               content_type="application/json")
    assert response.status_code == 201, response.content
    game = Game.objects.get(table=table)
    assert game.event_count == 1 and game.auction_stop_due is not None  # left to the sweep
    assert planned == []  # nothing ran: the timer really could not be queued
