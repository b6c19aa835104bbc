"""A seated table and its banker, for the tests of the console and its API; the console's game,
its logged-in client and a test-driven clock."""

from __future__ import annotations

import pytest
import time_machine
from consoles import dealt_game, keys, play_events
from factories import UserFactory, appoint, seated_table
from gameplay import T0, linked_game

from referee import services
from tournament.models import StaffRole


@pytest.fixture
def banker():
    return UserFactory(username="bank1")


@pytest.fixture
def table(banker):
    """Six players seated, ``banker`` banks (a module may define its own)."""
    return seated_table(banker=banker)


@pytest.fixture
def judge(table):
    """The head referee of ``table``'s tournament."""
    return appoint(UserFactory(username="mrmonopoly"), StaffRole.Role.HEAD_REFEREE,
                   table.round.tournament)


@pytest.fixture
def game(table):
    """``table``'s game, not started (a module may define its own)."""
    return services.ensure_game(table=table)


@pytest.fixture
def console(client, banker):
    """The test client, logged in as ``banker``."""
    client.force_login(banker)
    return client


@pytest.fixture
def linked(client, banker):
    """A banker's phone (``client``) that opened a table's private link, the game started at
    T0: (client, table, game). A module may define its own."""
    table, game = linked_game(client, banker, start=T0)
    return client, table, game


@pytest.fixture
def ended(table, game):
    """``game`` over: dealt, then Ben bankrupt to Anna and Carla to the bank."""
    anna, ben, carla, *_ = keys(table)
    dealt_game(game, table)
    return play_events(game, {"type": "bankrupt", "player": ben, "creditor": anna},
                       {"type": "bankrupt", "player": carla, "creditor": "bank"})


@pytest.fixture
def clock():
    """The server's clock, driven by the test (the game starts at T0)."""
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller
