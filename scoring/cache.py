"""Cached public answers (standings JSON, pages) keyed by tournament; invalidated on change.

Spectators share one address behind the venue's NAT, so reads are made cheap instead of
limited: a cached body and its ETag, so most polls end in a 304 without touching the database.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence

from django.core.cache import cache

from config.cache import delete_prefixed
from config.compression import Encoded, encode
from config.kept import Kept

TIMEOUT = 60  # a safety net: invalidation is what keeps answers fresh

# Single flight: after a change, one thread (of any worker) rebuilds a missing body while the
# others wait for it, instead of all of them building the same 50-70 ms fragment at once.
BUILD_LOCK_SECONDS = 5  # a builder that died frees the key after this
BUILD_WAIT_SECONDS = 2.0  # then a waiter builds it itself: slow, never empty
BUILD_POLL_SECONDS = 0.03


def key(slug: str, name: str) -> str:
    return f"scoring:{slug}:{name}"


STANDINGS = "standings"  # changes when results or public names change
TABLES = "tables"  # changes with every event at any table
#: Changes when a card of the tables' overview changes (a game's glance, a result, a round, a
#: name: every change of TABLES but an event that left its game's glance as it was,
#: ``referee.glance``). What the live pages' version document follows: 167 playing tables post
#: eight events a second, and most of them change no card.
CARDS = "cards"
PLAYERS = "players"  # changes when a player's name, club or consent changes


def generation(slug: str, name: str) -> int:
    """Bumped on every invalidation of ``name``; part of its cached key. Only read here: any
    slug someone types into an address must not leave a key behind that never expires."""
    return cache.get(key(slug, f"{name}:generation")) or 1


def generations(slug: str, depends_on: Sequence[str]) -> str:
    """The generations of ``depends_on`` as one token ("3-17"): what a cached key carries.
    One round trip to the cache, however many they are (every cached answer asks this)."""
    keys = [key(slug, f"{name}:generation") for name in depends_on]
    found = cache.get_many(keys)
    return "-".join(str(found.get(full) or 1) for full in keys)


def invalidate(slug: str, *names: str, cards: bool = True) -> None:
    """New generations of ``names`` (default: the standings and the tables); with TABLES, the
    cards' too unless ``cards`` is False (an event that changed no card)."""
    names = names or (STANDINGS, TABLES)
    if TABLES in names and cards and CARDS not in names:
        names = (*names, CARDS)
    for name in names:
        try:
            cache.incr(key(slug, f"{name}:generation"))
        except ValueError:
            cache.set(key(slug, f"{name}:generation"), 2, timeout=None)


def etag_of(body: bytes) -> str:
    return '"' + hashlib.sha1(body).hexdigest()[:20] + '"'  # noqa: S324 - not security


def cached_body(
    slug: str, name: str, depends_on: Sequence[str], build: Callable[[], bytes], *,
    timeout: int = TIMEOUT,
) -> Encoded:
    """The cached body ``name``, its ETag and its compressed variants, built (and compressed)
    once when missing. Its key carries the generation of everything it shows
    (``depends_on``), so an invalidation makes it new."""
    return cached_encoded(key(slug, f"{name}:{generations(slug, depends_on)}"), build,
                          timeout=timeout)


#: The bodies this process read or built in the last second, by their full key. A hall's
#: phones and screens ask for the same body hundreds of times a second, and each read of the
#: shared cache is a file read (or a Redis round trip) and the unpickling of every variant — a
#: third of a standings answer's CPU (issue 29). A key names the generations of what the body
#: shows, so a change is a new key at once; the second bounds a generation lost with the cache
#: and counted again from 1, whose keys name older bodies (a second less than the answers'
#: ``max-age=2``: kept here, then in the browser).
recent: Kept[Encoded] = Kept(size=64, seconds=1.0)


def cached_encoded(full_key: str, build: Callable[[], bytes], *, timeout: int = TIMEOUT,
                   ) -> Encoded:
    """The body under ``full_key`` with its ETag and compressed variants; built when missing,
    by one caller at a time (the others wait for its body). A key that names a content
    version (a table's event count) may live long. Read again from this process's
    ``recent`` bodies for a second."""
    return recent.get(key=full_key, make=lambda: _shared(full_key, build, timeout=timeout))


def _shared(full_key: str, build: Callable[[], bytes], *, timeout: int) -> Encoded:
    hit = cache.get(full_key)
    if isinstance(hit, Encoded):
        return hit
    lock = f"{full_key}:building"
    if cache.add(lock, 1, timeout=BUILD_LOCK_SECONDS):
        try:
            return _build(full_key, build, timeout=timeout)
        finally:
            cache.delete(lock)
    waited = _wait_for_builder(full_key, lock)
    return waited if waited is not None else _build(full_key, build, timeout=timeout)


def _build(full_key: str, build: Callable[[], bytes], *, timeout: int) -> Encoded:
    body = build()
    encoded = encode(body, etag_of(body))
    cache.set(full_key, encoded, timeout=timeout)
    return encoded


def _wait_for_builder(full_key: str, lock: str) -> Encoded | None:
    """The body another caller is building; None when it is not there in time, or nobody
    holds the lock (it was just released, or the cache is unreachable: ``add`` says False
    then too, and waiting would only delay every answer)."""
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    while True:
        found = cache.get_many([full_key, lock])
        hit = found.get(full_key)
        if isinstance(hit, Encoded):
            return hit
        if lock not in found or time.monotonic() >= deadline:
            return None
        _pause(BUILD_POLL_SECONDS)


def _pause(seconds: float) -> None:
    time.sleep(seconds)


def cached_value(slug: str, name: str, depends_on: Sequence[str], build: Callable[[], object],
                 *, timeout: int = TIMEOUT) -> object:
    """A small value (not a body) cached under the generations it depends on."""
    full = key(slug, f"{name}:{generations(slug, depends_on)}")
    hit = cache.get(full)
    if hit is None:
        hit = build()
        cache.set(full, hit, timeout=timeout)
    return hit


def sync_version(slug: str, version: int) -> bool:
    """Invalidate when the cache does not know the stored standings' version (an
    invalidation lost while Redis was down or restarting); True when it invalidated."""
    marker = key(slug, "standings:version")
    if cache.get(marker) == version:
        return False
    invalidate(slug)
    cache.set(marker, version, timeout=None)
    return True


def forget(slug: str) -> None:
    """Drop every cached body of the tournament (an erasure: an old name must not wait in the
    cache for its key to expire); the generations move on, so no key is ever reused."""
    names = (STANDINGS, TABLES, CARDS, PLAYERS)
    found = {name: generation(slug, name) for name in names}
    delete_prefixed(key(slug, ""), keep=(":generation", ":version"))
    for name, number in found.items():
        cache.set(key(slug, f"{name}:generation"), number + 1, timeout=None)
