"""GET requests never write: reading a table nobody has opened yet (its state, its record, the
banker's console) creates no game row."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import UserFactory, seated_table

from referee import services
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


def test_the_console_of_an_unopened_table_shows_its_seating_and_creates_no_game(client):
    """The console's page and fragment read; the first post (the start) creates the game."""
    banker = UserFactory()
    table = seated_table(banker=banker)
    client.force_login(banker)
    for url in (f"/banker/table/{table.pk}/", f"/banker/table/{table.pk}/main/"):
        response = client.get(url)
        assert response.status_code == 200
        assert "Anna Test" in response.content.decode() and 'data-testid="start"' in (
            response.content.decode())
    assert rows() == (0, 0)
    posted = client.post(f"/api/v1/tables/{table.pk}/events", {"event": {"type": "start"}},
                         content_type="application/json")
    assert posted.status_code == 201 and rows() == (1, 1)


def test_an_untouched_game_follows_the_seating_on_the_console_without_an_update(client):
    """A game created early (its code printed) shows a seating change at once; the row is
    brought in step by the next write, not by the read."""
    banker = UserFactory()
    table = seated_table(banker=banker)
    game = services.ensure_game(table=table)
    table.seats.order_by("position").first().delete()  # Anna leaves before the start
    client.force_login(banker)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/banker/table/{table.pk}/main/")
    assert response.status_code == 200 and "Anna Test" not in response.content.decode()
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(
        ("INSERT", "UPDATE", "DELETE")) and "django_session" not in q["sql"]]
    assert writes == []
    game.refresh_from_db()
    assert len(game.players) == 6  # unchanged until a write
    posted = client.post(f"/api/v1/tables/{table.pk}/events", {"event": {"type": "start"}},
                         content_type="application/json")
    assert posted.status_code == 201
    game.refresh_from_db()
    assert len(game.players) == 5


def test_seating_creates_the_games_and_the_code_slips_only_read_them():
    """The codes are issued when the round's seating is made, changed, locked or started;
    printing the slips (a GET) reads them, and a table without a game (seated before
    games were made at seating) gets a slip without a code rather than one nobody stored."""
    from printing import data
    from tournament.models import Round, Seat
    from tournament.rounds import services as tournament_services

    table = seated_table(banker=UserFactory())  # made by the factory: no game
    round_ = table.round
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.SEATED)
    round_.refresh_from_db()
    assert [slip.code for slip in data.code_slips(round_)] == [""]
    assert rows() == (0, 0)
    round_ = tournament_services.lock_round(round_=round_)  # like seating, a swap, the start
    game = Game.objects.get(table=table)
    assert [slip.code for slip in data.code_slips(round_)] == [game.confirmation_code]
    tournament_services.start_round(round_=round_)  # again: nothing new
    assert Game.objects.get(table=table).confirmation_code == game.confirmation_code
    assert rows() == (1, 0) and Seat.objects.filter(table=table).count() == 6
