"""Light public answers (issue 17): compressed once per change (brotli or gzip, as the client
takes it) with an ETag per representation; the leaderboard opens with the top and a "find me"
search; live pages poll a tiny version document and fetch only the table cards that changed."""

from __future__ import annotations

import datetime as dt
import gzip
import json

import brotli
import pytest
from factories import PlayerFactory, UserFactory

from referee import services as referee
from scoring import cache as scoring_cache

pytestmark = pytest.mark.django_db
from gameplay import T0, make_round, play  # noqa: E402

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
PHONE = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd", **EN}


@pytest.fixture
def field(tournament):
    """60 players, one of them Weiß; table 1 played and confirmed."""
    names = ["Erika Weiß", "Jörg Größer"] + [f"Spieler {i}" for i in range(58)]
    players = [PlayerFactory(tournament=tournament, name=name) for name in names]
    groups = [players[i:i + 6] for i in range(0, 60, 6)]
    _, tables = make_round(tournament, 1, groups)
    return players, tables


def played(field, django_capture_on_commit_callbacks):
    players, tables = field
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    return players, tables


def test_the_standings_api_goes_out_compressed_with_an_etag_per_coding(
        client, field, django_capture_on_commit_callbacks):
    played(field, django_capture_on_commit_callbacks)
    plain = client.get("/api/v1/tournaments/ka/standings")
    assert "Content-Encoding" not in plain
    br = client.get("/api/v1/tournaments/ka/standings", HTTP_ACCEPT_ENCODING="gzip, br")
    gz = client.get("/api/v1/tournaments/ka/standings", HTTP_ACCEPT_ENCODING="gzip")
    assert br["Content-Encoding"] == "br" and gz["Content-Encoding"] == "gzip"
    assert brotli.decompress(br.content) == plain.content == gzip.decompress(gz.content)
    assert len(br.content) < len(plain.content) / 3
    assert "Accept-Encoding" in br["Vary"]
    assert br["ETag"] == plain["ETag"][:-1] + '-br"' and gz["ETag"] == plain["ETag"][:-1] + '-gz"'
    # any representation's ETag answers 304
    for tag in (plain["ETag"], br["ETag"], gz["ETag"]):
        again = client.get("/api/v1/tournaments/ka/standings", HTTP_IF_NONE_MATCH=tag,
                           HTTP_ACCEPT_ENCODING="gzip, br")
        assert again.status_code == 304 and again["ETag"] == br["ETag"]
    # a client refusing brotli (q=0) gets gzip
    refused = client.get("/api/v1/tournaments/ka/standings",
                         HTTP_ACCEPT_ENCODING="br;q=0, gzip;q=0.5")
    assert refused["Content-Encoding"] == "gzip"


def test_a_body_is_compressed_once_per_change_not_per_request(
        client, field, django_capture_on_commit_callbacks, monkeypatch):
    calls = []
    real = scoring_cache.encode
    monkeypatch.setattr(scoring_cache, "encode", lambda body, etag: calls.append(1) or real(body, etag))
    for _ in range(5):
        assert client.get("/t/ka/live/standings/top", **PHONE).status_code == 200
    assert len(calls) == 1
    played(field, django_capture_on_commit_callbacks)  # a change: compressed once more
    for _ in range(5):
        client.get("/t/ka/live/standings/top", **PHONE)
    assert len(calls) == 2


def test_the_leaderboard_is_shared_compressed_and_carries_no_personal_token(
        client, field, django_capture_on_commit_callbacks):
    played(field, django_capture_on_commit_callbacks)
    first = client.get("/t/ka/", **PHONE)
    other = client.__class__().get("/t/ka/", **PHONE)
    assert first["Content-Encoding"] == "br"
    assert first.content == other.content  # one body for every spectator
    body = brotli.decompress(first.content).decode()
    assert "X-CSRFToken" not in body and 'name="csrfmiddlewaretoken" value=""' in body
    assert "csrftoken" in first.cookies  # the language switch takes its token from the cookie
    # logged in: a page of one's own (with the token), compressed per response
    client.force_login(UserFactory())
    mine = client.get("/t/ka/", **PHONE)
    assert "X-CSRFToken" in brotli.decompress(mine.content).decode()
    # the language switch still works for an anonymous spectator (token from the cookie)
    anonymous = client.__class__(enforce_csrf_checks=True)
    anonymous.get("/t/ka/")
    token = anonymous.cookies["csrftoken"].value
    switched = anonymous.post("/i18n/setlang/", {"language": "en", "next": "/t/ka/",
                                                 "csrfmiddlewaretoken": token})
    assert switched.status_code == 302


