""""Standings after round 1" printed again later gives the same figures (trust review, finding
13): a point deduction belongs to the round it was recorded in (the running one, else the last
started), and the list after round N counts only the deductions of rounds 1…N."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from desk import rounds as desk_rounds
from printing import standings as pdf
from printing.base import Context
from tournament import incidents
from tournament.models import Incident, Round, StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def after_round_1():
    """Two tables of four played round 1 (closed); a preliminary round 2 is to come."""
    tournament = TournamentFactory(
        slug="k", status=Tournament.Status.RUNNING, table_size=4, finalists=4,
        preliminary_rounds=2, placement_points=[4, 3, 2, 1],
        tie_breaks=["points", "net_worth_sum", "best_net_worth", "lot"])
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(8)]
    groups = [players[:4], players[4:]]
    round_1, tables = make_round(tournament, 1, groups)
    for table, group in zip(tables, groups, strict=True):
        play(table, {p: 3000 - 400 * i - 10 * table.number for i, p in enumerate(group)})
    desk_rounds.close_round(round_=round_1)
    return tournament, players, round_1


def _ranking(tournament, round_1):
    ctx = Context(tournament=Tournament.objects.get(pk=tournament.pk),
                  round=Round.objects.get(pk=round_1.pk) if round_1 else None)
    return [(line.name, line.rank, line.points, line.deducted) for line in pdf.ranking(ctx)]


def test_a_deduction_of_round_2_leaves_the_list_after_round_1(after_round_1):
    tournament, players, round_1 = after_round_1
    printed = _ranking(tournament, round_1)
    assert printed[0][:3] == ("Spieler 0", 1, 4)
    make_round(tournament, 2, [players[:4], players[4:]])
    judge = appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournament)
    incident = incidents.record_incident(player=players[0], level="deduction", points=3,
                                         note="zu spät", by=judge)
    assert incident.round_number == 2  # the round running when it was recorded
    assert _ranking(tournament, round_1) == printed
    latest = _ranking(tournament, None)  # after round 2 (the latest): the deduction counts
    assert next(line for line in latest if line[0] == "Spieler 0")[3] == 3


def test_a_deduction_between_rounds_belongs_to_the_last_started_one(after_round_1):
    tournament, players, round_1 = after_round_1
    judge = appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournament)
    make_round(tournament, 2, [players[:4], players[4:]], status=Round.Status.SEATED)
    client = Client()
    client.force_login(judge)
    answer = client.post(f"/manage/k/players/{players[1].pk}/incidents/",
                         {"level": "deduction", "points": "2", "note": "Absprache"})
    assert answer.status_code == 302
    assert Incident.objects.get(player=players[1]).round_number == 1
    row = next(line for line in _ranking(tournament, round_1) if line[0] == "Spieler 1")
    assert (row[2], row[3]) == (1, 2)  # 3 points, 2 deducted, in the list after round 1


def test_a_deduction_recorded_before_the_first_round_counts_in_every_list():
    tournament = TournamentFactory(slug="v", status=Tournament.Status.RUNNING)
    player = PlayerFactory(tournament=tournament)
    incident = incidents.record_incident(player=player, level="deduction", points=1,
                                         note="Anmeldung", by=None)
    assert incident.round_number is None
    assert incidents.deductions(tournament, through_round=1) == {player.pk: 1}
