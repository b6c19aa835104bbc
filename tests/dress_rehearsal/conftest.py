"""Fixtures of the form fuzz (the test_form_fuzz_* modules): the world its forms are aimed
at, and a fast password hasher (a module asks for it with
``pytestmark = pytest.mark.usefixtures("fast_password_hashing")``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from factories import UserFactory

from ._form_catalogue import _mail, _screen, _signup
from ._fuzz_world import build_fuzz_world


@pytest.fixture
def fast_password_hashing(settings):
    """The login form hashes a password per try; the fuzz needs no real work factor."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db) -> SimpleNamespace:
    """A running tournament (table 1 playing, table 2 counted and awaiting confirmation) and one
    in registration whose draft round 1 is seated (so swap, move, lock can succeed)."""
    world = build_fuzz_world()
    world.banker = UserFactory(username="fuzz-banker", password=None)
    world.tables[0].banker = world.banker
    world.tables[0].save(update_fields=["banker"])
    _screen(world)  # a hall screen to choose for (made before any fingerprint is taken)
    for status in ("waiting", "pending", "withdrawn"):  # sign-ups to confirm, move up, erase
        _signup(world, status)
    _mail(world)
    return world

