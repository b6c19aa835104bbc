"""Issue 29, a full hall on two cores: the hall's two polls are answered before Django looks
at the session, the user or the language — the spectators' version document every 1.5 s
(``public.early``) and the consoles' state every second (``referee.follow``) — and ask the
database nothing; an address they would refuse still goes the whole way.
"""

from __future__ import annotations

import datetime as dt
import json
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import connection
from django.middleware.locale import LocaleMiddleware
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from gameplay import T0
from queries import counted, explain

from referee import services

pytestmark = pytest.mark.django_db

PHONE = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br", "HTTP_ACCEPT_LANGUAGE": "de"}


class Reached(AssertionError):
    """A poll went past the early answer into the session or the language."""


def untouched():
    """The session and the language middleware refuse to run: only an early answer passes."""
    return mock.patch.multiple(
        SessionMiddleware, process_request=mock.Mock(side_effect=Reached("session")))


def no_language():
    return mock.patch.object(LocaleMiddleware, "process_request",
                             mock.Mock(side_effect=Reached("language")))


def get(client, path, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, **headers)
    return response, counted(ctx.captured_queries)


def test_the_version_poll_is_answered_before_the_session_and_asks_nothing(hall):
    spectator = Client()
    whole = spectator.get("/t/ka/live/v", **PHONE)  # the first poll may build the document
    assert whole.status_code == 200
    document = json.loads(whole.content)
    with untouched(), no_language():
        again, queries = get(spectator, "/t/ka/live/v", HTTP_IF_NONE_MATCH=whole["ETag"], **PHONE)
        assert again.status_code == 304 and queries == [], explain(queries)
        assert again["ETag"] == whole["ETag"] and again["X-Server-Time"]
        delta, queries = get(spectator, f"/t/ka/live/v?since={document['g']}", **PHONE)
        assert delta.status_code == 200 and queries == [], explain(queries)
        assert json.loads(delta.content) == {"g": document["g"], "s": document["s"],
                                             "r": document["r"], "d": {}}
        assert delta["Cache-Control"] == "no-cache"


def test_the_version_poll_early_is_the_view_s_answer(hall, django_capture_on_commit_callbacks):
    """A post moves a card: the early delta names it, as the view did."""
    spectator = Client()
    document = json.loads(spectator.get("/t/ka/live/v").content)
    game = services.ensure_game(table=hall[1])
    with django_capture_on_commit_callbacks(execute=True):
        services.post_event(game_id=game.pk, event={"type": "pause"}, author=None,
                            now=T0 + dt.timedelta(minutes=5))
    with untouched(), no_language():
        delta = json.loads(spectator.get(f"/t/ka/live/v?since={document['g']}").content)
    assert list(delta["d"]) == ["2"]
    assert delta["g"] != document["g"]


def test_an_unknown_tournament_s_version_poll_goes_the_whole_way(hall):
    with untouched(), pytest.raises(Reached):
        Client().get("/t/nope/live/v")
    assert Client().get("/t/nope/live/v").status_code == 404


def test_the_follow_poll_is_answered_before_the_session(hall):
    table = hall[0]
    reader = Client()
    first = reader.get(f"/api/v1/tables/{table.pk}/state", **PHONE)
    assert first.status_code == 200  # the full view keeps its ETag
    with untouched(), no_language():
        again, queries = get(reader, f"/api/v1/tables/{table.pk}/state",
                             HTTP_IF_NONE_MATCH=first["ETag"], **PHONE)
    assert again.status_code == 304 and queries == [], explain(queries)
    with untouched(), pytest.raises(Reached):  # no ETag: the full view
        reader.get(f"/api/v1/tables/{table.pk}/state")


