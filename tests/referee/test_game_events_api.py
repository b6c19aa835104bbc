"""The console API: events through the engine, idempotency, stale sequence numbers, access."""

from __future__ import annotations

import pytest
from consoles import keys, post_event
from factories import OrganizerFactory, UserFactory

from referee import results, services
from referee.models import Game, GameEvent
from referee.results import revision_of

pytestmark = pytest.mark.django_db


def test_events_are_applied_in_order_and_state_follows(console, table):
    anna, ben = keys(table)[:2]
    assert post_event(console, table, {"type": "start"}).status_code == 201
    response = post_event(console, table, {"type": "deal", "player": anna, "deed": "badstrasse"})
    assert response.status_code == 201
    body = response.json()
    assert body["seq"] == 1
    state = body["state"]
    assert state["seq"] == 2
    owner = {deed["key"]: deed["owner"] for deed in state["deeds"]}
    assert owner["badstrasse"] == anna
    cash = {p["id"]: p["cash"] for p in state["players"]}
    assert cash[anna] == 1500 - 60  # Karlsruhe: dealt deeds are paid
    assert cash[ben] == 1500
    stored = GameEvent.objects.get(game__table=table, seq=1)
    assert stored.data["deed"] == "badstrasse" and stored.data["at"]
    assert stored.author.username == "bank1"


def test_a_retry_with_the_same_idempotency_key_adds_nothing(console, table):
    first = post_event(console, table, {"type": "start"}, key="abc-1")
    again = post_event(console, table, {"type": "start"}, key="abc-1")
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["seq"] == first.json()["seq"] == 0
    assert GameEvent.objects.filter(game__table=table).count() == 1


def test_a_stale_sequence_number_gets_409_with_the_current_state(console, table):
    post_event(console, table, {"type": "start"}, expected_seq=0)
    anna = keys(table)[0]
    response = post_event(
        console, table, {"type": "buy", "player": anna, "deed": "badstrasse"}, expected_seq=0
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale_sequence"
    assert body["state"]["seq"] == 1
    assert "inzwischen" in body["message_de"] and "meanwhile" in body["message_en"]
    assert GameEvent.objects.filter(game__table=table).count() == 1


def test_an_illegal_event_is_refused_with_the_rule_in_both_languages(console, table):
    anna = keys(table)[0]
    post_event(console, table, {"type": "start"})
    post_event(console, table, {"type": "deal", "player": anna, "deed": "badstrasse"})
    response = post_event(console, table, {"type": "build", "deed": "badstrasse"})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "event_refused"
    assert body["index"] == 2
    # The rule named: the colour group is incomplete, Turmstraße is missing.
    assert "Turmstraße" in body["message_de"] and "Turmstraße" in body["message_en"]
    assert body["message_de"] != body["message_en"]
    assert GameEvent.objects.filter(game__table=table).count() == 2


def test_malformed_body_is_a_clear_400(console, table):
    response = console.post(
        f"/api/v1/tables/{table.pk}/events", {"event": "buy"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_event"


def test_only_the_tables_banker_and_organizers_may_write(client, table):
    assert post_event(client, table, {"type": "start"}).status_code == 403
    client.force_login(UserFactory(username="other-banker"))
    assert post_event(client, table, {"type": "start"}).status_code == 403
    client.force_login(OrganizerFactory())
    assert post_event(client, table, {"type": "start"}).status_code == 201


def test_everyone_reads_public_state_without_private_data(client, console, table):
    anna = keys(table)[0]
    post_event(console, table, {"type": "start"})
    post_event(console, table, {"type": "deal", "player": anna, "deed": "badstrasse"})
    client.logout()
    response = client.get(f"/api/v1/tables/{table.pk}/state")
    assert response.status_code == 200
    state = response.json()
    assert "cash" not in state["players"][0]  # no ledger: spectators see net worth, not cash
    etag = response["ETag"]
    assert (
        client.get(f"/api/v1/tables/{table.pk}/state", HTTP_IF_NONE_MATCH=etag).status_code == 304
    )


def test_record_replays_to_the_same_standings(console, table):
    from referee import rules

    anna, ben = keys(table)[:2]
    for event in (
        {"type": "start"},
        {"type": "deal", "player": anna, "deed": "parkstrasse"},
        {"type": "deal", "player": ben, "deed": "schlossallee"},
        {"type": "trade", "from": ben, "to": anna, "deeds": ["schlossallee"], "cash": 500},
    ):
        assert post_event(console, table, event).status_code == 201
    record = console.get(f"/api/v1/tables/{table.pk}/record").json()
    assert record["format"] == "monopoly-game-record/1"
    assert len(record["events"]) == 4
    replayed = rules.replay_result(rules.replay(rules.parse_record(record)))
    state = console.get(f"/api/v1/tables/{table.pk}/state").json()
    assert replayed["standings"] == state["standings"]


def test_two_bankruptcies_end_the_game_and_the_count_needs_a_second_person(console, table):
    anna, ben, carla, *_ = keys(table)
    post_event(console, table, {"type": "start"})
    post_event(console, table, {"type": "bankrupt", "player": ben, "creditor": anna})
    response = post_event(console, table, {"type": "bankrupt", "player": carla, "creditor": "bank"})
    assert response.json()["state"]["status"] == "finished"
    game = Game.objects.get(table=table)
    assert game.end_reason == "second_bankruptcy"
    result = results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=None)
    assert result.status == "counted"
    assert result.placements.count() == 6
    with pytest.raises(services.errors.WrongConfirmationCode):
        results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                               code="x" + game.confirmation_code[1:], by=None)
    result = results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                    code=game.confirmation_code, by=None)
    assert result.status == "confirmed" and result.confirmed_via == "player_code"
    # A confirmed result closes the game to the console (issue 14): 409, not the engine's 422.
    late = post_event(console, table, {"type": "buy", "player": anna, "deed": "badstrasse"})
    assert late.status_code == 409 and late.json()["code"] == "result_confirmed"


def test_refusals_name_players_not_ids(console, table):
    anna = keys(table)[0]
    post_event(console, table, {"type": "start"})
    post_event(console, table, {"type": "jail", "player": anna})
    response = post_event(console, table, {"type": "jail", "player": anna})
    assert response.status_code == 422
    body = response.json()
    assert "Anna Test" in body["message_de"] and "Anna Test" in body["message_en"]
    assert f" {anna} " not in f" {body['message_en']} "


# --- hostile input (found by tests/dress_rehearsal/test_openapi_fuzz.py) ------------------------


@pytest.mark.parametrize("body", [
    '{"event": {"type": "start", "note": "a\\u0000b"}}',  # jsonb refuses NUL
    '{"event": {"type": "start\\ud800"}}',  # lone surrogate: the refusal could not be encoded
])
def test_unstorable_characters_in_an_event_are_a_400(console, table, body):
    answer = console.post(f"/api/v1/tables/{table.pk}/events", body,
                          content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "unusable_text"
    assert not GameEvent.objects.filter(game__table=table).exists()


def test_an_idempotency_key_with_control_characters_is_a_400(console, table):
    answer = post_event(console, table, {"type": "start"}, key="retry\x00-1")
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_idempotency_key"
    assert not GameEvent.objects.filter(game__table=table).exists()
