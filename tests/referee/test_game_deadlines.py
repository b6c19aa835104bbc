"""The server records the auction stop (45:00) and the time limit (90:00) itself.

The clock is driven by the test (time_machine), never by waiting; pauses move the deadlines.
"""

from __future__ import annotations

import pytest
import time_machine
from factories import UserFactory, seated_table
from gameplay import T0, at, started_game

from referee import services
from referee.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return started_game(start=T0)


def buy(game, *, now):
    """The first player buys Badstraße at ``now``."""
    event = {"type": "buy", "player": game.players[0], "deed": "badstrasse"}
    return services.post_event(game_id=game.pk, event=event, author=None, now=now)


def server_events(game):
    return list(game.events.filter(author=None).exclude(type="start").values_list("type", "data"))


def test_deadlines_are_planned_from_the_start(game):
    assert game.auction_stop_due == at(45)
    assert game.time_up_due == at(90)


def test_nothing_happens_before_45_minutes(game):
    assert services.enforce_deadlines(game_id=game.pk, now=at(44.99)) == []
    assert server_events(game) == []


def test_the_auction_stop_is_recorded_at_exactly_45_00_even_when_noticed_late(game):
    recorded = services.enforce_deadlines(game_id=game.pk, now=at(46.5))
    assert [event.type for event in recorded] == ["auction_stop"]
    assert recorded[0].data["at"] == at(45).isoformat()
    assert recorded[0].author is None
    game.refresh_from_db()
    assert game.auction_stop_done and game.auction_stop_due is None
    # a second, late or duplicate timer changes nothing
    assert services.enforce_deadlines(game_id=game.pk, now=at(47)) == []


def test_a_pause_moves_both_deadlines_and_does_not_count(game):
    services.post_event(game_id=game.pk, event={"type": "pause"}, author=None, now=at(30))
    game.refresh_from_db()
    assert game.auction_stop_due is None and game.time_up_due is None
    assert services.enforce_deadlines(game_id=game.pk, now=at(50)) == []
    services.post_event(game_id=game.pk, event={"type": "resume"}, author=None, now=at(40))
    game.refresh_from_db()
    assert game.auction_stop_due == at(55)
    assert game.time_up_due == at(100)
    assert game.game_seconds(at(55)) == 45 * 60


def test_time_up_ends_the_game_and_later_events_are_refused(game):
    recorded = services.enforce_deadlines(game_id=game.pk, now=at(91))
    assert [event.type for event in recorded] == ["auction_stop", "time_up"]
    game.refresh_from_db()
    assert game.status == "finished" and game.end_reason == "time_limit"
    with pytest.raises(services.errors.EventRefused):
        buy(game, now=at(92))


def test_a_banker_event_after_the_deadline_first_sees_the_deadline(game):
    with pytest.raises(services.errors.EventRefused):
        # The limit passed while nobody looked: the late post is judged after time_up.
        buy(game, now=at(95))
    assert [t for t, _ in server_events(game)] == ["auction_stop", "time_up"]


def test_the_sweep_catches_missed_deadlines(game):
    with time_machine.travel(at(45.2), tick=False):
        assert sweep_deadlines() == 1
        assert sweep_deadlines() == 0
    assert [t for t, _ in server_events(game)] == ["auction_stop"]


def test_reading_the_state_enforces_deadlines_without_a_worker(client, game):
    with time_machine.travel(at(90), tick=False):
        state = client.get(f"/api/v1/tables/{game.table_id}/state").json()
    assert state["status"] == "finished"
    assert state["end_reason"] == "time_limit"


def test_finish_round_mode_waits_for_the_bankers_end(db):
    table = seated_table(
        banker=UserFactory(), tournament_kwargs={"time_limit_mode": "finish_round"}
    )
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    services.enforce_deadlines(game_id=game.pk, now=at(90))
    game.refresh_from_db()
    assert game.status == "final_round"
    assert game.time_up_due is None
    services.post_event(game_id=game.pk, event={"type": "end"}, author=None, now=at(93))
    game.refresh_from_db()
    assert game.status == "finished" and game.end_reason == "time_limit"
