"""A seated table and its banker, for the tests of the console and its API."""

from __future__ import annotations

import pytest
from factories import UserFactory, seated_table


@pytest.fixture
def banker():
    return UserFactory(username="bank1")


@pytest.fixture
def table(banker):
    """Six players seated, ``banker`` banks (a module may define its own)."""
    return seated_table(banker=banker)
