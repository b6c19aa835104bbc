"""Issue 28: actions queued offline were all stamped with their arrival. The phone now says how
long an action waited (``waited_ms``, by its own clock); the event keeps when it was made
(``made_at``) beside its arrival (``at``, the server's clock), and the console's feed shows
both. The rules' times stay the server's: an action made before the auction stop that arrives
after it is judged after it, and a wrong phone clock changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from consoles import dealt_game, keys, post_event
from django.utils import timezone
from gameplay import T0

from referee import offline
from referee.models import GameEvent

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def stored(table, seq):
    return GameEvent.objects.get(game__table=table, seq=seq).data


def test_an_action_that_waited_keeps_when_it_was_made(console, table, game, clock):
    dealt_game(game, table)
    anna = keys(table)[0]
    clock.shift(dt.timedelta(minutes=10))
    now = T0 + dt.timedelta(minutes=10)
    answer = post_event(console, table, {"type": "jail", "player": anna}, waited_ms=150_000,
                        key="k1")
    assert answer.status_code == 201
    event = stored(table, answer.json()["seq"])
    assert dt.datetime.fromisoformat(event["at"]) == now  # the server's clock, as before
    assert dt.datetime.fromisoformat(event["made_at"]) == now - dt.timedelta(seconds=150)
    # a retry of the same action waited longer: the same action, answered as before
    again = post_event(console, table, {"type": "jail", "player": anna}, waited_ms=155_000,
                       key="k1")
    assert again.status_code == 200 and again.json()["replayed"] is True
    html = console.get(f"/banker/table/{table.pk}/main/", HTTP_ACCEPT_LANGUAGE="en").content
    made = dt.datetime.fromisoformat(event["made_at"])
    shown = timezone.localtime(made).strftime("%H:%M:%S")
    assert f'data-made-at="{shown}"' in html.decode()
    assert f"(made {shown} offline, recorded " in html.decode()


@pytest.mark.parametrize("waited", [0, 2_000, 9_999, 3 * 24 * 3600 * 1000, -5, "soon", True])
def test_an_action_sent_at_once_or_an_unreadable_wait_has_no_made_at(console, table, waited):
    answer = post_event(console, table, {"type": "start"}, waited_ms=waited)
    assert answer.status_code == 201
    assert "made_at" not in stored(table, 0)


def test_a_client_cannot_send_its_own_times(console, table):
    """``at`` and ``made_at`` are the server's: ``made_at`` in the event is an unknown field."""
    answer = post_event(console, table, {"type": "start", "made_at": "2020-01-01T00:00:00+00:00"})
    assert answer.status_code == 400
    answer = post_event(console, table, {"type": "start", "at": "2020-01-01T00:00:00+00:00"})
    assert answer.status_code == 201
    assert stored(table, 0)["at"] != "2020-01-01T00:00:00+00:00"


def test_made_before_the_auction_stop_is_still_judged_after_it(console, table, game, clock):
    """The stop is the server's: a purchase made offline at 44:00 that arrives at 46:00 comes
    after the stop the server recorded at 45:00, and the rules refuse it there."""
    dealt_game(game, table)
    anna = keys(table)[0]
    clock.shift(dt.timedelta(minutes=46))
    answer = post_event(console, table, {"type": "buy", "player": anna, "deed": "opernplatz"},
                        waited_ms=120_000)
    assert answer.status_code == 422, answer.content
    assert GameEvent.objects.filter(game__table=table, type="auction_stop").exists()


def test_the_service_takes_the_wait_as_a_duration():
    now = T0
    assert offline.made_at(now=now, waited=dt.timedelta(seconds=30)) == now - dt.timedelta(
        seconds=30)
    assert offline.made_at(now=now, waited=None) is None
    assert offline.made_at(now=now, waited=dt.timedelta(seconds=3)) is None
    assert offline.made_at(now=now, waited=dt.timedelta(days=2)) is None
