"""Roles per tournament (tournament.access), the banker's tables, public pages, the admin."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from factories import OrganizerFactory, SeatFactory, TableFactory, UserFactory

from tournament import access
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    seat = SeatFactory(player__name="Anna Müller")
    tournament = seat.table.round.tournament
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    seat.round.status = "running"
    seat.round.save()
    return seat.table


def _request(user):
    request = RequestFactory().get("/")
    request.user, request.session = user, SessionStore()
    return request


def test_who_runs_a_table_comes_from_the_staff_roles_and_the_assignment(table):
    tournament = table.round.tournament
    organizer, banker, stranger = OrganizerFactory(), UserFactory(), UserFactory()
    elsewhere = OrganizerFactory(tournaments=[])  # a staff account, but not of this tournament
    table.banker = banker
    table.save()
    assert access.can(organizer, access.Action.ROUNDS, tournament)
    assert not access.can(banker, access.Action.VIEW, tournament)
    assert not access.can(elsewhere, access.Action.VIEW, tournament)
    assert access.can_run_table(_request(banker), table)
    assert access.can_run_table(_request(organizer), table)
    assert not access.can_run_table(_request(stranger), table)
    assert not access.can_run_table(_request(elsewhere), table)


def test_inactive_staff_is_no_organizer(table):
    user = OrganizerFactory(is_active=False)
    assert not access.can(user, access.Action.VIEW, table.round.tournament)


def test_public_pages_need_no_login(client, table):
    slug = table.round.tournament.slug
    assert client.get("/").status_code == 200
    response = client.get(f"/t/{slug}/")
    assert response.status_code == 200
    assert "Anna Müller" in response.content.decode()


def test_public_page_hides_names_without_consent(client, table):
    seat = table.seats.get()
    seat.player.public_name_consent = False
    seat.player.save()
    body = client.get(f"/t/{table.round.tournament.slug}/").content.decode()
    assert "Anna Müller" not in body
    assert "A.M." in body


def test_draft_tournament_is_not_public(client, table):
    tournament = table.round.tournament
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    assert client.get(f"/t/{tournament.slug}/").status_code == 404


@pytest.mark.parametrize("path", ["/manage/", "/banker/", "/admin/"])
def test_anonymous_is_sent_to_login(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_organizer_pages_are_for_the_tournaments_staff_only(client, table):
    slug = table.round.tournament.slug
    client.force_login(UserFactory())
    assert client.get("/manage/").status_code == 403
    assert client.get(f"/manage/{slug}/").status_code == 403
    client.force_login(OrganizerFactory())
    assert client.get("/manage/").status_code == 200
    response = client.get(f"/manage/{slug}/")
    assert response.status_code == 200
    assert "Anna Müller" in response.content.decode()


def test_banker_sees_own_tables_only(client, table):
    banker = UserFactory()
    other = TableFactory(round=table.round, number=table.number + 1, banker=UserFactory())
    table.banker = banker
    table.save()
    client.force_login(banker)
    response = client.get("/banker/")
    assert response.status_code == 200
    tables = [row[0] for row in response.context["tables"]]
    assert tables == [table]
    assert other not in tables


def test_user_without_tables_sees_an_empty_list_not_a_refusal(client):
    client.force_login(UserFactory())
    response = client.get("/banker/")
    assert response.status_code == 200
    assert list(response.context["tables"]) == []


def test_login_and_logout(client):
    UserFactory(username="banker7")
    response = client.post("/login/", {"username": "banker7", "password": "secret-pass-123"})
    assert response.status_code == 302
    assert client.get("/banker/").status_code == 200  # logged in, but no table yet
    assert client.post("/logout/").status_code == 302
    assert client.get("/banker/").status_code == 302


def test_wrong_password_is_refused_with_a_message(client):
    UserFactory(username="banker8")
    response = client.post("/login/", {"username": "banker8", "password": "nope"})
    assert response.status_code == 200
    assert "error" in response.content.decode()


def test_admin_is_for_superusers_only(client, table):
    client.force_login(OrganizerFactory())
    response = client.get("/admin/tournament/player/")
    assert response.status_code == 302 and "login" in response["Location"]


def test_admin_lists_every_model_for_organizers(admin_client):
    from django.apps import apps
    from django.contrib import admin

    for app_label in ("tournament", "referee", "scoring"):
        for model in apps.get_app_config(app_label).get_models():
            assert admin.site.is_registered(model), model
            url = f"/admin/{app_label}/{model._meta.model_name}/"
            assert admin_client.get(url, {"q": "Müller"}).status_code == 200, url
