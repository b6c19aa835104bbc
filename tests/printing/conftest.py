"""The print pages' fixtures: a seated table in tournament "ka", an organizer's client, and
print files kept in the test's own folder with a public address for the QR codes."""

import pytest
from factories import OrganizerFactory, seated_table


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PUBLIC_BASE_URL = "https://mcs.example.org"


@pytest.fixture
def table():
    return seated_table(players=6, tournament_kwargs={"slug": "ka"})


@pytest.fixture
def organizer(client):
    # Global (a superuser): these tests make their tournaments after logging in; the scope of
    # organizers is tested in tests/tournament/test_access_routes.py.
    client.force_login(OrganizerFactory(is_superuser=True))
    return client
