"""`manage.py demo` loads a championship with every stage of a game, idempotently."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from referee.models import Game, GameEvent, GameResult
from scoring.models import StandingRow
from tournament.models import Player, Round, Seat, Table, Tournament

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
    assert first["Player"] == 36 and first["Table"] == 6 and first["Seat"] == 36
    tournament = Tournament.objects.get(slug="demo")
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

    call_command("demo", "--no-serve")
    assert "unchanged" in capsys.readouterr().out
    assert counts() == first


def test_demo_for_many_players_seats_everyone_in_tables_of_six(capsys):
    call_command("demo", "--no-serve", "--players", "120")
    assert Seat.objects.count() == 120
    sizes = {table.seats.count() for table in Table.objects.all()}
    assert sizes == {6}
    assert StandingRow.objects.filter(scope="public", points__gt=0).count() >= 6
