"""A real Celery worker fires the time limit by itself, with no console open."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone
from factories import UserFactory, seated_table

from referee import services
from referee.models import Game

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_records_the_auction_stop_and_time_up_on_its_own(celery_worker):
    table = seated_table(banker=UserFactory())
    game = services.ensure_game(table=table)
    # The game started 89:58 ago (the test drives the clock, it does not wait 90 minutes):
    # the auction stop is overdue and time_up is two seconds away.
    started = timezone.now() - dt.timedelta(minutes=89, seconds=58)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=started)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        game = Game.objects.get(pk=game.pk)
        if game.status == Game.Status.FINISHED:
            break
        time.sleep(0.2)
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "time_limit"
    types = list(game.events.order_by("seq").values_list("type", "author"))
    assert types == [("start", None), ("auction_stop", None), ("time_up", None)]
    time_up = game.events.get(type="time_up")
    assert time_up.data["at"] == (started + dt.timedelta(minutes=90)).isoformat()
