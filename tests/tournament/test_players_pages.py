"""The organizer's player pages: list, add (late entry), edit, drop-out and undo."""

from __future__ import annotations

import pytest
from django.conf import settings
from factories import ClubFactory, PlayerFactory, UserFactory

from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db


def test_player_list_shows_everything_to_the_organizer(organizer_client, tournament):
    club = ClubFactory(name="Spielfreunde Durlach", short_name="SF Durlach")
    PlayerFactory(
        tournament=tournament,
        name="Jörg Weiß",
        club=club,
        email="joerg@example.org",
        public_name_consent=False,
    )
    body = organizer_client.get("/manage/cup/players/").content.decode()
    assert "Jörg Weiß" in body and "joerg@example.org" in body
    assert "J.W. (SF Durlach)" in body


def test_player_list_search(organizer_client, tournament):
    PlayerFactory(tournament=tournament, name="Anna Müller")
    PlayerFactory(tournament=tournament, name="Ben Becker")
    response = organizer_client.get("/manage/cup/players/", {"q": "becker"})
    assert [p.name for p in response.context["players"]] == ["Ben Becker"]


def test_add_player_page(organizer_client, tournament):
    assert organizer_client.get("/manage/cup/players/add/").status_code == 200
    response = organizer_client.post(
        "/manage/cup/players/add/",
        {
            "name": "Anna Müller",
            "club": "KIT",
            "email": "anna@example.org",
            "public_name_consent": "on",
        },
    )
    assert response.status_code == 302
    player = Player.objects.get()
    assert (player.name, player.club.name, player.public_name_consent) == (
        "Anna Müller",
        "KIT",
        True,
    )
    assert not player.checked_in


def test_add_and_add_another(organizer_client, tournament):
    response = organizer_client.post(
        "/manage/cup/players/add/", {"name": "Anna", "add_another": "1"}
    )
    assert response["Location"] == "/manage/cup/players/add/"


def test_late_entry_page_checks_in(organizer_client, tournament):
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    organizer_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "late entry" in organizer_client.get("/manage/cup/players/add/").content.decode()
    organizer_client.post("/manage/cup/players/add/", {"name": "Zoë Spät"})
    assert Player.objects.get().checked_in


def test_add_page_shows_refusals_next_to_the_field(organizer_client, tournament):
    PlayerFactory(tournament=tournament, name="Anna Müller")
    response = organizer_client.post("/manage/cup/players/add/", {"name": "ANNA MÜLLER"})
    assert response.status_code == 200
    assert "name" in response.context["form"].errors
    response = organizer_client.post(
        "/manage/cup/players/add/", {"name": "Ben", "email": "kein-at-zeichen"}
    )
    assert "email" in response.context["form"].errors
    assert Player.objects.count() == 1


def test_edit_player_page(organizer_client, tournament):
    player = PlayerFactory(tournament=tournament, name="Anna Müller", private_note="alt")
    url = f"/manage/cup/players/{player.pk}/edit/"
    page = organizer_client.get(url)
    assert page.status_code == 200 and "alt" in page.content.decode()
    response = organizer_client.post(
        url, {"name": "Anna Müller", "private_note": "neu", "club": ""}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.private_note == "neu" and not player.public_name_consent


def test_drop_out_and_undo_buttons(organizer_client, tournament):
    player = PlayerFactory(tournament=tournament)
    response = organizer_client.post(f"/manage/cup/players/{player.pk}/drop-out/")
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.dropped_out and player.dropped_out_at
    body = organizer_client.get("/manage/cup/players/").content.decode()
    assert f"/manage/cup/players/{player.pk}/undo-drop-out/" in body
    organizer_client.post(f"/manage/cup/players/{player.pk}/undo-drop-out/")
    player.refresh_from_db()
    assert not player.dropped_out


def test_changes_after_the_end_are_refused_with_a_page(organizer_client, tournament):
    player = PlayerFactory(tournament=tournament)
    tournament.status = Tournament.Status.FINISHED
    tournament.save()
    response = organizer_client.post(f"/manage/cup/players/{player.pk}/drop-out/")
    assert response.status_code == 409
    assert 'data-code="tournament_finished"' in response.content.decode()
    response = organizer_client.post("/manage/cup/players/add/", {"name": "Zu spät"})
    assert response.status_code == 409


@pytest.mark.parametrize(
    "path", ["/manage/cup/players/", "/manage/cup/players/add/", "/manage/cup/players/import/"]
)
def test_player_pages_are_staff_only(client, tournament, path):
    assert client.get(path).status_code == 302
    client.force_login(UserFactory())
    assert client.get(path).status_code == 403


def test_banker_cannot_add_or_drop(client, tournament):
    player = PlayerFactory(tournament=tournament)
    client.force_login(UserFactory())
    client.post("/manage/cup/players/add/", {"name": "Eindringling"})
    client.post(f"/manage/cup/players/{player.pk}/drop-out/")
    player.refresh_from_db()
    assert not player.dropped_out
    assert not Player.objects.filter(name="Eindringling").exists()
