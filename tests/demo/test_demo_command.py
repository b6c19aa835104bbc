"""`manage.py demo` loads a championship with every stage of a game, idempotently."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from referee.models import Game, GameEvent, GameResult
from scoring.models import StandingRow
from tournament.models import (
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db(transaction=True)


def counts():
    return {
        model.__name__: model.objects.count()
        for model in (Tournament, Player, Round, Table, Seat, Game, GameEvent, GameResult, User)
    }


def test_demo_is_complete_and_idempotent(capsys):
    call_command("demo", "--no-serve")
    out = capsys.readouterr().out
    assert "organizer / demo-organizer" in out and "/t/demo/" in out
    first = counts()
    call_command("verify", "demo", "--lang", "en")  # every figure the demo shows follows from its records
    assert "everything agrees" in capsys.readouterr().out
    tournament = Tournament.objects.get(slug="demo")
    assert tournament.players.count() == 36 and first["Table"] == 6 and first["Seat"] == 36
    assert tournament.rounds.get(number=1).status == Round.Status.RUNNING
    assert Table.objects.filter(banker__isnull=True).count() == 0
    stages = set(Game.objects.values_list("status", flat=True))
    assert {"running", "finished"} <= stages
    assert GameResult.objects.filter(status="confirmed").exists()
    assert GameResult.objects.filter(status="counted").exists()
    assert Game.objects.filter(auction_stop_done=True, status="running").exists()
    confirmed_points = StandingRow.objects.filter(tournament=tournament, scope="public",
                                                  points__gt=0)
    assert confirmed_points.count() == 6  # one confirmed table: six players with points
    assert User.objects.get(username="organizer").is_staff
    # every login it prints opens the page printed beside it, and that page works for the role
    printed = re.findall(r"(http://\S+)\s+login (\S+)(?: … (\S+))? / (\S+)", out)
    assert {username for _url, username, _last, _password in printed} >= {
        "organizer", "banker1", "mrmonopoly", "desk", "organizer2"}
    for url, username, last, password in printed:
        path = "/" + url.split("/", 3)[3]
        for name in [username, *([last] if last else [])]:
            client = Client()
            assert client.login(username=name, password=password), name
            response = client.get(path, follow=True)
            assert response.status_code == 200, (name, path)
            assert not any("/login/" in hop for hop, _status in response.redirect_chain)
    assert ("http://127.0.0.1:8000/manage/demo/desk/", "mrmonopoly") in {
        (url, username) for url, username, _last, _password in printed}
    second = Client()
    second.login(username="organizer2", password="demo-organizer2")
    assert second.get("/manage/demo/").status_code == 403  # not their tournament
    assert second.get("/manage/demo/export/").status_code == 403

    # the hall screen and a player's page it prints open without a login and show the demo
    hall = re.search(r"Hall screen\s+http://[^/]+(/t/demo/hall/[\w-]+/)", out).group(1)
    player = re.search(r"A player's page\s+http://[^/]+(/p/(\w+)/)\s+\(([^;]+);", out)
    anonymous = Client()
    assert anonymous.get(hall).status_code == 200
    page = anonymous.get(player.group(1))
    assert page.status_code == 200
    assert Player.objects.get(pass_code=player.group(2)).name == player.group(3)

    call_command("demo", "--no-serve")
    assert "unchanged" in capsys.readouterr().out
    assert counts() == first


def test_demo_for_many_players_seats_everyone_in_tables_of_six(capsys):
    call_command("demo", "--no-serve", "--players", "120")
    assert Seat.objects.count() == 120
    sizes = {table.seats.count() for table in Table.objects.all()}
    assert sizes == {6}
    assert StandingRow.objects.filter(scope="public", points__gt=0).count() >= 6