def test_the_leaderboard_opens_with_the_top_and_shows_all_on_demand(
        client, field, django_capture_on_commit_callbacks):
    played(field, django_capture_on_commit_callbacks)
    page = client.get("/t/ka/", **EN).content.decode()
    assert page.count("data-player=") == 30
    assert "The top 30 of 60 players. Show all" in page
    full = client.get("/t/ka/?all=1", **EN).content.decode()
    assert full.count("data-player=") == 60 and "Show all" not in full


@pytest.mark.parametrize("query", ["weiss", "WEISS", "Weiß", "weiß erika", "groesser"])
def test_find_me_folds_german_names(client, field, django_capture_on_commit_callbacks, query):
    played(field, django_capture_on_commit_callbacks)
    body = client.get("/t/ka/live/find", {"q": query}, **EN).content.decode()
    wanted = "Jörg Größer" if query == "groesser" else "Erika Weiß"
    assert wanted in body and body.count("data-player=") == 1
    page = client.get("/t/ka/", {"q": query}, **EN).content.decode()  # without script
    assert f'value="{query}"' in page and wanted in page


def test_find_me_refuses_a_single_letter_and_says_when_nobody_matches(client, field):
    assert "at least two letters" in client.get("/t/ka/live/find?q=e", **EN).content.decode()
    assert "Nobody called" in client.get("/t/ka/live/find?q=zzzz", **EN).content.decode()
    long = client.get("/t/ka/live/find", {"q": "<script>" * 50}, **EN)
    assert long.status_code == 200 and "<script>" not in long.content.decode()


def test_a_polls_304_carries_only_what_a_304_needs(client, field):
    """A hall polls the version document every 1.5 s, mostly answered 304: the security
    headers belong to the stored 200 (the page keeps its policy), not to each 304."""
    first = client.get("/t/ka/live/v", **PHONE)
    assert first.status_code == 200 and "Content-Security-Policy" not in first  # JSON data
    again = client.get("/t/ka/live/v", HTTP_IF_NONE_MATCH=first["ETag"], **PHONE)
    assert again.status_code == 304
    assert {name.lower() for name in again.headers} <= {
        "etag", "cache-control", "vary", "x-server-time", "date", "expires"}
    assert again["ETag"] == first["ETag"] and again["X-Server-Time"]
    assert sum(len(k) + len(v) + 4 for k, v in again.items()) < 200
    page = client.get("/t/ka/", **PHONE)
    assert "script-src 'self'" in page["Content-Security-Policy"]
    assert page["X-Frame-Options"] == "DENY"
    stored = client.get("/t/ka/", HTTP_IF_NONE_MATCH=page["ETag"], **PHONE)
    assert stored.status_code == 304 and "Content-Security-Policy" not in stored


