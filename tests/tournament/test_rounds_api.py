"""REST API of rounds and tables: public reads with public names, organizer-only writes."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import (
    OrganizerFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    checked_in_players,
)

from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer_client():
    client = Client()
    # Global (a superuser): these tests make their tournaments after logging in; the scope of
    # organizers is tested in tests/tournament/test_access_routes.py.
    client.force_login(OrganizerFactory(is_superuser=True))
    return client


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="api-cup")


def test_organizer_runs_a_round_through_the_api(organizer_client, tournament):
    checked_in_players(tournament, 35)
    created = organizer_client.post(
        "/api/v1/rounds/", {"tournament": "api-cup"}, content_type="application/json"
    )
    assert created.status_code == 201, created.content
    round_id = created.json()["id"]
    assert created.json()["status"] == "draft"
    url = f"/api/v1/rounds/{round_id}/"

    seated = organizer_client.post(
        url + "seat/", {"version": 0, "seconds": 2, "seed": 11}, content_type="application/json"
    )
    assert seated.status_code == 200, seated.content
    body = seated.json()
    assert body["seed"] == 11 and body["repeated_pairs"] == 0
    detail = body["round"]
    assert detail["status"] == "seated" and detail["version"] == 1
    assert sorted(len(t["seats"]) for t in detail["tables"]) == [5, 6, 6, 6, 6, 6]
    assert all(t["repeats"] == 0 for t in detail["tables"])

    locked = organizer_client.post(url + "lock/", {"version": 1}, content_type="application/json")
    assert locked.status_code == 200 and locked.json()["status"] == "locked"
    started = organizer_client.post(url + "start/", {"version": 2}, content_type="application/json")
    assert started.status_code == 200
    assert started.json()["status"] == "running" and started.json()["started_at"]

    again = organizer_client.post(url + "lock/", {}, content_type="application/json")
    assert again.status_code == 409
    assert again.json()["code"] == "invalid_transition"
    assert "Rule:" in again.json()["message_en"]


def test_start_in_registration_is_refused_with_the_rule(organizer_client):
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.LOCKED)
    response = organizer_client.post(f"/api/v1/rounds/{round_.pk}/start/")
    assert response.status_code == 409
    data = response.json()
    assert data["code"] == "tournament_not_running"
    assert "while the tournament is running" in data["message_en"]
    assert data["message_de"]


def test_public_reads_show_public_names_only(organizer_client, tournament):
    PlayerFactory(tournament=tournament, name="Geheime Gisela", public_name_consent=False)
    checked_in_players(tournament, 5)
    round_id = organizer_client.post(
        "/api/v1/rounds/", {"tournament": "api-cup"}, content_type="application/json"
    ).json()["id"]
    organizer_client.post(f"/api/v1/rounds/{round_id}/seat/", {"seconds": 1})

    public = Client()
    listing = public.get("/api/v1/rounds/", {"tournament": "api-cup"})
    assert listing.status_code == 200
    assert [r["id"] for r in listing.json()] == [round_id]
    detail = public.get(f"/api/v1/rounds/{round_id}/").json()
    text = str(detail)
    assert "Geheime Gisela" not in text and "G.G." in text
    assert all(seat["name"] is None for t in detail["tables"] for seat in t["seats"])
    tables = public.get("/api/v1/tables/", {"round": round_id}).json()
    assert len(tables) == 1 and "Geheime Gisela" not in str(tables)
    # Organizers see full names.
    full = organizer_client.get(f"/api/v1/rounds/{round_id}/").json()
    assert "Geheime Gisela" in str(full)


def test_draft_rounds_and_draft_tournaments_are_not_public(organizer_client):
    hidden = TournamentFactory(status=Tournament.Status.DRAFT)
    RoundFactory(tournament=hidden, number=1, status=Round.Status.SEATED)
    shown = TournamentFactory(status=Tournament.Status.RUNNING)
    draft = RoundFactory(tournament=shown, number=1, status=Round.Status.DRAFT)
    assert Client().get("/api/v1/rounds/").json() == []
    assert Client().get(f"/api/v1/rounds/{draft.pk}/").status_code == 404
    assert len(organizer_client.get("/api/v1/rounds/").json()) == 2


@pytest.mark.parametrize("who", ["anonymous", "banker"])
def test_only_organizers_write(tournament, who):
    client = Client()
    if who == "banker":
        client.force_login(UserFactory())
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.SEATED)
    assert client.post("/api/v1/rounds/", {"tournament": tournament.slug}).status_code in (
        401,
        403,
    )
    for action in ("seat", "swap", "move", "lock", "unlock", "start", "swap/preview"):
        response = client.post(f"/api/v1/rounds/{round_.pk}/{action}/", {"version": 0})
        assert response.status_code in (401, 403), action
    round_.refresh_from_db()
    assert (round_.status, round_.version) == (Round.Status.SEATED, 0)
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_bad_input_is_a_400_naming_the_field(organizer_client, tournament):
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.SEATED)
    response = organizer_client.post(
        f"/api/v1/rounds/{round_.pk}/swap/", {"a": 1}, content_type="application/json"
    )
    assert response.status_code == 400
    assert {"version", "b"} <= set(response.json())


def test_schema_documents_the_round_endpoints(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/v1/rounds/",
        "/api/v1/rounds/{id}/",
        "/api/v1/rounds/{id}/seat/",
        "/api/v1/rounds/{id}/swap/",
        "/api/v1/rounds/{id}/swap/preview/",
        "/api/v1/rounds/{id}/move/",
        "/api/v1/rounds/{id}/move/preview/",
        "/api/v1/rounds/{id}/lock/",
        "/api/v1/rounds/{id}/start/",
        "/api/v1/tables/{id}/",
        "/api/v1/tables/{id}/banker/",
        "/api/v1/tables/{id}/link/",
    ):
        assert path in paths, path
    assert "409" in paths["/api/v1/rounds/{id}/swap/"]["post"]["responses"]
    assert {"get", "post", "delete"} <= set(paths["/api/v1/tables/{id}/link/"])


# --- hostile input (found by tests/dress_rehearsal/test_openapi_fuzz.py) ------------------------


@pytest.mark.parametrize("action, body", [
    ("lock/", {}), ("seat/", {}), ("start/", {}),
    ("swap/preview/", {"version": 0, "a": 1, "b": 2}),
    ("move/", {"version": 0, "player": 1, "to_table": 1}),
])
def test_a_malformed_round_id_in_the_path_is_404(organizer_client, action, body):
    answer = organizer_client.post(f"/api/v1/rounds/null/{action}", body,
                                   content_type="application/json")
    assert answer.status_code == 404


@pytest.mark.parametrize("action, body", [("link/", {}), ("banker/", {"username": None})])
def test_a_malformed_table_id_in_the_path_is_404(organizer_client, action, body):
    answer = organizer_client.post(f"/api/v1/tables/true/{action}", body,
                                   content_type="application/json")
    assert answer.status_code == 404
    assert organizer_client.delete("/api/v1/tables/1.5/link/").status_code == 404


def test_filters_with_impossible_values_find_nothing(organizer_client, tournament):
    RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    assert organizer_client.get("/api/v1/rounds/", {"tournament": "api\x00cup"}).json() == []
    assert organizer_client.get("/api/v1/tables/", {"round": "²"}).json() == []  # isdigit()
    assert organizer_client.get("/api/v1/tables/", {"round": "9" * 40}).json() == []


@pytest.mark.parametrize("body", [
    {"version": 1, "a": 10**20, "b": 1}, {"version": 1, "player": 10**20, "to_table": 1},
    {"version": 1, "player": 1, "to_table": 10**6},
])
def test_ids_beyond_the_columns_are_a_400(organizer_client, tournament, body):
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.SEATED)
    action = "swap" if "a" in body else "move"
    answer = organizer_client.post(f"/api/v1/rounds/{round_.pk}/{action}/", body,
                                   content_type="application/json")
    assert answer.status_code == 400
