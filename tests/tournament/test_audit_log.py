"""The audit log (issue 14, item 5): every staff write through a page is a staff action with
who and before → after, shown by default; only the system's own changes are hidden; the log is
filterable by action (also by family), by person, and stays inside its tournament."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint

from tournament import audit
from tournament.models import StaffRole
from tournament.players import services as players

pytestmark = pytest.mark.django_db


def test_every_page_write_is_a_staff_action_shown_by_default():
    tournament = TournamentFactory(slug="ka")
    anna = PlayerFactory(tournament=tournament, name="Anna Audit", checked_in=False)
    desk = appoint(UserFactory(username="desk-ka"), StaffRole.Role.DESK, tournament)
    organizer = OrganizerFactory(username="orga-ka", tournaments=[tournament])
    client = Client()
    client.force_login(desk)
    assert client.post(f"/manage/ka/players/{anna.pk}/check-in/").status_code in (200, 302)
    client.force_login(organizer)
    client.post(f"/manage/ka/players/{anna.pk}/drop-out/")
    players.check_in(player=PlayerFactory(tournament=tournament, checked_in=False))  # no page

    page = client.get("/manage/ka/audit/").content.decode()
    assert 'data-action="page:organizer:player-check-in"' in page
    assert 'data-action="player.drop"' in page
    lines = audit.lines(audit.entries(tournament, staff_actions_only=True))
    assert {(line.action, line.actor) for line in lines} >= {
        ("page:organizer:player-check-in", "desk-ka"), ("player.drop", "orga-ka")
    }
    assert all(line.action for line in lines)  # the system's change is not among them
    assert len(audit.entries(tournament)) > len(lines)  # … but kept ("every change")
    # filters: a family, a person
    assert {line.action for line in audit.lines(audit.entries(tournament, what="player"))} \
        == {"player.drop"}
    assert {line.actor for line in audit.lines(audit.entries(tournament, actor="desk-ka"))} \
        == {"desk-ka"}
    filtered = client.get("/manage/ka/audit/?actor=desk-ka").content.decode()
    assert "desk-ka" in filtered and 'data-action="player.drop"' not in filtered


def test_the_log_of_one_tournament_shows_nothing_of_another():
    mine, theirs = TournamentFactory(slug="mine"), TournamentFactory(slug="theirs")
    PlayerFactory(tournament=theirs, name="Fremder Spieler")
    organizer = OrganizerFactory(tournaments=[mine])
    client = Client()
    client.force_login(organizer)
    page = client.get("/manage/mine/audit/?everything=on").content.decode()
    assert "Fremder Spieler" not in page
    assert client.get("/manage/theirs/audit/").status_code == 403
