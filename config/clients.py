"""Who is asking: the client's address behind a known number of trusted proxies, and a user
name as the login will read it.

Every place that keys on an address (the rate limits, the audit log) asks
:func:`client_address`. ``TRUSTED_PROXY_COUNT`` says how many proxies of ours stand in front
of the application (0: none, the address is ``REMOTE_ADDR``). Each proxy appends the address it
saw to ``X-Forwarded-For``, so the client is the entry that many places from the right; what is
left of it was written by the client itself and proves nothing (taking the leftmost entry let a
client rotate its address past every limit).
"""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.http import HttpRequest


def trusted_proxy_count() -> int:
    count = getattr(settings, "TRUSTED_PROXY_COUNT", None)
    if count is None:  # the older switch: one proxy
        count = 1 if getattr(settings, "TRUST_X_FORWARDED_FOR", False) else 0
    return max(0, int(count))


def client_address(request: HttpRequest) -> str:
    """The client's address as the nearest of our trusted proxies saw it."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    count = trusted_proxy_count()
    if not count:
        return remote
    hops = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    if len(hops) < count:
        return remote  # not through all our proxies: what REMOTE_ADDR says is all we know
    return _without_port(hops[-count])[:64] or remote


def _without_port(address: str) -> str:
    if address.startswith("["):  # [v6]:port
        return address[1:].split("]")[0]
    if address.count(":") == 1:  # v4:port
        return address.split(":")[0]
    return address


def normalized_username(username: str) -> str:
    """The name as authentication compares it (Django's login form applies NFKC), folded
    further for keys: fullwidth or differently cased look-alikes of one account share its
    limit."""
    return unicodedata.normalize("NFKC", username or "").casefold().strip()[:150]
