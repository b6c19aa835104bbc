"""OpenAPI 3 schema by drf-spectacular and a self-hosted docs page."""

from __future__ import annotations

import pytest
from factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_schema_is_openapi_3(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/tournaments/" in "".join(schema["paths"])


def test_docs_page_is_served_without_internet(client):
    body = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in body
    assert "cdn.jsdelivr" not in body  # assets come from drf-spectacular-sidecar


def test_tournament_list_is_public_and_hides_drafts(client):
    TournamentFactory(slug="open-cup")
    TournamentFactory(slug="secret", status="draft")
    response = client.get("/api/v1/tournaments/")
    assert response.status_code == 200
    slugs = [row["slug"] for row in response.json()]
    assert slugs == ["open-cup"]
    assert client.get("/api/v1/tournaments/secret/").status_code == 404


def test_anonymous_cannot_write(client):
    TournamentFactory(slug="open-cup")
    response = client.post("/api/v1/tournaments/", {"name": "x"})
    assert response.status_code in (401, 403, 405)
