"""GET requests never write: reading a table nobody has opened yet creates no game row."""

from __future__ import annotations

import pytest
from factories import UserFactory, seated_table

from referee.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def rows() -> tuple[int, int]:
    return Game.objects.count(), GameEvent.objects.count()


def test_an_anonymous_read_of_an_unopened_table_creates_no_game(client):
    table = seated_table(banker=UserFactory())
    before = rows()
    response = client.get(f"/api/v1/tables/{table.pk}/state")
    assert response.status_code == 200
    assert rows() == before == (0, 0)
    state = response.json()
    assert state["game"] is None and state["seq"] == 0 and state["status"] == "setup"
    assert [p["name"] for p in state["players"]][:2] == ["Anna Test", "Ben Test"]
    assert state["feed"] == [] and state["result"] is None
    etag = response["ETag"]
    again = client.get(f"/api/v1/tables/{table.pk}/state", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    record = client.get(f"/api/v1/tables/{table.pk}/record")
    assert record.status_code == 200 and record.json()["events"] == []
    assert rows() == before


def test_the_unstarted_picture_follows_the_seating_and_the_banker_still_starts(client):
    banker = UserFactory()
    table = seated_table(banker=banker)
    first = client.get(f"/api/v1/tables/{table.pk}/state")
    seat = table.seats.order_by("position").first()
    seat.delete()  # a player leaves the table before anybody opened the console
    second = client.get(f"/api/v1/tables/{table.pk}/state", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and len(second.json()["players"]) == 5
    assert Game.objects.count() == 0
    client.force_login(banker)
    posted = client.post(f"/api/v1/tables/{table.pk}/events", {"event": {"type": "start"}},
                         content_type="application/json")
    assert posted.status_code == 201
    assert Game.objects.filter(table=table).count() == 1
