"""Fixtures of the organizer's pages: a tournament open for registration and its organizer's
client (the player list, the check-in desk), and a global organizer's client."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, TournamentFactory

from tournament.models import Tournament


@pytest.fixture
def tournament():
    """A tournament open for registration, ``/manage/cup/`` (a module may define its own)."""
    return TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)


@pytest.fixture
def organizer_client(client, tournament):
    client.force_login(OrganizerFactory())
    return client


@pytest.fixture
def organizer(client):
    """The test client as a global organizer (a superuser), for tests that make their
    tournaments after logging in; the scope of organizers: test_access_routes.py."""
    client.force_login(OrganizerFactory(is_superuser=True))
    return client
