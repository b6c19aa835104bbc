"""Issue 15, guessing and address rotation: user names are keyed as authentication reads them,
every account has a limit whatever the address, the client's address comes from the trusted
proxies only (also in the audit log), and a table's confirmation code is capped in the database
— from any number of addresses."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.contrib.sessions.backends.cache import SessionStore
from django.test import Client, RequestFactory
from factories import UserFactory, seated_table
from gameplay import play

from config import ratelimit
from config.clients import client_address, normalized_username
from referee import errors, results
from referee.models import Game, GameResult
from referee.results import revision_of

MID_WINDOW = dt.datetime(2026, 11, 28, 10, 2, 30, tzinfo=dt.UTC)


def _login(username: str, address: str = "10.0.0.1", forwarded: str = "") -> int:
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().post("/login/", {"username": username, "password": "wrong"},
                                    REMOTE_ADDR=address, **extra)
    request._dont_enforce_csrf_checks = True
    request.session = SessionStore()
    return ratelimit.RateLimitedLoginView.as_view()(request).status_code


# --------------------------------------------------------------------------- 6. user names


def test_look_alike_names_share_the_accounts_key():
    assert normalized_username("ｏｒｇａｎｉｚｅｒ") == "organizer"  # fullwidth
    assert normalized_username("ORGANIZER ") == "organizer"
    assert normalized_username("Straße") == normalized_username("STRASSE")


@time_machine.travel(MID_WINDOW, tick=False)
def test_fullwidth_user_name_does_not_escape_the_lockout(db):
    for _ in range(ratelimit.LOGIN_ATTEMPTS):
        assert _login("organizer") != 429
    assert _login("ｏｒｇａｎｉｚｅｒ") == 429
    assert _login("Organizer") == 429


def test_a_burst_across_a_window_boundary_is_still_limited(db):
    """Fixed windows alone would let the 11th guess through one second after a boundary."""
    boundary = dt.datetime(2026, 11, 28, 10, 5, 0, tzinfo=dt.UTC)
    with time_machine.travel(boundary - dt.timedelta(seconds=2), tick=False):
        for _ in range(ratelimit.LOGIN_ATTEMPTS - 3):
            assert _login("organizer") != 429
    with time_machine.travel(boundary + dt.timedelta(seconds=1), tick=False):
        for _ in range(3):
            assert _login("organizer") != 429
        assert _login("organizer") == 429
    # A whole window later the old guesses no longer count.
    with time_machine.travel(boundary + dt.timedelta(seconds=2 * ratelimit.WINDOW_SECONDS + 1),
                             tick=False):
        assert _login("organizer") != 429


@time_machine.travel(MID_WINDOW, tick=False)
def test_an_account_is_limited_whatever_the_address(db):
    for n in range(ratelimit.ACCOUNT_LOGIN_ATTEMPTS):
        assert _login("organizer", address=f"10.9.{n // 250}.{n % 250}") != 429
    assert _login("organizer", address="192.0.2.77") == 429
    assert _login("someone-else", address="192.0.2.77") != 429


# --------------------------------------------------------------------------- 26.4 lockout


def _post_login(client: Client, username: str, password: str, address: str) -> int:
    return client.post("/login/", {"username": username, "password": password},
                       REMOTE_ADDR=address).status_code


def _log_out(client: Client) -> None:
    """The session ends; the device's other cookies stay (the test client's logout drops all)."""
    client.post("/logout/")
    client.cookies.pop("sessionid", None)
    assert ratelimit.KNOWN_DEVICE_COOKIE in client.cookies


@time_machine.travel(MID_WINDOW, tick=False)
def test_successful_logins_do_not_count(db):
    """Issue 26 (4): ten good logins from one address answered 429."""
    UserFactory(username="banker6", password="right-pass-123")
    for _ in range(ratelimit.LOGIN_ATTEMPTS + ratelimit.ACCOUNT_LOGIN_ATTEMPTS):
        assert _post_login(Client(), "banker6", "right-pass-123", "10.0.0.1") == 302


@time_machine.travel(MID_WINDOW, tick=False)
def test_a_strangers_failures_do_not_lock_the_owner_out(db):
    """Issue 26 (4): 32 wrong passwords for banker6 from four addresses (also as BANKER6 and
    fullwidth) locked the real banker out; now the owner's phone, which logged in before,
    still logs in — from a fresh address or behind the stranger's own."""
    UserFactory(username="banker6", password="right-pass-123")
    owner = Client()
    assert _post_login(owner, "banker6", "right-pass-123", "10.0.0.50") == 302
    assert ratelimit.KNOWN_DEVICE_COOKIE in owner.cookies
    _log_out(owner)
    statuses = []
    for n in range(4 * 8 + 8):
        name = ("banker6", "BANKER6", "ｂａｎｋｅｒ６")[n % 3]
        statuses.append(_post_login(Client(), name, "wrong", f"198.51.100.{n % 4}"))
    assert 429 in statuses, "the stranger is still slowed down"
    assert _post_login(Client(), "banker6", "right-pass-123", "203.0.113.9") == 429
    # The owner's phone: a fresh address, then the stranger's own.
    assert _post_login(owner, "banker6", "right-pass-123", "203.0.113.7") == 302
    _log_out(owner)
    assert _post_login(owner, "ＢＡＮＫＥＲ６", "right-pass-123", "198.51.100.0") in (200, 302)
    assert owner.cookies[ratelimit.KNOWN_DEVICE_COOKIE].value


