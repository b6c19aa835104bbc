"""A small cache-based rate limiter against guessing: login and the banker-code confirmation.

Attempts are counted per (client address, target) — the username for the login, the table
for the confirmation code — in a sliding window in the shared cache. Not by address alone: a
hall's NAT puts 500 spectators behind one address, and they must still get the leaderboard
(read-only pages are never limited here). User names are keyed as authentication reads them
(NFKC, casefolded: :func:`config.clients.normalized_username`), addresses from the trusted
proxies (:func:`config.clients.client_address`). The confirmation code has a hard cap per table
as well, kept with the game (``referee.results.confirm_result``).

**The login counts failures only** (a successful login, or an attempt answered 429, gives its
count back), and it must slow a stranger down without locking the owner out — user names are
easy to learn (a player's page names the banker), and a limit per account alone let anyone
lock any account for good with a few guesses a minute. We chose a *known-device cookie*
(OWASP's "device cookies") over a short back-off: a back-off that a stranger keeps renewing
still keeps the owner waiting, at every attempt, for as long as the stranger likes; a device
cookie takes the owner out of the stranger's reach altogether. So:

* A successful login leaves a signed cookie (``KNOWN_DEVICE_COOKIE``, ``KNOWN_DEVICE_DAYS``)
  naming the accounts that logged in on this device. From that device the account's password
  is tried against its own limit only — ``DEVICE_LOGIN_ATTEMPTS`` failures per (device,
  account) — whatever strangers do elsewhere, even behind the same address.
* Any other client gets ``LOGIN_ATTEMPTS`` failures per (address, account) and, from all
  unknown devices together, ``ACCOUNT_LOGIN_ATTEMPTS`` per account: a stranger who rotates
  addresses still gets only so many guesses at one password. A new phone of the owner shares
  that limit with the stranger; once it has logged in it no longer does.

Wiring (config/urls.py)::

    from config.ratelimit import RateLimitedLoginView
    path("login/", RateLimitedLoginView.as_view(), name="login"),

The console calls ``check_confirmation_attempt(request, table_id)`` before checking a code;
it raises :class:`RateLimited` (HTTP 429 through the domain-error middleware/handler).
"""

from __future__ import annotations

import hashlib
import secrets
import time

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from config.clients import client_address, normalized_username
from config.errors import RateLimited

__all__ = ["RateLimited", "RateLimitedLoginView", "check_confirmation_attempt",
           "check_signup_attempt", "client_address", "hit"]

LOGIN_ATTEMPTS = 10  # failures per (address, username) per window
ACCOUNT_LOGIN_ATTEMPTS = 30  # failures per username per window, from all unknown devices
DEVICE_LOGIN_ATTEMPTS = 10  # failures per (known device, username) per window
KNOWN_DEVICE_COOKIE = "known_device"
KNOWN_DEVICE_DAYS = 180
KNOWN_DEVICE_ACCOUNTS = 8  # a shared phone at the desk: the last few accounts
_DEVICE_SALT = "config.ratelimit.known-device"
CONFIRM_ATTEMPTS = 5  # per (address, table) per window: 4 digits = 10,000 codes
SIGNUP_ATTEMPTS = 5  # sign-up posts per (address, tournament) per window (a family behind one)
WINDOW_SECONDS = 300

TOO_MANY = _("Too many attempts. Wait a few minutes, then try again.")


def _key(scope: str, address: str, target: str, window: int) -> str:
    digest = hashlib.sha256(f"{address}|{target}".encode()).hexdigest()[:32]
    return f"ratelimit:{scope}:{window}:{digest}"


def hit(scope: str, address: str, target: str, *, limit: int) -> bool:
    """Count one attempt; True while within the limit. A cache outage never locks people out."""
    return _take(scope, address, target, limit=limit)[0]


