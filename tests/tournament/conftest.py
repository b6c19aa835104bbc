"""Fixtures of the organizer's player pages (the list, the check-in desk)."""

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
