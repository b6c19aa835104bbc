"""Fixtures of the public pages' tests: a running tournament at ``/t/ka/``."""

from __future__ import annotations

import pytest
from factories import TournamentFactory
from gameplay import T0, twelve_at_two_tables

from referee import services
from tournament.models import Tournament


@pytest.fixture
def tournament():
    """Running, a final of six, the default tie-breaks (a module may define its own)."""
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka", finalists=6)


@pytest.fixture
def hall(tournament):
    """Two tables of ``tournament`` playing (round 1)."""
    _, tables = twelve_at_two_tables(tournament)
    for table in tables:
        game = services.ensure_game(table=table)
        services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    return tables