FULL_CHAIN = [m for m in settings.MIDDLEWARE if m != "public.early.LivePollsMiddleware"]
LANGUAGES = {  # how a visitor's language reaches us: the switch's cookie, or the browser
    "de": {"HTTP_ACCEPT_LANGUAGE": "de"},
    "en-cookie": {"HTTP_ACCEPT_LANGUAGE": "de", "HTTP_COOKIE": "django_language=en"},
    "en-browser": {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"},
}


def _live_paths(tables) -> list[str]:
    player = tables[0].seats.first().player_id
    return ["/t/ka/live/cards?n=1,2", "/t/ka/live/standings/top", "/t/ka/live/standings",
            "/t/ka/live/tables", "/t/ka/live/tables/1", "/t/ka/live/rounds/1/tables/2",
            f"/t/ka/live/players/{player}", "/t/ka/live/screen/standings",
            "/t/ka/live/screen/tables"]


def _seen(response) -> tuple:
    headers = {k: v for k, v in response.headers.items() if k != "X-Server-Time"}
    if "Content-Security-Policy" in headers:  # django-csp writes its directives in any order
        headers["Content-Security-Policy"] = sorted(
            headers["Content-Security-Policy"].split("; "))
    return response.status_code, headers, response.content


@pytest.mark.parametrize("language", LANGUAGES)
def test_cards_and_fragments_are_answered_before_the_session_as_the_whole_chain_would(
        hall, language):
    """Issue 29: a hall's cards and standings polls skip the session, the user and CSRF —
    and their answer is the full chain's to the byte and header, in the visitor's language
    (cookie or browser), with the policy and frame headers the skipped middlewares add."""
    headers = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br", **LANGUAGES[language]}
    for path in _live_paths(hall):
        with override_settings(MIDDLEWARE=FULL_CHAIN):
            whole = Client().get(path, **headers)
        assert whole.status_code == 200, path
        with untouched(), no_language():
            early, queries = get(Client(), path, **headers)
        assert queries == [], (path, explain(queries))
        assert _seen(early) == _seen(whole), path
        assert early["Content-Language"] == language[:2], path
    with untouched(), no_language():
        top = Client().get("/t/ka/live/standings/top", **headers)
    assert top["Content-Security-Policy"] and top["X-Frame-Options"] == "DENY"


def test_a_fragment_poll_with_its_etag_is_a_304_before_the_session(hall):
    first = Client().get("/t/ka/live/standings/top", **PHONE)
    with untouched(), no_language():
        again, queries = get(Client(), "/t/ka/live/standings/top",
                             HTTP_IF_NONE_MATCH=first["ETag"], **PHONE)
    assert again.status_code == 304 and queries == [], explain(queries)


def test_an_unknown_tournament_s_cards_go_the_whole_way(hall):
    with untouched(), pytest.raises(Reached):
        Client().get("/t/nope/live/cards?n=1")
    assert Client().get("/t/nope/live/cards?n=1", HTTP_ACCEPT_LANGUAGE="en").status_code == 404


API_DOCUMENTS = ["/api/v1/tournaments/ka/standings", "/api/v1/tournaments/ka/tables"]


def _without_cookie_in_vary(seen: tuple) -> tuple:
    status, headers, body = seen
    vary = [v.strip() for v in headers.get("Vary", "").split(",") if v.strip() != "Cookie"]
    return status, {**headers, "Vary": ", ".join(vary)}, body


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", API_DOCUMENTS)
def test_the_public_api_documents_are_answered_before_the_session(hall, path, language):
    """Issue 29: hall screens poll the public standings and tables documents; they are the
    same for everyone, so they skip the session, the user, CSRF and the audit context and ask
    nothing — DRF's own answer, headers and bytes, but for ``Cookie`` in ``Vary`` (the full
    chain's audit middleware looked at the session; the document reads no cookie)."""
    headers = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br", **LANGUAGES[language]}
    with override_settings(MIDDLEWARE=FULL_CHAIN):
        whole = Client().get(path, **headers)
    assert whole.status_code == 200 and "Cookie" in whole["Vary"]
    with untouched(), no_language():
        early, queries = get(Client(), path, **headers)
        again, _ = get(Client(), path, HTTP_IF_NONE_MATCH=early["ETag"], **headers)
    assert queries == [], explain(queries)
    assert _seen(early) == _without_cookie_in_vary(_seen(whole))
    assert "Cookie" not in early["Vary"] and early["Allow"] == "GET, HEAD, OPTIONS"
    assert again.status_code == 304


def test_an_unknown_tournament_s_api_document_goes_the_whole_way(hall):
    """A refusal is the full chain's, in the visitor's language (DRF answers Http404 itself:
    the early answer sees a 404 response, not an exception)."""
    with untouched(), pytest.raises(Reached):
        Client().get("/api/v1/tournaments/nope/standings")
    refused = Client().get("/api/v1/tournaments/nope/standings", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 404 and refused["Content-Language"] == "en"
