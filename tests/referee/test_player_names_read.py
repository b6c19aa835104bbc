"""The players' names the console shows (``referee.selectors.player_names``): one read on every
post, its SQL written once per process (issue 29) — the same names the ORM read, the current
ones (a renamed player shows the new name), and nothing read for a game without players."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import seated_table

from referee import selectors
from referee.models import Game
from tournament.models import Player

pytestmark = pytest.mark.django_db


def _game(table) -> Game:
    seats = table.seats.order_by("position")
    return Game(table=table, players=[str(seat.player_id) for seat in seats])


def test_the_names_are_those_the_orm_reads_in_one_query():
    game = _game(seated_table(players=4))
    ids = [int(key) for key in game.players]
    expected = {str(pk): name for pk, name in
                Player.objects.filter(pk__in=ids).values_list("pk", "name")}
    with CaptureQueriesContext(connection) as ctx:
        names = selectors.player_names(game)
    assert names == expected
    assert sorted(names.values()) == ["Anna Test", "Ben Test", "Carla Test", "Dieter Test"]
    assert len(ctx.captured_queries) == 1


def test_a_renamed_player_shows_the_new_name():
    game = _game(seated_table(players=3))
    first = game.players[0]
    assert selectors.player_names(game)[first] == "Anna Test"
    Player.objects.filter(pk=int(first)).update(name="Anna Neu")
    assert selectors.player_names(game)[first] == "Anna Neu"


def test_the_sql_follows_the_number_of_players():
    # a game of 3 and then of 5: each its own ``IN`` list
    assert len(selectors.player_names(_game(seated_table(players=3)))) == 3
    assert len(selectors.player_names(_game(seated_table(players=5)))) == 5


def test_a_game_without_players_reads_nothing():
    with CaptureQueriesContext(connection) as ctx:
        assert selectors.player_names(Game(players=[])) == {}
    assert ctx.captured_queries == []
