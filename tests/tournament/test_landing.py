"""Issue 28, "Roles and landing": after the login each role lands where it works, the header
offers each role its own pages (asked of tournament.access, not ``is_staff``), the login link on
the login page carries no ``next=/login/``, the tournament page says "finished" only when it is,
and "My tables" lists the current round's table first with its state. The organizer's pages
send a stranger to the site's own login; every page has a favicon."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round

from tournament.models import Round, StaffRole, Tournament

pytestmark = pytest.mark.django_db

Role = StaffRole.Role
FINISHED_EN = "The tournament is finished; its status is final."
FINISHED_DE = "sein Status ist endgültig"


def _landing(username: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/login/", {"username": username, "password": "secret-pass-123"},
                           follow=True)
    assert response.status_code == 200
    return response.redirect_chain[-1][0]


def test_each_role_lands_where_it_works():
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    OrganizerFactory(username="orga", tournaments=[tournament])
    appoint(UserFactory(username="judge"), Role.HEAD_REFEREE, tournament)
    appoint(UserFactory(username="desk"), Role.DESK, tournament)
    appoint(UserFactory(username="banker"), Role.BANKER, tournament)
    UserFactory(username="nobody")
    assert _landing("orga") == "/manage/"
    assert _landing("judge") == "/manage/ka/desk/"
    assert _landing("desk") == "/manage/ka/check-in/"
    assert _landing("banker") == "/banker/"
    assert _landing("nobody") == "/"
    # several tournaments: the staff's start page, which lists them
    appoint(UserFactory(username="judge"), Role.HEAD_REFEREE, TournamentFactory(slug="ma"))
    assert _landing("judge") == "/manage/"
    # an explicit next still wins
    client = Client()
    response = client.post("/login/?next=/manage/ka/players/",
                           {"username": "desk", "password": "secret-pass-123"})
    assert response["Location"] == "/manage/ka/players/"


def test_the_staff_start_page_links_each_tournament_where_the_person_works_in_it():
    """Staffing several tournaments lands on the start page; its links went to each
    tournament's organizer page, where a head referee or desk volunteer does not work (seen in
    the demo): they open the round desk or the check-in desk, as the landing does for one."""
    ka, ma, hd = (TournamentFactory(slug=slug) for slug in ("ka", "ma", "hd"))
    person = UserFactory(username="helper")
    appoint(person, Role.HEAD_REFEREE, ka)
    appoint(person, Role.DESK, ma)
    appoint(person, Role.ORGANIZER, hd)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(person)
    body = client.get("/manage/").content.decode().split("<tbody>")[1]
    assert 'href="/manage/ka/desk/"' in body
    assert 'href="/manage/ma/check-in/"' in body
    assert 'href="/manage/hd/"' in body
    for path in ("/manage/ka/desk/", "/manage/ma/check-in/", "/manage/hd/"):
        assert client.get(path).status_code == 200, path  # links lead somewhere allowed


def test_the_header_offers_each_role_its_own_pages():
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    judge = appoint(UserFactory(username="judge"), Role.HEAD_REFEREE, tournament)
    desk = appoint(UserFactory(username="desk"), Role.DESK, tournament)
    banker = appoint(UserFactory(username="banker"), Role.BANKER, tournament)
    assert not judge.is_staff  # appointed by role only
    client = Client(HTTP_ACCEPT_LANGUAGE="en")

    client.force_login(judge)
    header = client.get("/banker/").content.decode().split("</header>")[0]
    assert 'href="/manage/"' in header and 'href="/manage/ka/desk/"' in header
    assert client.get("/manage/").status_code == 200  # the link leads somewhere allowed

    client.force_login(desk)
    header = client.get("/banker/").content.decode().split("</header>")[0]
    assert 'href="/manage/ka/check-in/"' in header and 'href="/manage/"' in header

    client.force_login(banker)
    header = client.get("/banker/").content.decode().split("</header>")[0]
    assert 'href="/manage/' not in header and 'href="/banker/"' in header


def test_several_tournaments_put_their_desks_in_one_menu_in_the_header():
    """Six header links with tournament names took a third of a phone's first screen: with
    several tournaments the desks sit in one menu, a group per tournament."""
    ka = TournamentFactory(slug="ka", name="Karlsruhe", status=Tournament.Status.RUNNING)
    ma = TournamentFactory(slug="ma", name="Mannheim", status=Tournament.Status.REGISTRATION)
    done = TournamentFactory(slug="hd", name="Heidelberg", status=Tournament.Status.FINISHED)
    judge = appoint(UserFactory(username="judge"), Role.HEAD_REFEREE, ka, ma, done)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(judge)
    header = client.get("/banker/").content.decode().split("</header>")[0]
    bar, menu = header.split("<details", 1)
    assert 'href="/manage/"' in bar and "/desk/" not in bar  # the start page stays in sight
    assert "My tournaments" in menu
    for name, slug in (("Karlsruhe", "ka"), ("Mannheim", "ma")):
        assert name in menu and f'href="/manage/{slug}/desk/"' in menu
    assert "Heidelberg" not in header  # a finished tournament has no desk to go to
    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    german.force_login(judge)
    assert "Meine Turniere" in german.get("/banker/").content.decode().split("</header>")[0]

    # one tournament left: its desks stand in the header again, no menu
    ma.status = Tournament.Status.FINISHED
    ma.save()
    header = client.get("/banker/").content.decode().split("</header>")[0]
    assert "<details" not in header and 'href="/manage/ka/desk/"' in header


def test_the_login_link_on_the_login_page_does_not_point_back_at_it():
    client = Client()
    page = client.get("/login/").content.decode()
    assert "next=/login/" not in page and "next=%2Flogin%2F" not in page
    assert 'href="/login/?next=/privacy/"' in client.get("/privacy/").content.decode()
    # from the home page no next either: the login then leads each role to its own page
    home = client.get("/").content.decode()
    assert 'href="/login/"' in home and "next=/" not in home


@pytest.mark.parametrize("status", list(Tournament.Status.values))
def test_the_tournament_page_says_finished_only_when_it_is(status):
    tournament = TournamentFactory(slug="ka", status=status)
    judge = appoint(UserFactory(username="judge"), Role.HEAD_REFEREE, tournament)
    desk = appoint(UserFactory(username="desk"), Role.DESK, tournament)
    for user in (judge, desk):
        for language, sentence in (("en", FINISHED_EN), ("de", FINISHED_DE)):
            client = Client(HTTP_ACCEPT_LANGUAGE=language)
            client.force_login(user)
            page = client.get("/manage/ka/").content.decode()
            assert (sentence in page) == (status == Tournament.Status.FINISHED), (user, language)


def test_my_tables_lists_the_current_rounds_table_first_with_its_state():
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    banker = appoint(UserFactory(username="banker"), Role.BANKER, tournament)
    people = [PlayerFactory(tournament=tournament) for _ in range(4)]
    _closed, (old,) = make_round(tournament, 1, [people], status=Round.Status.COMPLETE)
    _now, (new,) = make_round(tournament, 2, [people], status=Round.Status.LOCKED)
    for table in (old, new):
        table.banker = banker
        table.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(banker)
    response = client.get("/banker/")
    assert [row[0] for row in response.context["tables"]] == [new, old]
    page = response.content.decode()
    assert page.index(f'data-table="{new.pk}"') < page.index(f'data-table="{old.pk}"')
    assert "Not started" in page and "Round closed" in page


def test_manage_logged_out_goes_to_the_sites_login(client):
    response = client.get("/manage/", follow=True)
    assert response.redirect_chain[-1][0] == "/login/?next=%2Fmanage%2F"
    assert "registration/login.html" in [t.name for t in response.templates]
    # a logged-in user without the right is told so, not asked to log in again
    client.force_login(UserFactory())
    assert client.get("/manage/", follow=True).status_code == 403


def test_every_page_has_a_favicon(client):
    assert 'rel="icon"' in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
