"""What the public player page costs in queries (issue 29): the same whatever the number of
games the player played — the places come in one query, not one per seat.

The count is exact, Zulip style: a query added to the page must say so here. The page is
measured built afresh (cache cleared): a cached page reads nothing.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play
from queries import counted, explain

from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db

#: The player page built afresh, for any number of games: the tournament (page, fragment);
#: the player; their standings row; the rounds; their seats with tables, games and results;
#: their places (one query for all games); the games for the charts.
PLAYER_PAGE = 8


def played(rounds: int, django_capture_on_commit_callbacks):
    """A player who played ``rounds`` confirmed games, one per round (all closed)."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(6)]
    for number in range(1, rounds + 1):
        seated = players[number % 6:] + players[:number % 6]
        round_, (table,) = make_round(tournament, number, [seated])
        with django_capture_on_commit_callbacks(execute=True):
            play(table, {p: 1000 + 100 * i for i, p in enumerate(seated)})
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)
    return players[0]


@pytest.mark.parametrize("rounds", [1, 4])
def test_the_player_page_costs_the_same_queries_for_any_number_of_games(
    client, rounds, django_capture_on_commit_callbacks
):
    player = played(rounds, django_capture_on_commit_callbacks)
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/t/ka/players/{player.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert len(re.findall(r"\d(?:st|nd|rd|th) place", response.content.decode())) == rounds
    queries = counted(ctx.captured_queries)
    assert len(queries) == PLAYER_PAGE, explain(queries)
