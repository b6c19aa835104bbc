"""What the answers before the session (``referee.follow``, ``public.early``) share: which
view a GET is for, checked as cheaply as the full chain would (the path's end first, then
``ALLOWED_HOSTS`` and the URL conf), so that an early answer never serves a request the full
chain would refuse for its host."""

from __future__ import annotations

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.urls import Resolver404, ResolverMatch, resolve


def early_match(request: HttpRequest) -> ResolverMatch | None:
    """The URL match of a GET whose host the full chain would accept, else None."""
    if request.method != "GET":
        return None
    try:
        request.get_host()  # ALLOWED_HOSTS, as for every other answer
        return resolve(request.path_info)
    except (DisallowedHost, Resolver404):
        return None


def early_get(request: HttpRequest, *, ends_with: str, view_name: str) -> ResolverMatch | None:
    """The URL match of a GET of ``view_name`` (path ending in ``ends_with``), else None."""
    if request.method != "GET" or not request.path_info.endswith(ends_with):
        return None
    match = early_match(request)
    return match if match is not None and match.view_name == view_name else None
