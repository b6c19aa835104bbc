"""A public table whose game has ended shows nothing that only means something during play: a
player sent to jail is "in jail" while the game runs, and no longer once it is over (the walk:
a confirmed result still showed a jail badge)."""

from __future__ import annotations

import pytest
from factories import PlayerFactory, TournamentFactory
from gameplay import at, post_after, started_table

from referee import results as referee_results
from referee import services as referee
from referee.models import Game
from referee.results import revision_of
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
JAIL_BADGE = '<span class="badge">in jail</span>'


def test_the_jail_badge_shows_during_play_only(client, django_capture_on_commit_callbacks):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in "ABCD"]
    _, table, game = started_table(tournament, people)
    post_after(game, {"type": "jail", "player": str(people[1].pk)}, 5)
    for kind in ("/t/ka/tables/1/", "/t/ka/live/tables/1"):
        assert JAIL_BADGE in client.get(kind, **EN).content.decode(), kind  # while it runs

    with django_capture_on_commit_callbacks(execute=True):
        referee.enforce_deadlines(game_id=game.pk, now=at(91))
    body = client.get("/t/ka/tables/1/", **EN).content.decode()
    assert "state-ended" in body and JAIL_BADGE not in body  # ended, not counted yet
    with django_capture_on_commit_callbacks(execute=True):  # the pages' caches follow
        referee_results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=None)
        game = Game.objects.get(pk=game.pk)
        referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                       code=game.confirmation_code, by=None)
    for kind in ("/t/ka/tables/1/", "/t/ka/live/tables/1"):
        body = client.get(kind, **EN).content.decode()
        assert "The result is confirmed." in body and JAIL_BADGE not in body, kind
