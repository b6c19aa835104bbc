"""Nothing private in a public answer: every public reading of a game's events (state, record,
table page, live fragment) goes through one projection (``referee.privacy.public_event``): a
banker's free-text reason becomes "", the console's reason codes stay, the record still replays,
and the banker's own record keeps the text under an ETag of its own."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import PlayerFactory, TournamentFactory, UserFactory
from gameplay import post_after, started_table

from referee import privacy as referee_privacy
from referee import rules
from referee.words import PAUSE_REASONS, PAY_REASONS
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

PRIVATE = "Privat: Zoë Krüger musste zum Arzt"


@pytest.fixture
def paused_table():
    tournament = TournamentFactory(slug="pause", status=Tournament.Status.RUNNING, table_size=4)
    people = [PlayerFactory(tournament=tournament, name=f"Gast {n}") for n in range(4)]
    banker = UserFactory(username="bank-pause")
    _round, table, game = started_table(tournament, people, banker=banker)
    post_after(game, {"type": "pause", "reason": PRIVATE}, 5)
    post_after(game, {"type": "resume"}, 6)
    post_after(game, {"type": "pause", "reason": "toilet_break"}, 7)
    post_after(game, {"type": "resume"}, 8)
    return table, banker


def test_the_public_record_carries_no_private_reason_and_still_replays(paused_table):
    table, banker = paused_table
    answer = Client().get(f"/api/v1/tables/{table.pk}/record")
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "Zoë" not in text and "Krüger" not in text and "Arzt" not in text
    record = answer.json()
    reasons = [event.get("reason") for event in record["events"] if event["type"] == "pause"]
    assert reasons == ["", "toilet_break"]  # a code the console offers stays
    rules.parse_record(record).new_game().extend(record["events"])  # replays as it is

    staff = Client()
    staff.force_login(banker)
    private = staff.get(f"/api/v1/tables/{table.pk}/record")
    assert PRIVATE in private.content.decode()  # the banker's own record keeps the text
    assert private["ETag"] != answer["ETag"]  # never one body for both readers
    again = Client().get(f"/api/v1/tables/{table.pk}/record")  # after the banker's read
    assert "Zoë" not in again.content.decode()


def test_every_public_answer_reads_events_through_one_projection(paused_table):
    table, _banker = paused_table
    anonymous = Client()
    for path in (f"/api/v1/tables/{table.pk}/state", "/t/pause/tables/1/",
                 "/t/pause/live/tables/1"):
        text = anonymous.get(path).content.decode()
        assert "Zoë" not in text and "Arzt" not in text, path


def test_the_public_reason_codes_are_the_consoles_codes():
    assert set(PAUSE_REASONS) | set(PAY_REASONS) | {"correction"} == (
        referee_privacy.PUBLIC_REASON_CODES)
    event = {"type": "void", "event": 3, "reason": "Koch hat sich verzählt"}
    assert referee_privacy.public_event(event) == {"type": "void", "event": 3, "reason": ""}
    assert referee_privacy.public_event({"type": "cash", "player": "1", "amount": 5},
                                        held=True) == {"type": "cash", "player": "1"}
