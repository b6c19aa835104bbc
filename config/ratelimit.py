"""A small cache-based rate limiter against guessing: login and the banker-code confirmation.

Attempts are counted per (client address, target) — the username for the login, the table
for the confirmation code — in a sliding window in the shared cache. Not by address alone: a
hall's NAT puts 500 spectators behind one address, and they must still get the leaderboard
(read-only pages are never limited here). The login is limited per account too, whatever the
address (``ACCOUNT_LOGIN_ATTEMPTS``): a client that rotates addresses still gets only so many
guesses at one password. User names are keyed as authentication reads them (NFKC, casefolded:
:func:`config.clients.normalized_username`), addresses from the trusted proxies
(:func:`config.clients.client_address`). The confirmation code has a hard cap per table as
well, kept with the game (``referee.services.confirm_result``).

Wiring (config/urls.py)::

    from config.ratelimit import RateLimitedLoginView
    path("login/", RateLimitedLoginView.as_view(), name="login"),

The console calls ``check_confirmation_attempt(request, table_id)`` before checking a code;
it raises :class:`RateLimited` (HTTP 429 through the domain-error middleware/handler).
"""

from __future__ import annotations

import hashlib
import time

from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from config.clients import client_address, normalized_username
from config.errors import DomainError

__all__ = ["RateLimited", "RateLimitedLoginView", "check_confirmation_attempt", "client_address",
           "hit"]

LOGIN_ATTEMPTS = 10  # per (address, username) per window
ACCOUNT_LOGIN_ATTEMPTS = 30  # per username per window, from any number of addresses
CONFIRM_ATTEMPTS = 5  # per (address, table) per window: 4 digits = 10,000 codes
WINDOW_SECONDS = 300

TOO_MANY = _("Too many attempts. Wait a few minutes, then try again.")


class RateLimited(DomainError, code="rate_limited"):
    http_status = 429


def _key(scope: str, address: str, target: str, window: int) -> str:
    digest = hashlib.sha256(f"{address}|{target}".encode()).hexdigest()[:32]
    return f"ratelimit:{scope}:{window}:{digest}"


def hit(scope: str, address: str, target: str, *, limit: int) -> bool:
    """Count one attempt; True while within the limit. A cache outage never locks people out.

    A sliding window, estimated from two fixed ones: the previous window's count weighs as
    much as it still overlaps the last ``WINDOW_SECONDS``. Fixed windows alone let a burst
    that straddles a boundary through with twice the limit."""
    now = time.time()
    window, into = divmod(now, WINDOW_SECONDS)
    key = _key(scope, address, target, int(window))
    try:
        fresh = cache.add(key, 1, timeout=2 * WINDOW_SECONDS + 5)
        current = 1 if fresh else cache.incr(key)
        previous = cache.get(_key(scope, address, target, int(window) - 1)) or 0
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=2 * WINDOW_SECONDS + 5)
        return True
    except Exception:  # noqa: BLE001 - Redis down: fail open (the hall must keep working)
        return True
    return current + int(previous) * (1 - into / WINDOW_SECONDS) <= limit


def check_confirmation_attempt(request: HttpRequest, table_id: int) -> None:
    """Call before checking a confirmation code; raises RateLimited after too many tries."""
    if not hit("confirm", client_address(request), f"table:{table_id}", limit=CONFIRM_ATTEMPTS):
        raise RateLimited(TOO_MANY)


class RateLimitedLoginView(auth_views.LoginView):
    """Django's LoginView; POSTs beyond the limit for (address, username) or for the username
    from any address get 429."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        username = normalized_username(request.POST.get("username", ""))
        per_address = hit("login", client_address(request), f"user:{username}",
                          limit=LOGIN_ATTEMPTS)
        per_account = hit("login-account", "*", f"user:{username}", limit=ACCOUNT_LOGIN_ATTEMPTS)
        if not (per_address and per_account):
            response = HttpResponse(str(TOO_MANY), status=429, content_type="text/plain")
            response["Retry-After"] = str(WINDOW_SECONDS)
            return response
        return super().post(request, *args, **kwargs)
