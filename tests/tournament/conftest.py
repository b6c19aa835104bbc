"""Fixtures of the organizer's pages: a tournament open for registration and its organizer's
client (the player list, the check-in desk); a global organizer's: tests/conftest.py."""

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
