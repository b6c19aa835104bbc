"""Switching "results public immediately" mid-round (trust review, minor finding): the stored
public standings follow once the change is committed — not ~15 s later with the periodic
refresh, while ``verify`` names two dozen differences and the pages show the old rows."""

from __future__ import annotations

import pytest
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play

from scoring.models import Scope
from scoring.standings import selectors
from scoring.verify import verify_tournament
from tournament import tournaments
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("public_before", [True, False])
def test_the_public_standings_follow_the_hold_at_once(django_capture_on_commit_callbacks,
                                                     public_before):
    tournament = TournamentFactory(slug="h", status=Tournament.Status.RUNNING, table_size=4,
                                   finalists=4, results_public_immediately=public_before)
    players = [PlayerFactory(tournament=tournament, name=f"S {i}") for i in range(4)]
    _round, tables = make_round(tournament, 1, [players])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 3000 - 400 * i for i, p in enumerate(players)})
    assert verify_tournament(tournament=tournament).ok

    with django_capture_on_commit_callbacks(execute=True):
        tournaments.update_tournament(tournament=tournament,
                                      results_public_immediately=not public_before)

    report = verify_tournament(tournament=tournament)
    assert report.ok, [str(d) for d in report.differences]
    rows = selectors.placed_rows(Tournament.objects.get(pk=tournament.pk), scope=Scope.PUBLIC)
    # held: the running round's result is not in the public rows; public: it is
    assert {row.points > 0 for row in rows} == {not public_before}