def _take(scope: str, address: str, target: str, *, limit: int) -> tuple[bool, str | None]:
    """Count one attempt: (within the limit, the key counted under — for :func:`_give_back`).

    A sliding window, estimated from two fixed ones: the previous window's count weighs as
    much as it still overlaps the last ``WINDOW_SECONDS``. Fixed windows alone let a burst
    that straddles a boundary through with twice the limit. Counted before the password is
    checked (and given back after), so parallel guesses cannot all pass one look."""
    now = time.time()
    window, into = divmod(now, WINDOW_SECONDS)
    key = _key(scope, address, target, int(window))
    try:
        fresh = cache.add(key, 1, timeout=2 * WINDOW_SECONDS + 5)
        current = 1 if fresh else cache.incr(key)
        previous = cache.get(_key(scope, address, target, int(window) - 1)) or 0
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=2 * WINDOW_SECONDS + 5)
        return True, key
    except Exception:  # noqa: BLE001 - Redis down: fail open (the hall must keep working)
        return True, None
    return current + int(previous) * (1 - into / WINDOW_SECONDS) <= limit, key


def _give_back(key: str | None) -> None:
    """Uncount an attempt that turned out not to be a failed guess."""
    if key is None:
        return
    try:
        if (cache.get(key) or 0) > 0:
            cache.decr(key)
    except Exception:  # noqa: BLE001, S110 - expired or Redis down: nothing left to give back
        pass


def _known_devices(request: HttpRequest) -> dict:
    raw = request.COOKIES.get(KNOWN_DEVICE_COOKIE)
    if not raw:
        return {}
    try:
        value = signing.loads(raw, salt=_DEVICE_SALT, max_age=KNOWN_DEVICE_DAYS * 86400)
    except signing.BadSignature:
        return {}
    if not isinstance(value, dict) or not isinstance(value.get("d"), str) or not isinstance(
            value.get("u"), list):
        return {}
    return value


def known_device(request: HttpRequest, username: str) -> str | None:
    """This device's id when ``username`` (normalized) has logged in on it, else None."""
    value = _known_devices(request)
    return value["d"] if username and username in value.get("u", []) else None


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Mark this device as one ``username`` (normalized) logged in on."""
    value = _known_devices(request)
    device = value.get("d") or secrets.token_urlsafe(16)
    accounts = [name for name in value.get("u", []) if name != username]
    accounts = [*accounts, username][-KNOWN_DEVICE_ACCOUNTS:]
    response.set_cookie(
        KNOWN_DEVICE_COOKIE, signing.dumps({"d": device, "u": accounts}, salt=_DEVICE_SALT),
        max_age=KNOWN_DEVICE_DAYS * 86400, httponly=True, samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def check_confirmation_attempt(request: HttpRequest, table_id: int) -> None:
    """Call before checking a confirmation code; raises RateLimited after too many tries."""
    if not hit("confirm", client_address(request), f"table:{table_id}", limit=CONFIRM_ATTEMPTS):
        raise RateLimited(TOO_MANY)


def check_signup_attempt(request: HttpRequest, tournament_id: int) -> None:
    """Call before a public sign-up is taken; raises RateLimited after too many from one
    address (every sign-up sends an e-mail: the limit keeps the site from becoming a spammer's
    relay)."""
    if not hit("signup", client_address(request), f"tournament:{tournament_id}",
               limit=SIGNUP_ATTEMPTS):
        raise RateLimited(TOO_MANY)


class RateLimitedLoginView(auth_views.LoginView):
    """Django's LoginView; a POST beyond the failures allowed for this device or address and
    account gets 429 (see the module's docstring)."""

    _account: str | None = None

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        username = normalized_username(request.POST.get("username", ""))
        target = f"user:{username}"
        device = known_device(request, username)
        if device is not None:
            taken = [_take("login-device", device, target, limit=DEVICE_LOGIN_ATTEMPTS)]
        else:
            taken = [_take("login", client_address(request), target, limit=LOGIN_ATTEMPTS),
                     _take("login-account", "*", target, limit=ACCOUNT_LOGIN_ATTEMPTS)]
        if not all(within for within, _ in taken):
            for _, key in taken:  # refused unchecked: no guess was made
                _give_back(key)
            response = HttpResponse(str(TOO_MANY), status=429, content_type="text/plain")
            response["Retry-After"] = str(WINDOW_SECONDS)
            return response
        self._account = None
        response = super().post(request, *args, **kwargs)
        if self._account is not None:  # the right password: no failure to count
            for _, key in taken:
                _give_back(key)
            remember_device(request, response, normalized_username(self._account))
        return response

    def form_valid(self, form):
        self._account = form.get_user().get_username()
        return super().form_valid(form)
