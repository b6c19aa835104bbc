"""Cached public answers (standings JSON, pages) keyed by tournament; invalidated on change.

Spectators share one address behind the venue's NAT, so reads are made cheap instead of
limited: a cached body and its ETag, so most polls end in a 304 without touching the database.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

TIMEOUT = 60  # a safety net: invalidation is what keeps answers fresh


def key(slug: str, name: str) -> str:
    return f"scoring:{slug}:{name}"


STANDINGS = "standings"  # changes when results or public names change
TABLES = "tables"  # changes with every event at any table


def generation(slug: str, name: str) -> int:
    """Bumped on every invalidation of ``name``; part of its cached key. Only read here: any
    slug someone types into an address must not leave a key behind that never expires."""
    return cache.get(key(slug, f"{name}:generation")) or 1


def invalidate(slug: str, *names: str) -> None:
    for name in names or (STANDINGS, TABLES):
        try:
            cache.incr(key(slug, f"{name}:generation"))
        except ValueError:
            cache.set(key(slug, f"{name}:generation"), 2, timeout=None)


def get_or_build(slug: str, name: str, build) -> tuple[bytes, str]:
    """The cached body for ``name`` and its ETag; ``build()`` returns bytes when missing."""
    full = key(slug, f"{name}:{generation(slug, name)}")
    hit = cache.get(full)
    if hit is not None:
        return hit
    body = build()
    etag = '"' + hashlib.sha1(body).hexdigest()[:20] + '"'  # noqa: S324 - not security
    cache.set(full, (body, etag), timeout=TIMEOUT)
    return body, etag


def sync_version(slug: str, version: int) -> bool:
    """Invalidate when the cache does not know the stored standings' version (an
    invalidation lost while Redis was down or restarting); True when it invalidated."""
    marker = key(slug, "standings:version")
    if cache.get(marker) == version:
        return False
    invalidate(slug)
    cache.set(marker, version, timeout=None)
    return True
