"""Incidents and penalties: note → warning → point deduction → disqualification per player; the
earlier incidents are shown when a new one is recorded; deductions reach the standings with a
mark, the staff's player page lists them, the audit log keeps them."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from scoring.models import StandingRow
from tournament import audit, incidents
from tournament.models import Incident, StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(django_capture_on_commit_callbacks):
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(4)]
    _round, (table,) = make_round(tournament, 1, [players])
    with django_capture_on_commit_callbacks(execute=True):
        play(table, {p: 3000 - 500 * i for i, p in enumerate(players)})
    judge = appoint(UserFactory(username="mrmonopoly"), StaffRole.Role.HEAD_REFEREE, tournament)
    return tournament, players, judge


def points(player):
    return StandingRow.objects.get(player=player, scope="public").points


def test_a_warning_then_a_deduction_shows_in_the_standings(client, hall,
                                                           django_capture_on_commit_callbacks):
    tournament, players, judge = hall
    winner = players[0]
    before = points(winner)
    client.force_login(judge)
    url = f"/manage/ka/players/{winner.pk}/incidents/"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"level": "warning", "note": "Geld verliehen"})
    assert points(winner) == before  # a warning costs nothing
    page = client.get(url).content.decode()
    assert "Geld verliehen" in page and 'data-level="warning"' in page  # shown when recording
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"level": "deduction", "points": 2, "note": "Mietabsprache"})
    assert points(winner) == before - 2
    row = StandingRow.objects.get(player=winner, scope="public")
    assert row.deducted == 2
    public = Client().get("/t/ka/").content.decode()
    assert 'data-deducted="2"' in public
    edit = client.get(f"/manage/ka/players/{winner.pk}/edit/")
    assert edit.status_code == 403  # the head referee does not edit players …
    appoint(judge, StaffRole.Role.ORGANIZER, tournament)
    edit = client.get(f"/manage/ka/players/{winner.pk}/edit/").content.decode()
    assert "Mietabsprache" in edit  # … the staff's player page lists the penalties
    lines = audit.lines(audit.entries(tournament, what="incident.record"))
    assert {line.reason for line in lines} == {"Geld verliehen", "Mietabsprache"}
    assert all(line.actor == "mrmonopoly" for line in lines)


def test_a_disqualification_drops_the_player_out(hall):
    tournament, players, judge = hall
    incidents.record_incident(player=players[1], level="disqualification", note="Betrug",
                              by=judge)
    players[1].refresh_from_db()
    assert players[1].dropped_out
    assert incidents.disqualified(tournament) == {players[1].pk}


def test_a_deduction_needs_points_and_every_incident_a_note(client, hall):
    tournament, players, judge = hall
    client.force_login(judge)
    url = f"/manage/ka/players/{players[0].pk}/incidents/"
    assert client.post(url, {"level": "deduction", "note": "ohne Punkte"}).status_code == 400
    assert client.post(url, {"level": "note", "note": ""}).status_code == 400
    assert not Incident.objects.exists()


def test_the_desk_cannot_record_penalties(client, hall):
    tournament, players, _judge = hall
    client.force_login(appoint(UserFactory(), StaffRole.Role.DESK, tournament))
    response = client.post(f"/manage/ka/players/{players[0].pk}/incidents/",
                           {"level": "warning", "note": "x"})
    assert response.status_code == 403
    assert not Incident.objects.exists()


def test_an_admin_edit_leaves_a_trace_in_the_tournaments_audit_log(admin_client, hall):
    tournament, players, _judge = hall
    player = players[0]
    response = admin_client.post(
        f"/admin/tournament/player/{player.pk}/change/",
        {"tournament": tournament.pk, "name": "Umbenannt Im Admin", "email": "",
         "private_note": "", "checked_in": "on", "public_name_consent": "on"},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    entries = audit.entries(tournament).filter(object_id=player.pk, content_type__model="player")
    line = audit.lines(entries)[0]
    assert line.actor == "admin" and ("name", player.name, "Umbenannt Im Admin") in line.changes
    assert line.action == "admin.edit"
    # shown on the tournament's audit page by default, with who and before → after
    organizer = OrganizerFactory(tournaments=[tournament])
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/manage/{tournament.slug}/audit/").content.decode()
    assert 'data-action="admin.edit"' in page and "Umbenannt Im Admin" in page