def test_changed_cards_come_from_the_cache_by_their_version(client, field):
    """A hall asks for changed cards several times a second, each phone another set: the
    version document names the versions and the cards are cached under them, no query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = json.loads(client.get("/t/ka/live/cards?n=2,3", **EN).content)
    assert sorted(first["cards"]) == ["2", "3"]
    with CaptureQueriesContext(connection) as ctx:
        again = json.loads(client.get("/t/ka/live/cards?n=3,2,x,99999", **EN).content)
    assert again == first
    assert len(ctx.captured_queries) == 0, [q["sql"][:80] for q in ctx.captured_queries]
    # a card not rendered yet comes from the database, with the cached ones
    more = json.loads(client.get("/t/ka/live/cards?n=2,4", **EN).content)
    assert sorted(more["cards"]) == ["2", "4"] and more["cards"]["2"] == first["cards"]["2"]
    assert client.get("/t/nope/live/cards?n=1").status_code == 404


def test_live_pages_poll_versions_and_fetch_only_changed_cards(
        client, field, django_capture_on_commit_callbacks):
    _, tables = field

    def post(event, minutes):
        with django_capture_on_commit_callbacks(execute=True):
            referee.post_event(game_id=game.pk, event=event, author=None,
                               now=T0 + dt.timedelta(minutes=minutes))

    versions = client.get("/t/ka/live/v", **PHONE)
    doc = json.loads(versions.content)  # small: not compressed
    assert set(doc) == {"g", "s", "r", "t"} and len(doc["t"]) == 10
    assert client.get("/t/ka/live/v", HTTP_IF_NONE_MATCH=versions["ETag"]).status_code == 304
    game = referee.ensure_game(table=tables[2])
    post({"type": "start"}, 0)
    changed = json.loads(client.get("/t/ka/live/v").content)
    moved = [n for n in doc["t"] if doc["t"][n] != changed["t"][n]]
    assert moved == ["3"]
    # a payment that does not change the leader does not change the card
    post({"type": "cash", "player": game.players[0], "amount": 10}, 1)
    leader_now = json.loads(client.get("/t/ka/live/v").content)["t"]["3"]
    post({"type": "cash", "player": game.players[0], "amount": 20}, 2)
    assert json.loads(client.get("/t/ka/live/v").content)["t"]["3"] == leader_now
    cards = json.loads(client.get("/t/ka/live/cards?n=3,x,99999", **EN).content)
    assert list(cards["cards"]) == ["3"] and cards["r"] == changed["r"]
    assert f'data-v="{leader_now}"' in cards["cards"]["3"] and "Running" in cards["cards"]["3"]


def test_a_poll_since_the_document_it_has_gets_only_the_cards_that_changed(
        client, field, django_capture_on_commit_callbacks):
    """A hall's phones poll every 1.5 s: after the whole document, only what changed since
    the one the page has (a few dozen bytes, not a card per table)."""
    _, tables = field
    whole = client.get("/t/ka/live/v")
    first = json.loads(whole.content)
    quiet = json.loads(client.get(f"/t/ka/live/v?since={first['g']}").content)
    assert quiet["d"] == {} and quiet["g"] == first["g"] and "t" not in quiet
    game = referee.ensure_game(table=tables[2])
    with django_capture_on_commit_callbacks(execute=True):
        referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    delta_answer = client.get(f"/t/ka/live/v?since={first['g']}")
    delta = json.loads(delta_answer.content)
    whole_now = json.loads(client.get("/t/ka/live/v").content)
    assert list(delta["d"]) == ["3"] and delta["d"]["3"] == whole_now["t"]["3"]
    assert delta["g"] == whole_now["g"] != first["g"]
    assert (delta["s"], delta["r"]) == (whole_now["s"], whole_now["r"])
    assert len(delta_answer.content) < len(whole.content) / 2  # 10 tables here, 167 in a hall
    assert delta_answer["Cache-Control"] == "no-cache"
    # the page applies the delta to what it has and ends with the whole document's versions
    assert {**first["t"], **delta["d"]} == whole_now["t"]


def test_an_unknown_or_outdated_since_gets_the_whole_document(client, field):
    for since in ("made-up", "9" * 41, ""):
        doc = json.loads(client.get(f"/t/ka/live/v?since={since}").content)
        assert len(doc["t"]) == 10 and "d" not in doc
    first = json.loads(client.get("/t/ka/live/v").content)
    # the round changed (a player's name: every card is new): the whole document again
    scoring_cache.invalidate("ka", scoring_cache.PLAYERS, scoring_cache.TABLES)
    again = json.loads(client.get(f"/t/ka/live/v?since={first['g']}").content)
    assert "d" not in again and again["r"] != first["r"] and len(again["t"]) == 10
    assert client.get("/t/nope/live/v?since=1-1").status_code == 404


def test_the_version_document_names_the_standings_generation(client, field):
    """A page refreshes its standings when ``s`` moves: it must follow every invalidation."""
    first = json.loads(client.get("/t/ka/live/v").content)
    scoring_cache.invalidate("ka", scoring_cache.STANDINGS)
    after = json.loads(client.get(f"/t/ka/live/v?since={first['g']}").content)
    assert after["s"] == scoring_cache.generation("ka", scoring_cache.STANDINGS) != first["s"]
    assert after["d"] == {}  # no card changed
