"""Issue 29, a full hall: a table's changed card is rendered once, by the builder of the version
document that announces it, in every language — not by the first few hundred phones that ask
for it — and a card missing from the cache is built alone, not with the rest of the request."""

from __future__ import annotations

import datetime as dt
import json
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from gameplay import T0
from queries import counted, explain

from public import selectors as public_selectors
from referee import services

pytestmark = pytest.mark.django_db


def _pause(table, django_capture_on_commit_callbacks, minutes=5):
    game = services.ensure_game(table=table)
    with django_capture_on_commit_callbacks(execute=True):
        services.post_event(game_id=game.pk, event={"type": "pause"}, author=None,
                            now=T0 + dt.timedelta(minutes=minutes))


def test_the_document_announcing_a_changed_card_has_rendered_it_in_every_language(
        hall, django_capture_on_commit_callbacks):
    spectator = Client()
    document = json.loads(spectator.get("/t/ka/live/v").content)
    _pause(hall[1], django_capture_on_commit_callbacks)
    delta = json.loads(spectator.get(f"/t/ka/live/v?since={document['g']}").content)
    assert list(delta["d"]) == ["2"]
    for language in ("de", "en"):
        with CaptureQueriesContext(connection) as ctx:
            answer = Client().get("/t/ka/live/cards?n=2", HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 200
        assert counted(ctx.captured_queries) == [], explain(counted(ctx.captured_queries))
        card = json.loads(answer.content)["cards"]["2"]
        assert ("Pausiert" if language == "de" else "Paused") in card


def test_a_card_missing_from_the_cache_is_built_alone(hall, django_capture_on_commit_callbacks):
    """Table 1's card is cached (the page asked for it); table 2 changed and its document was
    built before the previous one existed, so its card is missing: only table 2 is read."""
    Client().get("/t/ka/live/cards?n=1,2", HTTP_ACCEPT_LANGUAGE="en")
    _pause(hall[1], django_capture_on_commit_callbacks)
    seen = []
    real = public_selectors.table_overview

    def spy(tournament, *, numbers=None):
        seen.append(list(numbers or []))
        return real(tournament, numbers=numbers)

    with mock.patch.object(public_selectors, "table_overview", spy), \
            mock.patch("public.tables._previous_generation", return_value=None):
        answer = json.loads(Client().get("/t/ka/live/cards?n=1,2",
                                         HTTP_ACCEPT_LANGUAGE="en").content)
    assert seen == [[2]]
    assert list(answer["cards"]) == ["1", "2"] and "Paused" in answer["cards"]["2"]
    assert "Paused" not in answer["cards"]["1"]


@pytest.mark.parametrize(("language", "state"), [("de", "Pausiert"), ("en", "Paused")])
def test_the_tables_page_s_poll_carries_the_changed_cards(
        hall, django_capture_on_commit_callbacks, language, state):
    """Issue 29: the tables page follows in one request per poll — the delta it asks for
    (``&cards=1``) carries the changed cards in the visitor's language, before the session
    and without a query; the leaderboard's poll (no ``cards``) stays the same for everyone."""
    spectator = Client(HTTP_ACCEPT_LANGUAGE=language)
    document = json.loads(spectator.get("/t/ka/live/v").content)
    _pause(hall[1], django_capture_on_commit_callbacks)
    plain = spectator.get(f"/t/ka/live/v?since={document['g']}")
    assert "c" not in json.loads(plain.content)
    assert "Accept-Language" not in plain.get("Vary", "")
    with CaptureQueriesContext(connection) as ctx:
        answer = spectator.get(f"/t/ka/live/v?since={document['g']}&cards=1")
    assert counted(ctx.captured_queries) == [], explain(counted(ctx.captured_queries))
    delta = json.loads(answer.content)
    assert list(delta["d"]) == ["2"] and list(delta["c"]) == ["2"]
    assert state in delta["c"]["2"] and 'data-table="2"' in delta["c"]["2"]
    assert "Accept-Language" in answer["Vary"] and answer["Content-Language"] == language


def test_phones_asking_the_same_delta_share_it(hall, django_capture_on_commit_callbacks):
    """The phones that last polled at the same change ask for the same delta: it is made (and
    compressed) once per language and kept under both documents' names."""
    document = json.loads(Client().get("/t/ka/live/v").content)
    _pause(hall[1], django_capture_on_commit_callbacks)
    path = f"/t/ka/live/v?since={document['g']}&cards=1"
    from public import tables

    made = []
    real = tables._delta

    def counting(*args, **kwargs):
        made.append(args)
        return real(*args, **kwargs)

    with mock.patch.object(tables, "_delta", counting):
        answers = [Client().get(path, HTTP_ACCEPT_LANGUAGE=language, HTTP_ACCEPT_ENCODING="br")
                   for language in ("de", "de", "de", "en", "en")]
    assert len(made) == 2  # one per language
    assert len({answer.content for answer in answers[:3]}) == 1
    assert answers[0]["Content-Encoding"] == "br" and answers[0]["ETag"]
    assert answers[0].content != answers[3].content


def test_an_erasure_drops_the_kept_deltas_with_their_cards(
        hall, django_capture_on_commit_callbacks):
    """A kept delta carries cards, and cards carry names: an erasure must not leave one behind
    in the cache until it expires (``tables.versions_delta`` keeps it under the tournament's
    key prefix, which an erasure empties)."""
    from django.core.cache import cache as django_cache
    from factories import OrganizerFactory

    from public import tables
    from scoring import cache
    from tournament import privacy

    spectator = Client(HTTP_ACCEPT_LANGUAGE="de")
    document = json.loads(spectator.get("/t/ka/live/v").content)
    _pause(hall[1], django_capture_on_commit_callbacks)
    answer = spectator.get(f"/t/ka/live/v?since={document['g']}&cards=1")
    seat = hall[1].seats.select_related("player").first()
    name = seat.player.name
    assert name in json.loads(answer.content)["c"]["2"]
    generation = cache.generations("ka", tables.VERSIONS)
    kept = tables.delta_key("ka", document["g"], generation, "de")
    assert django_cache.get(kept) is not None

    organizer = OrganizerFactory(tournaments=[hall[1].round.tournament])
    with django_capture_on_commit_callbacks(execute=True):
        privacy.erase_player(player=seat.player, actor=organizer)

    assert django_cache.get(kept) is None
    again = spectator.get(f"/t/ka/live/v?since={document['g']}&cards=1").content.decode()
    assert name not in again
