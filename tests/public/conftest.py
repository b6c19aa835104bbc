"""Fixtures of the public pages' tests: a running tournament at ``/t/ka/``."""

from __future__ import annotations

import pytest
from factories import TournamentFactory

from tournament.models import Tournament


@pytest.fixture
def tournament():
    """Running, a final of six, the default tie-breaks (a module may define its own)."""
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka", finalists=6)