@time_machine.travel(MID_WINDOW, tick=False)
def test_a_known_device_has_its_own_limit_and_only_for_its_accounts(db):
    UserFactory(username="desk", password="right-pass-123")
    UserFactory(username="organizer", password="other-pass-123")
    phone = Client()
    assert _post_login(phone, "desk", "right-pass-123", "10.0.0.5") == 302
    _log_out(phone)
    for _ in range(ratelimit.DEVICE_LOGIN_ATTEMPTS):
        assert _post_login(phone, "desk", "wrong", "10.0.0.5") == 200
    assert _post_login(phone, "desk", "right-pass-123", "10.0.0.6") == 429
    # The cookie names "desk" only: for "organizer" the phone is a stranger.
    for _ in range(ratelimit.LOGIN_ATTEMPTS):
        assert _post_login(phone, "organizer", "wrong", "10.0.0.5") == 200
    assert _post_login(phone, "organizer", "other-pass-123", "10.0.0.5") == 429
    # A forged cookie is no known device.
    forged = Client()
    forged.cookies[ratelimit.KNOWN_DEVICE_COOKIE] = '{"d": "x", "u": ["organizer"]}'
    assert _post_login(forged, "organizer", "other-pass-123", "10.0.0.5") == 429


@time_machine.travel(MID_WINDOW, tick=False)
def test_refused_attempts_do_not_prolong_the_lock(db):
    """~6 requests a minute kept an account locked all day: answered 429, they counted."""
    UserFactory(username="banker6", password="right-pass-123")
    for n in range(ratelimit.ACCOUNT_LOGIN_ATTEMPTS):
        assert _post_login(Client(), "banker6", "wrong", f"10.9.0.{n}") == 200
    for n in range(50):
        assert _post_login(Client(), "banker6", "wrong", f"10.8.0.{n}") == 429
    later = MID_WINDOW + dt.timedelta(seconds=ratelimit.WINDOW_SECONDS)  # half still counts
    with time_machine.travel(later, tick=False):
        assert _post_login(Client(), "banker6", "right-pass-123", "10.7.0.1") == 302


# --------------------------------------------------------------------------- 7. addresses


def _request(remote: str, forwarded: str | None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **extra)


