"""The organizer manages the tournament's staff on screen (issue 14, item 1): appoint an existing
account, create one with a one-time set-password link, remove a role (never the last
organizer); each is in the audit log, and a new role works at once, in this tournament only."""

from __future__ import annotations

import re

import pytest
from consoles import post_event
from django.contrib.auth.models import User
from django.test import Client
from factories import (
    OrganizerFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

from referee import services as referee
from tournament import audit, banker_links
from tournament.models import Seat, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    tournament = TournamentFactory(slug="ka")
    TournamentFactory(slug="anderswo")
    user = OrganizerFactory(username="chefin", tournaments=[tournament])
    client.force_login(user)
    return client, tournament


def test_an_existing_account_is_appointed_head_referee_and_can_rule_here_only(organizer):
    client, tournament = organizer
    judge = UserFactory(username="mrmonopoly")
    judge.set_password("geheim-123")
    judge.save()
    assert client.post("/manage/ka/staff/", {"username": "MRMONOPOLY",
                                            "role": "head_referee"}).status_code == 302
    assert StaffRole.objects.filter(user=judge, tournament=tournament,
                                    role="head_referee").exists()
    page = client.get("/manage/ka/staff/").content.decode()
    assert 'data-role="head_referee"' in page and "mrmonopoly" in page
    line = audit.lines(audit.entries(tournament, what="staff.appoint"))[0]
    assert line.actor == "chefin" and ("role", "None", "head_referee") in line.changes
    other = Client()
    other.login(username="mrmonopoly", password="geheim-123")
    assert other.get("/manage/ka/desk/").status_code == 200
    assert other.get("/manage/anderswo/desk/").status_code == 403
    assert other.get("/manage/ka/staff/").status_code == 403  # only organizers appoint


def test_unknown_accounts_and_roles_are_refused_with_a_message(organizer):
    client, _tournament = organizer
    unknown = client.post("/manage/ka/staff/", {"username": "niemand", "role": "desk"},
                          HTTP_ACCEPT_LANGUAGE="de")
    assert unknown.status_code in (400, 404, 409) and "niemand" in unknown.content.decode()
    bad = client.post("/manage/ka/staff/", {"username": "chefin", "role": "kaiser"})
    assert bad.status_code in (200, 400)
    assert not StaffRole.objects.filter(role="kaiser").exists()


def test_a_new_account_gets_a_one_time_set_password_link(organizer):
    client, tournament = organizer
    page = client.post("/manage/ka/staff/", {"username": "helferin", "role": "desk",
                                            "create": "on"}).content.decode()
    link = re.search(r'data-testid="set-password-link">[^<]*<code>([^<]+)</code>', page)[1]
    path = "/" + link.split("/", 3)[3]
    user = User.objects.get(username="helferin")
    assert not user.has_usable_password()
    visitor = Client()
    form = visitor.get(path, follow=True)
    assert form.status_code == 200
    target = form.redirect_chain[-1][0] if form.redirect_chain else path
    done = visitor.post(target, {"new_password1": "Tischkarte-77!",
                                 "new_password2": "Tischkarte-77!"})
    assert done.status_code in (200, 302)
    user.refresh_from_db()
    assert user.check_password("Tischkarte-77!")
    again = Client().get(path, follow=True).content.decode()  # the link worked once
    assert 'name="new_password1"' not in again
    helper = Client()
    assert helper.login(username="helferin", password="Tischkarte-77!")
    assert helper.get("/manage/ka/check-in/").status_code == 200
    assert helper.get("/manage/ka/settings/").status_code == 403


def test_roles_are_removed_but_never_the_last_organizer(organizer):
    client, tournament = organizer
    desk = StaffRole.objects.create(tournament=tournament, user=UserFactory(), role="desk")
    assert client.post(f"/manage/ka/staff/{desk.pk}/remove/").status_code == 302
    assert not StaffRole.objects.filter(pk=desk.pk).exists()
    assert audit.lines(audit.entries(tournament, what="staff.dismiss"))
    last = StaffRole.objects.get(tournament=tournament, role="organizer")
    refused = client.post(f"/manage/ka/staff/{last.pk}/remove/")
    assert refused.status_code == 409
    assert StaffRole.objects.filter(pk=last.pk).exists()


def test_removing_a_banker_frees_their_table_and_stops_their_link(organizer):
    """Issue 24, finding 6: a banker removed on the staff page kept their table and link (the
    next post answered 201)."""
    client, tournament = organizer
    tournament.status = "running"
    tournament.save()
    banker = UserFactory(username="bank1")
    table = seated_table_of(tournament, banker)
    role = StaffRole.objects.create(tournament=tournament, user=banker, role="banker")
    referee.ensure_game(table=table)
    link = banker_links.issue_link(table=table, banker=banker)
    logged_in, by_link = Client(), Client()
    logged_in.force_login(banker)
    assert by_link.get(banker_links.link_path(link)).status_code == 302
    assert post_event(logged_in, table, {"type": "start"}).status_code == 201
    seq = {"type": "cash", "player": str(table.seats.first().player_id), "amount": 100}
    assert post_event(by_link, table, seq).status_code == 201

    response = client.post(f"/manage/ka/staff/{role.pk}/remove/", follow=True,
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "Tables 1 have no banker now" in response.content.decode()
    table.refresh_from_db()
    link.refresh_from_db()
    assert table.banker_id is None and link.revoked_at is not None
    assert post_event(logged_in, table, seq).status_code == 403
    assert post_event(by_link, table, seq).status_code == 403
    assert by_link.get(banker_links.link_path(link)).status_code == 403
    # the freed table and the revoked link are filed under the dismissal
    models = {entry.content_type.model for entry in audit.entries(tournament, what="staff.dismiss")}
    assert {"table", "bankerlink", "staffrole"} <= models


def seated_table_of(tournament, banker):
    round_ = RoundFactory(tournament=tournament, number=1, status="running")
    table = TableFactory(round=round_, number=1, banker=banker)
    for position in range(1, 5):
        Seat.objects.create(round=round_, table=table, position=position,
                            player=PlayerFactory(tournament=tournament))
    return table
