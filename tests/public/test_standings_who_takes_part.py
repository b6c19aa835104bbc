"""Issue 28: the standings list the players of the day, not the registration list. Before any
result a player is listed once seated, or checked in and not a standby; a registered player
who never checked in and an alternate who never stepped in are not (page, API, PDF, export),
the unplaced are in name order (DIN 5007), not in the order they were registered; the stored
rows keep everybody, so ``manage.py verify`` still agrees."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play

from exchange.export import export_tournament
from printing.base import Context
from printing.standings import ranking
from scoring.standings import selectors
from scoring.standings.services import recompute_standings
from scoring.verify import verify_tournament
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def day():
    """Six checked in (registered in the reverse of name order), one never came, one standby."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka",
                                   results_public_immediately=True)
    here = [PlayerFactory(tournament=tournament, name=f"{letter}nna Probe")
            for letter in "FEDCBA"]
    absent = PlayerFactory(tournament=tournament, name="Nie Gekommen", checked_in=False)
    standby = PlayerFactory(tournament=tournament, name="Ersatz Bank", alternate_rank=1)
    recompute_standings(tournament_id=tournament.pk)
    return tournament, here, absent, standby


def names_listed(tournament) -> list[str]:
    return [row["name"] for row in selectors.standings(tournament)]


def test_before_play_only_the_players_of_the_day_are_listed_by_name(day):
    tournament, here, absent, standby = day
    assert names_listed(tournament) == [f"{letter}nna Probe" for letter in "ABCDEF"]
    api = Client().get("/api/v1/tournaments/ka/standings").json()
    assert [row["name"] for row in api["standings"]] == names_listed(tournament)
    printed = [line.name for line in ranking(Context(tournament=tournament, round=None))]
    assert printed == names_listed(tournament)
    exported = [row["name"] for row in export_tournament(tournament)["standings"]]
    assert exported == names_listed(tournament)
    report = verify_tournament(tournament=tournament)
    assert report.ok, report.differences


def test_a_seated_player_is_listed_and_results_rank_first(day, django_capture_on_commit_callbacks):
    tournament, here, absent, standby = day
    _, (table,) = make_round(tournament, 1, [here[:5] + [absent]])  # seated, tick forgotten
    assert "Nie Gekommen" in names_listed(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        play(table, {p: 3000 - 100 * i for i, p in enumerate(here[:5] + [absent])})
    body = Client().get("/t/ka/live/standings", **DE).content.decode()
    assert f'data-player="{standby.pk}"' not in body
    listed = names_listed(tournament)
    assert listed[:6] == ["Fnna Probe", "Enna Probe", "Dnna Probe", "Cnna Probe", "Bnna Probe",
                          "Nie Gekommen"]
    assert listed[6:] == ["Anna Probe"]  # checked in, not played yet
    assert verify_tournament(tournament=tournament).ok
