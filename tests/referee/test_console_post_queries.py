"""What one console post costs in queries (issue 17: the dress rehearsal's post p95).

The count is exact, Zulip style: a change that adds a query to the busiest write of the
championship (every banker, every few seconds) must say so here. Receivers run too (after
commit), so a lookup added to a ``game_changed`` receiver counts.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import seated_table

from referee import services
from referee.models import Game
from tournament import banker_links

pytestmark = pytest.mark.django_db

#: session; table with round and tournament; the banker link still live; the game locked;
#: the idempotency key; round running + result (one query); insert; update; the answer's
#: state: players, recent feed.
QUERIES_PER_POST = 10


def post(client, table, event, *, expected, key):
    return client.post(
        f"/api/v1/tables/{table.pk}/events", {"event": event, "expected_seq": expected},
        content_type="application/json", HTTP_IDEMPOTENCY_KEY=key,
    )


def keys(table):
    return [str(pk) for pk in table.seats.order_by("position").values_list("player_id", flat=True)]


def counted(captured) -> list[str]:
    """The statements that reach the database (a test's savepoints are a BEGIN/COMMIT in
    production, not a query)."""
    return [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


@pytest.fixture
def linked(client, banker):
    """A banker's phone that opened the table's private link (as in the hall)."""
    table = seated_table(banker=banker)
    link = banker_links.issue_link(table=table)
    assert client.get(banker_links.link_path(link)).status_code == 302
    return client, table


@pytest.mark.parametrize("events_before", [2, 40])
def test_a_console_post_costs_a_fixed_number_of_queries(
    linked, events_before, django_capture_on_commit_callbacks
):
    client, table = linked
    anna, ben, *_ = keys(table)
    assert post(client, table, {"type": "start"}, expected=0, key="k0").status_code == 201
    for seq in range(1, events_before):
        event = {"type": "cash", "player": anna if seq % 2 else ben, "amount": 10}
        assert post(client, table, event, expected=seq, key=f"k{seq}").status_code == 201
    with CaptureQueriesContext(connection) as ctx, django_capture_on_commit_callbacks(
        execute=True
    ):
        response = post(client, table, {"type": "deal", "player": ben, "deed": "turmstrasse"},
                        expected=events_before, key="next")
    assert response.status_code == 201, response.content
    queries = counted(ctx.captured_queries)
    assert len(queries) == QUERIES_PER_POST, "\n".join(q[:160] for q in queries)


def test_the_answers_state_shows_the_result_as_a_state_read_does(linked):
    """The post reads the result with its writability check; the answer must not differ
    from a state read's (a counted result, not yet confirmed, stays writable: a void)."""
    client, table = linked
    anna, ben, carla, *_ = keys(table)
    post(client, table, {"type": "start"}, expected=0, key="a")
    post(client, table, {"type": "bankrupt", "player": ben, "creditor": anna}, expected=1, key="b")
    post(client, table, {"type": "bankrupt", "player": carla, "creditor": "bank"}, expected=2,
         key="c")
    game = Game.objects.get(table=table)
    services.count_result(game_id=game.pk, author=None)
    response = post(client, table, {"type": "void", "event": 2, "reason": "Tippfehler"},
                    expected=3, key="d")
    assert response.status_code == 201, response.content
    answered = response.json()["state"]["result"]
    assert answered is not None and answered["status"] == "counted"
    assert answered == client.get(f"/api/v1/tables/{table.pk}/state").json()["result"]


def test_an_engine_behind_the_database_catches_up_with_the_events_it_lacks(linked):
    """With several web processes most posts find their process's engine a few events
    behind (the table's last posts went elsewhere): it takes only the missing events."""
    from referee import engine_cache, rules

    client, table = linked
    anna, ben, *_ = keys(table)
    post(client, table, {"type": "start"}, expected=0, key="s")
    for seq in range(1, 10):
        post(client, table, {"type": "cash", "player": anna if seq % 2 else ben, "amount": seq},
             expected=seq, key=f"c{seq}")
    game = Game.objects.get(table=table)
    events = list(game.events.order_by("seq").values_list("data", flat=True))
    behind = engine_cache.new_engine(game)
    behind.extend(events[:4])  # another process wrote the last six
    engine_cache.clear()
    with engine_cache._lock:
        engine_cache._games[game.pk] = (engine_cache._identity(game), behind)
    with CaptureQueriesContext(connection) as ctx:
        engine = engine_cache.engine_for(game)
    assert engine is behind and len(engine) == 10
    assert len(ctx.captured_queries) == 1 and '"seq" >= 4' in ctx.captured_queries[0]["sql"]
    fresh = engine_cache.new_engine(game)
    fresh.extend(events)
    assert rules.standings(engine.state) == rules.standings(fresh.state)
    assert engine.state.cash == fresh.state.cash
