"""The print pages' fixtures: a seated table in tournament "ka" and print files kept in the
test's own folder with a public address for the QR codes (the organizer's client:
tests/conftest.py)."""

import pytest
from factories import seated_table


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PUBLIC_BASE_URL = "https://mcs.example.org"


@pytest.fixture
def table():
    return seated_table(players=6, tournament_kwargs={"slug": "ka"})
