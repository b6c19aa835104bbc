"""Issue 28, "Roles and landing": the desk's work on the day. A drop-out and a lost player card
(a new personal code) are told at the desk, so the desk may do both (audited as the organizer's
are); every page offers the desk only what it may do (asked of tournament.access); and a refusal
of someone with a role says whose work it is, not "no role"."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint

from tournament import audit
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db

Role = StaffRole.Role


@pytest.fixture
def cup():
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    OrganizerFactory(username="orga", tournaments=[tournament])
    return tournament


def _as(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_desk_drops_a_player_out_and_renews_a_lost_card(cup):
    desk = appoint(UserFactory(username="anna"), Role.DESK, cup)
    player = PlayerFactory(tournament=cup, name="Käthe Weiß")
    client = _as(desk)
    response = client.post(f"/manage/ka/players/{player.pk}/new-code/",
                           {"next": "/manage/ka/check-in/"}, follow=True)
    old_code = player.pass_code
    player.refresh_from_db()
    assert response.redirect_chain[-1][0] == "/manage/ka/check-in/"
    assert player.pass_code != old_code and "has a new personal code" in response.content.decode()

    response = client.post(f"/manage/ka/players/{player.pk}/drop-out/",
                           {"next": "/manage/ka/check-in/"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.dropped_out
    client.post(f"/manage/ka/players/{player.pk}/undo-drop-out/")
    player.refresh_from_db()
    assert not player.dropped_out
    actions = {(line.action, line.actor) for line in audit.lines(audit.entries(cup))}
    assert {("player.drop", "anna"), ("player.undo_drop", "anna")} <= actions
    # the API agrees with the page
    api = client.post(f"/api/v1/tournaments/ka/players/{player.pk}/drop-out/")
    assert api.status_code == 200


def test_the_desk_is_offered_only_what_it_may_do(cup):
    desk = appoint(UserFactory(username="anna"), Role.DESK, cup)
    player = PlayerFactory(tournament=cup)
    client = _as(desk)
    players_page = client.get("/manage/ka/players/").content.decode()
    assert f"/players/{player.pk}/edit/" not in players_page  # the names are not links
    assert "/manage/ka/players/import/" not in players_page
    assert f"/players/{player.pk}/drop-out/" in players_page
    assert f"/players/{player.pk}/undo-check-in/" in players_page
    desk_page = client.get("/manage/ka/check-in/").content.decode()
    assert f"/players/{player.pk}/drop-out/" in desk_page
    assert f"/players/{player.pk}/new-code/" in desk_page
    start = client.get("/manage/").content.decode()
    assert "/manage/tournaments/import/" not in start and "/manage/new/" not in start
    assert 'href="/admin/"' not in start
    detail = client.get("/manage/ka/").content.decode()
    assert "/manage/ka/players/import/" not in detail and "/manage/ka/settings/" not in detail
    # every link and form the desk is shown leads somewhere allowed
    for url in ("/manage/ka/players/", "/manage/ka/check-in/", "/manage/ka/players/add/"):
        assert client.get(url).status_code == 200

    # the head referee sees the players but neither checks in nor drops out
    judge = appoint(UserFactory(), Role.HEAD_REFEREE, cup)
    page = _as(judge).get("/manage/ka/players/").content.decode()
    assert f"/players/{player.pk}/drop-out/" not in page
    assert f"/players/{player.pk}/undo-check-in/" not in page
    assert f"/players/{player.pk}/incidents/" in page

    # the organizer still has everything
    organizer = _as(OrganizerFactory(tournaments=[cup]))
    page = organizer.get("/manage/ka/players/").content.decode()
    assert f"/players/{player.pk}/edit/" in page and "/manage/ka/players/import/" in page
    assert "/manage/tournaments/import/" in organizer.get("/manage/").content.decode()


@pytest.mark.parametrize(("language", "words"), [
    ("en", "This action is for the organizers"),
    ("de", "Diese Aktion ist der Turnierleitung vorbehalten"),
])
def test_a_refusal_says_whose_work_it_is(cup, language, words):
    desk = appoint(UserFactory(), Role.DESK, cup)
    player = PlayerFactory(tournament=cup)
    refused = _as(desk, language).get("/manage/ka/players/import/")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert words in page
    assert "no role" not in page and "keine Rolle" not in page
    # a role shared by several: the roles are named
    refused = _as(desk, language).get(f"/manage/ka/players/{player.pk}/incidents/")
    assert refused.status_code == 403
    assert ("Head referee" if language == "en" else "Oberschiedsrichter") in (
        refused.content.decode()
    )
    # not a tournament's page: creating or importing one is for organizers' staff accounts
    refused = _as(desk, language).get("/manage/tournaments/import/")
    assert refused.status_code == 403 and "keine Rolle" not in refused.content.decode()
    if language == "en":
        assert "Only an organizer's staff account may create or import" in (
            refused.content.decode().replace("&#x27;", "'"))
    # no role at all: ask the organizer, as before
    stranger = _as(UserFactory(), language).get("/manage/ka/players/import/")
    assert stranger.status_code == 403
    assert ("no role" if language == "en" else "keine Rolle") in stranger.content.decode()


def test_the_round_and_print_pages_offer_the_desk_no_organizers_work(cup):
    from gameplay import make_round

    from tournament.models import Round

    desk = appoint(UserFactory(), Role.DESK, cup)
    people = [PlayerFactory(tournament=cup) for _ in range(8)]
    make_round(cup, 1, [people[:4], people[4:]], status=Round.Status.SEATED)
    client = _as(desk)
    rounds_page = client.get("/manage/ka/rounds/").content.decode()
    assert "/manage/ka/rounds/new/" not in rounds_page and "/bankers/" not in rounds_page
    round_page = client.get("/manage/ka/rounds/1/").content.decode()
    for refused in ("/rounds/1/lock/", "/rounds/1/swap/", "/rounds/1/move/", "/rounds/1/bankers/",
                    "/rounds/1/delete/", "/rounds/1/reseat/"):
        assert refused not in round_page, refused
    print_page = client.get("/manage/ka/print/1/").content.decode()
    assert 'data-document="seating"' in print_page
    assert 'data-document="cards"' not in print_page and 'data-document="slips"' not in print_page

    organizer = _as(OrganizerFactory(tournaments=[cup]))
    assert "/manage/ka/rounds/new/" in organizer.get("/manage/ka/rounds/").content.decode()
    round_page = organizer.get("/manage/ka/rounds/1/").content.decode()
    assert "/rounds/1/lock/" in round_page and "/rounds/1/swap/" in round_page
    assert 'data-document="cards"' in organizer.get("/manage/ka/print/1/").content.decode()
