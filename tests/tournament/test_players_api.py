"""/api/v1/tournaments/{slug}/players/: organizers see and change everything, the public little."""

from __future__ import annotations

import pytest
from factories import ClubFactory, OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory

from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/cup/players/"
PRIVATE = {"email", "private_note", "name", "public_name_consent"}


@pytest.fixture
def tournament():
    tournament = TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)
    club = ClubFactory(name="Spielfreunde Durlach", short_name="SF Durlach")
    PlayerFactory(
        tournament=tournament,
        name="Anna Müller",
        email="anna@example.org",
        private_note="zahlt bar",
        public_name_consent=True,
    )
    PlayerFactory(
        tournament=tournament,
        name="Jörg Weiß",
        club=club,
        email="joerg@example.org",
        private_note="geheim",
        public_name_consent=False,
    )
    return tournament


def test_organizer_sees_every_field(client, tournament):
    client.force_login(OrganizerFactory())
    rows = client.get(URL).json()
    assert [row["name"] for row in rows] == ["Anna Müller", "Jörg Weiß"]
    assert rows[1]["email"] == "joerg@example.org" and rows[1]["private_note"] == "geheim"
    assert rows[1]["club"] == "Spielfreunde Durlach"


@pytest.mark.parametrize("who", ["anonymous", "banker"])
def test_public_readers_see_no_private_data(client, tournament, who):
    if who == "banker":
        client.force_login(UserFactory())
    response = client.get(URL)
    assert response.status_code == 200
    text = response.content.decode()
    for secret in ("anna@example.org", "joerg@example.org", "geheim", "zahlt bar", "Jörg Weiß"):
        assert secret not in text
    rows = response.json()
    assert all(not PRIVATE & set(row) for row in rows)
    assert [row["public_name"] for row in rows] == ["Anna Müller", "J.W. (SF Durlach)"]
    player = Player.objects.get(name="Jörg Weiß")
    detail = client.get(f"{URL}{player.pk}/").json()
    assert detail["public_name"] == "J.W. (SF Durlach)" and "email" not in detail


def test_players_of_a_draft_are_not_public(client, tournament):
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    assert client.get(URL).status_code == 404
    client.force_login(OrganizerFactory())
    assert client.get(URL).status_code == 200


def test_create_update_and_state_changes(client, tournament):
    client.force_login(OrganizerFactory())
    response = client.post(
        URL,
        {"name": "Ben Becker", "club": "KIT", "public_name_consent": True},
        content_type="application/json",
    )
    assert response.status_code == 201
    data = response.json()
    assert data["club"] == "KIT" and not data["checked_in"]
    url = f"{URL}{data['id']}/"
    response = client.patch(url, {"email": "ben@example.org"}, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["email"] == "ben@example.org" and response.json()["club"] == "KIT"
    assert client.post(f"{url}check-in/").json()["checked_in"] is True
    assert client.post(f"{url}undo-check-in/").json()["checked_in"] is False
    dropped = client.post(f"{url}drop-out/").json()
    assert dropped["dropped_out"] is True and dropped["dropped_out_at"]
    assert client.post(f"{url}undo-drop-out/").json()["dropped_out"] is False


def test_late_entry_over_the_api(client, tournament):
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    client.force_login(OrganizerFactory())
    response = client.post(URL, {"name": "Zoë Spät"}, content_type="application/json")
    assert response.json()["checked_in"] is True


def test_api_refusals_carry_codes(client, tournament):
    client.force_login(OrganizerFactory())
    response = client.post(URL, {"name": "anna müller"}, content_type="application/json")
    assert response.status_code == 409
    assert response.json()["code"] == "player_name_taken"
    response = client.post(URL, {"name": "Neu", "email": "x@"}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "player_email_invalid"
    player = Player.objects.get(name="Anna Müller")
    player.dropped_out = True
    player.checked_in = False
    player.save()
    response = client.post(f"{URL}{player.pk}/check-in/")
    assert response.status_code == 409 and response.json()["code"] == "player_dropped_out"


@pytest.mark.parametrize("who", ["anonymous", "banker"])
def test_only_organizers_write(client, tournament, who):
    if who == "banker":
        client.force_login(UserFactory())
    player = Player.objects.get(name="Anna Müller")
    checks = [
        client.post(URL, {"name": "X"}, content_type="application/json"),
        client.patch(f"{URL}{player.pk}/", {"name": "Y"}, content_type="application/json"),
        client.post(f"{URL}{player.pk}/check-in/"),
        client.post(f"{URL}{player.pk}/drop-out/"),
        client.post(f"{URL}import/", {"file": b"name\nX\n"}),
    ]
    assert [response.status_code for response in checks] == [403] * len(checks)
    player.refresh_from_db()
    assert player.name == "Anna Müller" and not player.dropped_out
    assert Player.objects.count() == 2


def test_schema_documents_the_player_endpoints(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = response.json()["paths"]
    base = "/api/v1/tournaments/{tournament_slug}/players/"
    for suffix in ("", "{id}/", "{id}/check-in/", "{id}/drop-out/", "import/"):
        assert base + suffix in paths, suffix
    assert "/api/v1/tournaments/{slug}/transition/" in paths
    upload = paths[base + "import/"]["post"]
    assert "multipart/form-data" in upload["requestBody"]["content"]
    assert "400" in upload["responses"]


# --- hostile input (found by tests/dress_rehearsal/test_openapi_fuzz.py) ------------------------


@pytest.mark.parametrize("body", [
    '{"name": "Anna\\u0000 B"}',  # NUL: PostgreSQL refuses it in text columns
    '{"name": "Anna \\ud800"}',  # a lone surrogate: cannot even be echoed back as UTF-8
    '{"name": "Anna", "\\u0000": 1}',
])
def test_unstorable_characters_in_json_are_refused_with_400(client, tournament, body):
    client.force_login(OrganizerFactory())
    answer = client.post(URL, body, content_type="application/json")
    assert answer.status_code == 400
    error = answer.json()
    assert error["code"] == "unusable_text"
    assert "NUL" in error["message_en"] and "NUL" in error["message_de"]
    assert Player.objects.filter(tournament=tournament).count() == 2


def test_nul_in_a_form_encoded_api_body_is_refused_with_400(client, tournament):
    client.force_login(OrganizerFactory())
    answer = client.post(URL, {"name": "Anna\x00"})
    assert answer.status_code == 400 and answer.json()["code"] == "unusable_text"


@pytest.mark.parametrize("path", [
    "/api/v1/tournaments/c%00up/", "/api/v1/tournaments/c%00up/players/",
    "/api/v1/tournaments/c%00up/players/1/", "/api/v1/tournaments/c%00up/transition/",
])
def test_a_slug_that_cannot_exist_is_404_before_any_query(client, tournament, path):
    client.force_login(OrganizerFactory())
    assert client.get(path).status_code == 404
    assert client.post(path, {}, content_type="application/json").status_code in (404, 405)
