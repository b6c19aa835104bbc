"""What one state poll costs in queries (issue 29: polls that never lock).

Every console polls its table's state, a spectator's table page too; on two cores a poll that
takes a row lock, or re-reads the game, is a banker's post answered late. The count is exact,
Zulip style: a query added to the poll must say so here. A poll takes the row lock only when a
deadline is due (the console page does the same).
"""

from __future__ import annotations

import json
import re

import pytest
import time_machine
from django.db import connection
from django.test import Client
from gameplay import at
from queries import explain, state_poll

from referee import follow, rulings
from referee.models import Game

pytestmark = pytest.mark.django_db

#: session; the banker link still live; table with round and tournament; the game with its
#: result (one query); players; recent feed. A 304 of the full view: the first four.
BANKER_POLL = 6
BANKER_POLL_UNCHANGED = 4
#: table with round and tournament; the game with its result; players; recent feed.
PUBLIC_POLL = 4
PUBLIC_POLL_UNCHANGED = 2
#: A poll naming the ETag the full view last answered: a 304 before the session (issue 29,
#: ``referee.follow``).
FOLLOWED_POLL = 0


@pytest.mark.parametrize("who", ["banker", "public"])
def test_a_poll_before_a_deadline_takes_no_lock_and_reads_the_game_once(linked, who):
    client, table, _game = linked
    reader = client if who == "banker" else Client()
    full, unchanged = (
        (BANKER_POLL, BANKER_POLL_UNCHANGED) if who == "banker"
        else (PUBLIC_POLL, PUBLIC_POLL_UNCHANGED)
    )
    with time_machine.travel(at(30), tick=False):
        response, queries = state_poll(reader, table)
        assert response.status_code == 200, response.content
        assert response.json()["clock"]["auction_stop_done"] is False
        assert len(queries) == full, explain(queries)
        assert not any("FOR UPDATE" in sql for sql in queries)
        assert sum('FROM "referee_game"' in q for q in queries) == 1
        again, queries = state_poll(reader, table, etag=response["ETag"])
        assert again.status_code == 304
        assert len(queries) == FOLLOWED_POLL, explain(queries)
        follow.forget(table.pk)  # no entry kept (evicted, expired): the full view's 304
        again, queries = state_poll(reader, table, etag=response["ETag"])
        assert again.status_code == 304
        assert len(queries) == unchanged, explain(queries)
    assert not any("FOR UPDATE" in sql for sql in queries)
    assert sum('FROM "referee_game"' in q for q in queries) == 1


def test_no_poll_before_a_deadline_locks_the_row(linked):
    """On PostgreSQL the lock is in the SQL; on SQLite it is the extra read it comes with."""
    client, table, _game = linked
    with time_machine.travel(at(44.99), tick=False):
        _, queries = state_poll(client, table)
    assert not any("FOR UPDATE" in sql for sql in queries), explain(queries)
    assert sum('FROM "referee_game"' in q for q in queries) == 1, explain(queries)


def test_a_poll_after_a_deadline_records_it_and_answers_with_it(linked):
    client, table, _game = linked
    with time_machine.travel(at(46), tick=False):
        before, _ = state_poll(client, table, etag=None)
    assert before.status_code == 200
    assert before.json()["clock"]["auction_stop_done"] is True
    assert before.json()["feed"][0]["type"] == "auction_stop"
    game = Game.objects.get(table=table)
    assert game.auction_stop_done and game.auction_stop_due is None
    with time_machine.travel(at(47), tick=False):
        # Recorded once: the next poll finds nothing due, takes no lock, answers 304 (the
        # full view's: the recording changed the table after the first poll read its token).
        again, queries = state_poll(client, table, etag=before["ETag"])
        assert again.status_code == 304
        assert len(queries) == BANKER_POLL_UNCHANGED, explain(queries)
        again, queries = state_poll(client, table, etag=before["ETag"])
    assert again.status_code == 304
    assert len(queries) == FOLLOWED_POLL, explain(queries)
    if connection.vendor == "postgresql":
        with time_machine.travel(at(91), tick=False):
            ended, queries = state_poll(client, table)
        assert ended.json()["status"] == "finished"
        assert any("FOR UPDATE" in sql for sql in queries), explain(queries)


def console_state_etag(html: str) -> str:
    """The state the console's fragment shows, as the state API names it."""
    found = re.search(r'<script id="console-data" type="application/json">(.*?)</script>', html,
                      re.S)
    return json.loads(found.group(1))["state_etag"]


@pytest.mark.django_db(transaction=True)  # the version follows the commit, as in production
def test_the_console_follows_from_the_state_its_page_shows_a_304_until_the_table_moves(linked):
    """Issue 28: the console polls every second; its first poll asks from the state its page
    was drawn at, so it costs the four reads of a 304 and fetches no fragment; a post's answer
    names its state too, and extra time given elsewhere is a change (the chip follows)."""
    client, table, _game = linked
    with time_machine.travel(at(30), tick=False):
        page = client.get(f"/banker/table/{table.pk}/")
        etag = console_state_etag(page.content.decode())
        first, queries = state_poll(client, table, etag=etag)
        assert first.status_code == 304
        assert len(queries) == BANKER_POLL_UNCHANGED, explain(queries)
        posted = client.post(
            f"/api/v1/tables/{table.pk}/events?fragment=main",
            json.dumps({"event": {"type": "pause"}, "expected_seq": 1}),
            content_type="application/json")
        assert posted.status_code == 201, posted.content
        after_post = posted.json()["state"]["etag"]
        assert after_post != etag
        assert console_state_etag(posted.json()["main"]) == after_post
        assert state_poll(client, table, etag=after_post)[0].status_code == 304
        again, queries = state_poll(client, table, etag=after_post)
        assert again.status_code == 304
        assert len(queries) == FOLLOWED_POLL, explain(queries)
        game = Game.objects.get(table=table)
        rulings.extra_time(game_id=game.pk, minutes=5, reason="Brett neu aufgebaut", by=None)
        moved, queries = state_poll(client, table, etag=after_post)
    assert moved.status_code == 200
    assert moved.json()["clock"]["extra_minutes"] == 5
    assert len(queries) == BANKER_POLL, explain(queries)
    assert not any("FOR UPDATE" in sql for sql in queries)
