"""Hostile input to every HTML form that posts (organizer pages, the round desk, print pages,
the banker console, login, the language switch, the public sign-up): fields missing, wrong
types, negative and huge numbers, 100 kB strings, NUL characters, two values for one field,
script tags. Never a server error; a refused post answers 4xx or shows the form again with an
error, and saves nothing; script-laden values a form accepts (all of its fields that take one,
sent together) are escaped on every page that shows them. The list of forms is checked against
the URL conf.

Runs on SQLite and, with ``DATABASE_URL=postgres://…``, on PostgreSQL (whose varchar limits
and NUL refusal only bite there).
"""

from __future__ import annotations

import re

import pytest
from routes import url_routes

from ._form_catalogue import FORMS, NOT_FORMS, _organizer, _screen
from ._form_checks import _fuzz

pytestmark = pytest.mark.usefixtures("fast_password_hashing")


def _concrete(route: str, world) -> str:
    values = {"slug": "fuzz", "number": "1", "table_number": "1", "pk": str(world.players[0].pk),
              "table_id": str(world.tables[0].pk), "game_id": str(world.counted.pk),
              "player_id": str(world.players[0].pk), "document": "seating",
              "job": "0" * 32, "token": "x", "code": world.players[0].pass_code,
              "key": _screen(world).key, "screen_id": str(_screen(world).pk)}
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values.get(m.group(1), "1"), route)


def test_every_post_route_is_fuzzed(world):
    """OPTIONS tells which methods a view takes (Django answers 405 with an Allow header for
    views limited to some methods); every route that takes POST must be in FORMS."""
    client = _organizer(world)
    takes_post = set()
    for route, _entry, name in url_routes():
        if route.startswith(("^", "api/", "static/")) or "(?P" in route:
            continue  # the REST API: tests/dress_rehearsal/test_openapi_fuzz.py
        if name.split(":")[0] in NOT_FORMS:
            continue
        answer = client.options(_concrete(route, world))
        assert answer.status_code != 404, (route, "fill in a real value for its parameters")
        allowed = answer.get("Allow")
        if allowed is None or "POST" in allowed:  # no Allow: the view takes any method
            takes_post.add(name)
    assert takes_post == set(FORMS), (
        f"not fuzzed: {sorted(takes_post - set(FORMS))}; gone: {sorted(set(FORMS) - takes_post)}"
    )


@pytest.mark.parametrize("name", sorted(FORMS))
def test_form_refuses_malformed_input_without_a_server_error(world, name):
    _fuzz(world, FORMS[name], subnet=20, with_files=True)