@pytest.mark.parametrize("count, forwarded, expected", [
    (0, "6.6.6.6", "10.0.0.9"),  # no proxy: the header is the client's own words
    (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # the rightmost: what our proxy saw
    (1, "203.0.113.5", "203.0.113.5"),
    (2, "6.6.6.6, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
    (2, "203.0.113.5", "10.0.0.9"),  # fewer hops than proxies: not through ours
    (1, "203.0.113.5:4711", "203.0.113.5"),
    (1, "[2001:db8::1]:4711", "2001:db8::1"),
])
def test_client_address_comes_from_the_trusted_proxies(settings, count, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = count
    assert client_address(_request("10.0.0.9", forwarded)) == expected


@time_machine.travel(MID_WINDOW, tick=False)
def test_rotating_the_forwarded_header_does_not_reset_the_limit(db, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(ratelimit.LOGIN_ATTEMPTS):
        assert _login("desk", address="10.0.0.2", forwarded=f"6.6.6.{n}, 203.0.113.5") != 429
    assert _login("desk", address="10.0.0.2", forwarded="7.7.7.7, 203.0.113.5") == 429


def test_the_audit_log_records_the_trusted_address(settings):
    """django-auditlog's own middleware takes the leftmost entry (the client's own words)."""
    from config.middleware import AuditlogMiddleware

    assert "config.middleware.AuditlogMiddleware" in settings.MIDDLEWARE
    settings.TRUSTED_PROXY_COUNT = 1
    request = _request("10.0.0.2", "6.6.6.6, 203.0.113.5")
    assert AuditlogMiddleware._get_remote_addr(request) == "203.0.113.5"
    # Its column holds IP addresses only: anything else is left out, never a 500.
    assert AuditlogMiddleware._get_remote_addr(_request("10.0.0.2", "not-an-address")) is None
    settings.TRUSTED_PROXY_COUNT = 0
    assert AuditlogMiddleware._get_remote_addr(RequestFactory().get("/", REMOTE_ADDR="")) is None


# --------------------------------------------------------------------------- 8. the code


@pytest.fixture
def counted(db):
    table = seated_table(banker=UserFactory())
    players = [seat.player for seat in table.seats.order_by("position")]
    game = play(table, {p: 1000 + n for n, p in enumerate(players)}, confirm=False)
    return table, game


def test_wrong_codes_are_capped_per_table_then_only_the_head_referee_confirms(counted):
    table, game = counted
    for left in range(Game.WRONG_CODES_MAX - 1, 0, -1):
        with pytest.raises(errors.WrongConfirmationCode) as wrong:
            results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                   code="x", by=None)
        assert f"{left}" in wrong.value.message_in("en")
    with pytest.raises(errors.CodesExhausted):
        results.confirm_result(game_id=game.pk, revision=revision_of(game.pk), code="x", by=None)
    game.refresh_from_db()
    assert game.wrong_codes == Game.WRONG_CODES_MAX
    with pytest.raises(errors.CodesExhausted) as blocked:  # even the right code, now
        results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                               code=game.confirmation_code, by=None)
    assert blocked.value.http_status == 429
    assert "Oberschiedsrichter" in blocked.value.message_in("de")
    assert GameResult.objects.get(game=game).status == "counted"
    results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                           code=None, by=None, head_referee=True)
    assert GameResult.objects.get(game=game).status == "confirmed"


def test_the_console_answers_429_and_says_so_from_any_address(counted):
    table, game = counted
    client = Client()
    client.force_login(table.banker)
    url = f"/banker/table/{table.pk}/confirm/"
    revision = revision_of(game.pk)  # as the console's code form carries it
    for n in range(Game.WRONG_CODES_MAX):  # a new address for every guess
        answer = client.post(url, {"code": f"{n:04d}x", "revision": revision},
                             REMOTE_ADDR=f"198.51.100.{n}")
        assert answer.status_code in (200, 429)
    answer = client.post(url, {"code": game.confirmation_code, "revision": revision},
                         REMOTE_ADDR="198.51.100.200")
    assert answer.status_code == 429
    html = answer.content.decode()
    assert 'data-code="confirmation_codes_exhausted"' in html
    assert 'name="code"' not in html  # the code field is gone; the head referee confirms
    assert GameResult.objects.get(game=game).status == "counted"
