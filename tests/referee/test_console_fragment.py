"""The console's fragment ``/banker/table/<id>/main/`` on the wire (issue 29): compressed, and
304 while the table is as the console has it (its events, the language, the selected player,
who reads it)."""

from __future__ import annotations

import pytest
from consoles import keys, play_events
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee import results
from referee.results import revision_of

# fixtures: tests/referee/conftest.py
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def fetch(client, table, **params):
    """The fragment as a phone asks for it (brotli or gzip)."""
    return client.get(f"/banker/table/{table.pk}/main/", params, HTTP_ACCEPT_ENCODING="br, gzip")


def again(client, table, response, **params):
    """The same fragment asked again with the ETag the browser kept."""
    return client.get(f"/banker/table/{table.pk}/main/", params,
                      HTTP_IF_NONE_MATCH=response["ETag"], HTTP_ACCEPT_ENCODING="br, gzip")


def test_the_fragment_is_compressed_and_answers_304_while_nothing_changed(console, table, game):
    anna, ben, *_ = keys(table)
    play_events(game, {"type": "start"})
    first = fetch(console, table, player=ben)
    assert first.status_code == 200
    assert first["Content-Encoding"] == "br" and first["ETag"].endswith('-br"')
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    assert "Accept-Encoding" in first["Vary"]
    assert len(first.content) < 12_000  # ~70 KB of HTML

    with CaptureQueriesContext(connection) as ctx:
        unchanged = again(console, table, first, player=ben)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == first["ETag"]
    # The session, the table, the game: nothing rendered (the players' names are not read).
    assert not any("tournament_player" in q["sql"] for q in ctx.captured_queries)

    # Another player's panel, the whole feed: another fragment.
    assert again(console, table, first, player=anna).status_code == 200
    assert again(console, table, first, player=ben, feed="all").status_code == 200

    # An event: a new fragment.
    play_events(game, {"type": "cash", "player": anna, "amount": 100})
    changed = again(console, table, first, player=ben)
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert again(console, table, changed, player=ben).status_code == 304


def test_the_language_and_the_reader_are_part_of_the_etag(console, client, table, game, judge):
    _, ben, *_ = keys(table)
    german = fetch(console, table, player=ben)
    english = console.get(f"/banker/table/{table.pk}/main/", {"player": ben},
                          HTTP_IF_NONE_MATCH=german["ETag"], HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200 and english["ETag"] != german["ETag"]
    console.logout()
    client.force_login(judge)  # the head referee sees other buttons
    assert again(client, table, german, player=ben).status_code == 200


def test_a_counted_result_changes_the_fragment(
    console, table, ended, django_capture_on_commit_callbacks
):
    """The count (and the confirmation) write no event: the game's version names them."""
    first = fetch(console, table)
    with django_capture_on_commit_callbacks(execute=True):
        results.count_result(game_id=ended.pk, revision=revision_of(ended.pk), author=None)
    counted = again(console, table, first)
    assert counted.status_code == 200 and counted["ETag"] != first["ETag"]
