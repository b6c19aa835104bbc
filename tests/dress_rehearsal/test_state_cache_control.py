"""The state API's Cache-Control is valid and says whose answer it is: ``public`` to anyone,
``private`` to the banker, never both, always ``no-cache``."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from factories import UserFactory, seated_table

pytestmark = pytest.mark.django_db

DIRECTIVE = re.compile(r"^[a-z-]+(=(\d+|\"[^\"]*\"))?$")


def test_the_state_api_sends_a_valid_cache_control_to_the_public_and_the_banker():
    banker = UserFactory()
    table = seated_table(banker=banker)
    anonymous = Client().get(f"/api/v1/tables/{table.pk}/state")
    console = Client()
    console.force_login(banker)
    private = console.get(f"/api/v1/tables/{table.pk}/state")
    for answer, kind in ((anonymous, "public"), (private, "private")):
        directives = [part.strip() for part in answer["Cache-Control"].split(",")]
        assert all(DIRECTIVE.match(part) for part in directives), answer["Cache-Control"]
        assert kind in directives and "no-cache" in directives
        assert {"public", "private"} - {kind} not in [set(directives)]
        assert not ({"public", "private"} <= set(directives))
