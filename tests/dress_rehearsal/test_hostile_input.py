"""Hostile and bad input: banker links stay table-bound, anonymous users reach no write or
private page, script-laden names are escaped, login and the confirmation code are rate-limited
per (address, target) — never the leaderboard."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from django.test import Client, RequestFactory
from factories import OrganizerFactory, RoundFactory, SeatFactory, TableFactory, TournamentFactory
from routes import url_routes

from config import ratelimit
from tournament import banker_links
from tournament.models import Round, Tournament
from tournament.rounds import services

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def round_(db):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="hostile")
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    for number in (1, 2, 3, 4):
        table = TableFactory(round=round_, number=number)
        for position in range(1, 5):
            SeatFactory(table=table, round=round_, position=position)
    return round_


def _post_event(client: Client, table, event: dict, **headers):
    token = client.cookies.get("csrftoken")
    extra = {"HTTP_X_CSRFTOKEN": token.value} if token else {}
    return client.post(f"/api/v1/tables/{table.pk}/events", {"event": event},
                       content_type="application/json", **extra, **headers)


def _banker_session(round_, number: int) -> Client:
    client = Client(enforce_csrf_checks=True)
    link = services.issue_link(table=round_.tables.get(number=number))
    assert client.get(banker_links.link_path(link)).status_code == 302
    client.get(f"/banker/table/{link.table_id}/")  # sets the CSRF cookie, as the console does
    return client


def test_link_for_table_3_cannot_write_table_4(round_):
    client = _banker_session(round_, 3)
    three, four = round_.tables.get(number=3), round_.tables.get(number=4)
    assert _post_event(client, four, {"type": "start"}).status_code in (403, 404)
    assert _post_event(client, three, {"type": "start"}).status_code == 201


def test_revoked_link_stops_writing_at_once(round_):
    client = _banker_session(round_, 2)
    table = round_.tables.get(number=2)
    assert _post_event(client, table, {"type": "start"}).status_code == 201
    services.revoke_link(table=table)
    assert _post_event(client, table, {"type": "pause"}).status_code in (403, 404)


def _concrete(route: str, round_) -> str | None:
    if route.startswith("^") or "(?P" in route:
        return None  # the API router's regex routes: covered by the write test below
    table = round_.tables.first()
    values = {"slug": round_.tournament.slug, "tournament_slug": round_.tournament.slug,
              "table_id": str(table.pk), "pk": str(table.pk), "number": "1", "id": "1",
              "table_number": "1", "player_id": "1", "token": "x", "round_id": str(round_.pk),
              "code": "x"}

    def fill(match):
        kind, name = (match.group(1) or "str"), match.group(2)
        return values.get(name, "1" if kind == "int" else "x")

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)


PUBLIC = ("", "healthz", "login/", "logout/", "i18n/", "api/schema/", "api/docs/", "t/",
          "api/v1/tables/", "api/v1/tournaments/", "b/", "static/", "media/", "admin/login/",
          "jsi18n", "p/", "privacy/",
          "banker/sw.js",  # the console's service worker: a script with nothing private in it
          "favicon.ico",  # a redirect to the static icon
          "password/set/")  # a one-time link for new staff: without a valid token it says so


def test_anonymous_reaches_no_private_page(round_):
    """Every route of the URL conf: anonymous GETs of private pages redirect to a login or are
    refused; anonymous POSTs never succeed (2xx)."""
    client = Client()
    checked = 0
    for route in url_routes():
        path = _concrete(route.path, round_)
        if path is None:
            continue
        private = not any(path.lstrip("/").startswith(p) for p in PUBLIC if p) and path != "/"
        if private:
            answer = client.get(path)
            assert answer.status_code in (301, 302, 403, 404, 405), (path, answer.status_code)
            if answer.status_code in (301, 302):
                location = answer["Location"]
                assert "login" in location or location == "/admin/", (path, location)
            checked += 1
        if path.startswith("/password/set/"):
            answer = client.post(path, {"new_password1": "x" * 12, "new_password2": "x" * 12})
            assert answer.status_code == 200 and "new_password1" not in answer.content.decode()
            continue  # an invalid token shows "link invalid" and no form
        if path.startswith(("/i18n", "/login", "/logout", "/admin/login", "/admin/logout")):
            continue  # public forms by design
        answer = client.post(path, {})
        assert answer.status_code not in (200, 201, 204), (path, answer.status_code)
    assert checked > 10


@pytest.mark.parametrize("path", [
    "/api/v1/tournaments/", "/api/v1/rounds/", "/api/v1/tournaments/hostile/players/",
    "/api/v1/tournaments/hostile/players/import/", "/api/v1/tournaments/hostile/transition/",
])
def test_anonymous_api_writes_refused(round_, path):
    answer = Client().post(path, {"name": "x"}, content_type="application/json")
    assert answer.status_code in (401, 403, 404, 405)


def test_script_laden_csv_names_are_escaped_on_public_pages(round_):
    tournament = round_.tournament
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    Round.objects.filter(tournament=tournament).delete()
    organizer = Client()
    organizer.force_login(OrganizerFactory())
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    csv = f"name;club;consent\n{evil} Anna;<b>Club</b>;ja\nBen Normal;;ja\n".encode()
    from django.core.files.uploadedfile import SimpleUploadedFile

    answer = organizer.post(f"/api/v1/tournaments/{tournament.slug}/players/import/",
                            {"file": SimpleUploadedFile("p.csv", csv, "text/csv")})
    assert answer.status_code == 201, answer.content[:500]
    anon = Client()
    for path in (f"/t/{tournament.slug}/", f"/t/{tournament.slug}/tables/",
                 f"/t/{tournament.slug}/live/standings", f"/t/{tournament.slug}/live/find?q=Anna",
                 f"/t/{tournament.slug}/live/cards?n=1", f"/manage/{tournament.slug}/players/"):
        body = (organizer if path.startswith("/manage") else anon).get(path).content.decode()
        assert "<script>alert" not in body, path
        assert "onerror=alert" not in body.replace("onerror=alert(1)&gt;", ""), path


# The limiter counts in fixed 5-minute windows: the clock stands still mid-window, or the
# attempts could straddle a boundary and start counting afresh.
MID_WINDOW = dt.datetime(2026, 11, 28, 10, 2, 30, tzinfo=dt.UTC)


@time_machine.travel(MID_WINDOW, tick=False)
def test_login_rate_limited_per_address_and_username(db, settings):
    factory = RequestFactory()
    view = ratelimit.RateLimitedLoginView.as_view()

    def attempt(username, address="10.0.0.1"):
        request = factory.post("/login/", {"username": username, "password": "wrong"},
                               REMOTE_ADDR=address)
        request._dont_enforce_csrf_checks = True
        from django.contrib.sessions.backends.cache import SessionStore

        request.session = SessionStore()
        return view(request).status_code

    codes = [attempt("organizer") for _ in range(ratelimit.LOGIN_ATTEMPTS)]
    assert 429 not in codes
    assert attempt("organizer") == 429
    assert attempt("someone-else") != 429  # same NAT address, another username
    assert attempt("organizer", address="10.0.0.2") != 429


@time_machine.travel(MID_WINDOW, tick=False)
def test_confirmation_code_rate_limited_per_table(db):
    request = RequestFactory().post("/", REMOTE_ADDR="10.1.1.1")
    for _ in range(ratelimit.CONFIRM_ATTEMPTS):
        ratelimit.check_confirmation_attempt(request, 7)
    with pytest.raises(ratelimit.RateLimited):
        ratelimit.check_confirmation_attempt(request, 7)
    ratelimit.check_confirmation_attempt(request, 8)  # another table: its own budget


def test_500_spectators_behind_one_address_get_the_leaderboard(round_):
    client = Client(REMOTE_ADDR="192.0.2.1")
    codes = {client.get("/api/v1/tournaments/hostile/standings").status_code for _ in range(500)}
    assert codes <= {200, 304}


def test_check_deploy_with_production_settings_has_no_security_warnings():
    # The browser tests' DJANGO_ALLOW_ASYNC_UNSAFE must not leak into a deployment check.
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {**inherited, "DJANGO_SETTINGS_MODULE": "config.production",
           "SECRET_KEY": "x" * 20 + "-rehearsal-deploy-check-" + "y" * 30,
           "ALLOWED_HOSTS": "meisterschaft.example.org"}
    out = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=False)
    text = out.stdout + out.stderr
    assert "security." not in text, text
    assert out.returncode == 0, text


@pytest.mark.django_db(transaction=True)
def test_the_rehearsals_privacy_probes_pass_against_a_live_server(live_server):
    """Issue 26's items 1–3 as the dress rehearsal's hostile step runs them (over HTTP): a
    banker's private reason, a non-ASCII name in the audit log, the held results' chart."""
    from rehearsal import hostile

    found = hostile.probe_privacy(live_server.url)
    assert [probe.name for probe in found.probes] == [
        "the public record carries no banker's private reason",
        "held results: the player's page shows no net worth or chart",
        "erasure removes a non-ASCII name in every form from the audit log",
    ]
    assert [(probe.name, probe.detail) for probe in found.probes if not probe.ok] == []
    assert not Tournament.objects.filter(slug__startswith="privacy-").exists()
