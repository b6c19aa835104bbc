"""Issue 15, the console API under attack: bodies bounded before parsing, anonymous writes
refused before the body is read, amounts bounded, events checked against their type's fields,
a reused Idempotency-Key with another event refused, ``/state`` and ``/record`` cached with
ETags."""

from __future__ import annotations

import json

import pytest
from consoles import keys
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.cache import SessionStore
from django.test import RequestFactory

from config import parsers
from referee import api
from referee.event_schema import EVENT_MAX_BYTES
from referee.models import Game, GameEvent, Placement

pytestmark = pytest.mark.django_db

NESTED_2_4_MB = b'{"event":' + b"[" * 1_200_000 + b"]" * 1_200_000 + b"}"


def post(client, table, event, *, key=None, raw: bytes | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = raw if raw is not None else json.dumps({"event": event})
    return client.post(f"/api/v1/tables/{table.pk}/events", body,
                       content_type="application/json", **headers)


# --------------------------------------------------------------------------- 1. bodies


def test_anonymous_write_is_refused_before_the_body_is_read(table):
    request = RequestFactory().post(f"/api/v1/tables/{table.pk}/events", NESTED_2_4_MB,
                                    content_type="application/json")
    request.user, request.session = AnonymousUser(), SessionStore()
    response = api.TableEventsView.as_view()(request, table_id=table.pk)
    assert response.status_code == 403
    assert not request._read_started  # not one byte of the 2.4 MB was read
    assert not Game.objects.filter(table=table).exists()


def test_anonymous_write_through_the_whole_stack_is_403_not_500(client, table):
    response = post(client, table, None, raw=NESTED_2_4_MB)
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_table"


def test_deeply_nested_body_from_a_writer_is_400_with_a_message(console, table):
    deep = b'{"event":' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    response = post(console, table, None, raw=deep)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "body_too_deep"
    assert "verschachtelt" in body["message_de"] and "nested" in body["message_en"]


def test_oversized_body_is_refused_without_reading_it_all(console, table):
    response = post(console, table, None, raw=b'{"event": "' + b"x" * 2_500_000 + b'"}')
    assert response.status_code == 413
    assert response.json()["code"] == "body_too_large"


def test_broken_json_is_400_not_500(console, table):
    for raw in (b'{"event": ', b'{"event": NaN}', b"\xff\xfe{}"):
        response = post(console, table, None, raw=raw)
        assert response.status_code == 400, raw
        assert response.json()["code"] == "body_not_json"


def test_nesting_is_measured_without_recursion():
    deeper = parsers.nested_deeper_than
    assert not deeper(b'{"a": [1, {"b": "[[[[[["}]}', 3)
    assert deeper(b'{"a": [1, {"b": [2]}]}', 3)
    assert not deeper(b'"\\"[[[["', 0)  # brackets inside a string do not count
    assert deeper(b'{"x": ' + b"[[]," * 40 + b"1" + b"]" * 40 + b"}", 32)
    assert deeper(NESTED_2_4_MB, 32)


# --------------------------------------------------------------------------- 2. amounts


@pytest.mark.parametrize("event", [
    {"type": "pay", "from": "bank", "to": "P0", "amount": 10**15},
    {"type": "cash", "player": "P0", "amount": 10**15},
])
def test_huge_amounts_are_refused_by_the_engine(console, table, event):
    player = keys(table)[0]
    event = {k: (player if v == "P0" else v) for k, v in event.items()}
    assert post(console, table, {"type": "start"}).status_code == 201
    response = post(console, table, event)
    assert response.status_code == 422
    body = response.json()
    assert body["rule"] == "amount_too_large"
    assert "10000000" in body["message_en"] and "zu groß" in body["message_de"]


@pytest.mark.postgres
def test_net_worth_beyond_32_bits_is_stored_and_summed(table):
    """Net worth summed over rounds can pass 2**31 (a placement's own can too, after many
    payments at the limit): the columns are 64-bit, so counting and the standings never fail.
    Only PostgreSQL's integer columns are 32-bit; SQLite's are 64-bit anyway."""
    from gameplay import play

    from scoring.models import StandingRow
    from scoring.standings.services import recompute_standings

    players = [seat.player for seat in table.seats.order_by("position")]
    play(table, dict.fromkeys(players, 10000000))
    big = 3 * 2**31
    Placement.objects.filter(result__game__table=table).update(net_worth=big)
    recompute_standings(tournament_id=table.round.tournament_id)
    rows = StandingRow.objects.filter(player__in=players)
    assert rows.exists() and all(row.net_worth_sum == big for row in rows)
    assert Placement._meta.get_field("net_worth").get_internal_type() == "BigIntegerField"


# --------------------------------------------------------------------------- 3. event schema


def test_unknown_event_fields_are_refused(console, table):
    response = post(console, table, {"type": "start", "payload": "x"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_event_field"
    assert "payload" in body["message_en"] and "payload" in body["message_de"]
    assert not GameEvent.objects.filter(game__table=table).exists()


def test_oversized_events_and_long_texts_are_refused(console, table):
    assert post(console, table, {"type": "start"}).status_code == 201
    huge = {"type": "pause", "reason": "x" * (EVENT_MAX_BYTES + 1)}
    assert post(console, table, huge).json()["code"] == "event_too_large"
    long_reason = {"type": "pause", "reason": "x" * 600}
    response = post(console, table, long_reason)
    assert response.status_code == 400
    assert response.json()["code"] == "event_text_too_long"
    nested = {"type": "trade", "from": "1", "to": "2", "deeds": [{"a": 1}]}
    assert post(console, table, nested).json()["code"] == "event_nested_value"
    assert GameEvent.objects.filter(game__table=table).count() == 1


def test_every_field_the_console_sends_is_accepted(console, table):
    anna, ben = keys(table)[:2]
    events = [
        {"type": "start"},
        {"type": "pause", "reason": "toilet"},
        {"type": "resume"},
        {"type": "buy", "player": anna, "deed": "badstrasse"},
        {"type": "pay", "from": ben, "to": anna, "amount": 4, "reason": "rent",
         "deed": "badstrasse"},
        {"type": "trade", "from": anna, "to": ben, "deeds": ["badstrasse"], "cash": 10},
        {"type": "cash", "player": anna, "amount": 1000},
        {"type": "void", "event": 6, "reason": "typo"},
    ]
    for event in events:
        response = post(console, table, event)
        assert response.status_code == 201, (event, response.json())


# --------------------------------------------------------------------------- 5. idempotency


def test_a_reused_idempotency_key_with_another_event_is_422(console, table):
    assert post(console, table, {"type": "start"}, key="k-1").status_code == 201
    again = post(console, table, {"type": "start"}, key="k-1")
    assert again.status_code == 200 and again.json()["replayed"] is True
    other = post(console, table, {"type": "pause"}, key="k-1")
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert GameEvent.objects.filter(game__table=table).count() == 1


# --------------------------------------------------------------------------- 4. ETags


def test_state_and_record_answer_304_and_cache_the_body(console, client, table,
                                                         django_assert_max_num_queries):
    assert post(console, table, {"type": "start"}).status_code == 201
    for path in (f"/api/v1/tables/{table.pk}/state", f"/api/v1/tables/{table.pk}/record"):
        first = console.get(path)
        assert first.status_code == 200 and first["ETag"]
        assert first.json()
        with django_assert_max_num_queries(12):
            again = console.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again["ETag"] == first["ETag"]
        assert console.get(path).content == first.content  # served from the cache
    before = console.get(f"/api/v1/tables/{table.pk}/record")["ETag"]
    assert post(console, table, {"type": "pause"}).status_code == 201
    after = console.get(f"/api/v1/tables/{table.pk}/record", HTTP_IF_NONE_MATCH=before)
    assert after.status_code == 200 and after["ETag"] != before
    assert len(after.json()["events"]) == 2
