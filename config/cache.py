"""The Redis cache, made to degrade instead of fail while Redis is unreachable.

Everything we cache can be rebuilt from the database (public answers, generation counters,
rate-limit counts), so a Redis restart must cost speed, not answers: a read is a miss, a write
is dropped, and spectators and bankers keep getting pages from the database. The periodic
standings refresh repairs invalidations lost meanwhile (``scoring.cache.sync_version``).
``/healthz`` still reports the cache as down: it calls :meth:`ResilientRedisCache.probe`.
"""

from __future__ import annotations

import functools
import logging
import time
import uuid

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("config.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
_last_warning = 0.0


def _warn(operation: str, error: Exception) -> None:
    """One line per 10 s at most: an outage must not flood the log of every worker."""
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= 10:
        _last_warning = now
        logger.warning("cache unreachable (%s: %s); serving from the database", operation, error)


def _degrading(fallback):
    """Wrap a cache operation so that an unreachable Redis answers ``fallback(*args)``."""

    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except UNREACHABLE as error:
                _warn(method.__name__, error)
                return fallback(*args, **kwargs)

        return wrapper

    return decorate


def _default(key, default=None, *args, **kwargs):
    return default


def _missing(key, *args, **kwargs):
    # What Django's incr/decr raise for a missing key: callers already handle it.
    raise ValueError(f"Key '{key}' not found (cache unreachable)")


class ReusedClientRedisCacheClient(RedisCacheClient):
    """One ``redis.Redis`` per connection pool instead of one per cache call.

    Django builds a new client for every operation, and redis-py's constructor fills a table
    of ~160 response callbacks each time: 0.16 ms, half the CPU of a spectator's version poll
    (three cache reads) and of a console's follow poll (issue 29). A client holds no
    connection of its own (it borrows one from the pool per command) and is safe to share
    between threads, so one per pool is enough."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:  # a race builds two; either serves
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(self._servers[index],
                                                               **self._pool_options)
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

    get = _degrading(_default)(RedisCache.get)
    set = _degrading(lambda *a, **k: None)(RedisCache.set)
    add = _degrading(lambda *a, **k: False)(RedisCache.add)
    touch = _degrading(lambda *a, **k: False)(RedisCache.touch)
    delete = _degrading(lambda *a, **k: False)(RedisCache.delete)
    has_key = _degrading(lambda *a, **k: False)(RedisCache.has_key)
    get_many = _degrading(lambda *a, **k: {})(RedisCache.get_many)
    set_many = _degrading(lambda keys, *a, **k: list(keys))(RedisCache.set_many)
    delete_many = _degrading(lambda *a, **k: None)(RedisCache.delete_many)
    incr = _degrading(_missing)(RedisCache.incr)
    decr = _degrading(_missing)(RedisCache.decr)
    # get_or_set is Django's: built on get and add above, it answers the default.

    @_degrading(lambda *a, **k: False)
    def clear(self) -> bool:
        """Delete this cache's keys only (its KEY_PREFIX), never FLUSHDB: the Redis database
        is shared with Celery's broker (queued tasks) and with other caches and test runs."""
        client = self._cache.get_client(write=True)
        # Django's keys are "<KEY_PREFIX>:<version>:<key>": every version of this prefix.
        pattern = "".join(f"[{c}]" if c in "*?[]\\" else c for c in self.key_prefix) + ":*"
        keys = list(client.scan_iter(match=pattern, count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start:start + 500])
        return True

    def probe(self) -> str:
        """Write and read back, failing loudly: the health check must see an outage."""
        # A key of its own: concurrent probes must not read back each other's delete.
        key = self.make_and_validate_key(f"healthz:{uuid.uuid4().hex}")
        client = self._cache.get_client(key, write=True)
        client.set(key, b"1", ex=5)
        if client.get(key) != b"1":
            raise RuntimeError("value written was not read back")
        client.delete(key)
        return type(self).__name__


def delete_prefixed(prefix: str, *, keep: tuple[str, ...] = ()) -> int:
    """Delete every key of the default cache that starts with ``prefix`` (except those ending
    with one of ``keep``): the copies of a name an erasure must not leave behind.

    Redis is scanned and the in-process cache walked; a backend that cannot list its keys (the
    laptop's files) is emptied: everything in it is rebuilt from the database.
    """
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    backend = caches["default"]
    ends = keep or ("\0",)
    if isinstance(backend, RedisCache):
        try:
            client = backend._cache.get_client(write=True)
            full = backend.make_key(prefix)
            pattern = "".join(f"[{c}]" if c in "*?[]\\" else c for c in full) + "*"
            doomed = [key for key in client.scan_iter(match=pattern, count=1000)
                      if not key.decode(errors="replace").endswith(ends)]
            for start in range(0, len(doomed), 500):
                client.delete(*doomed[start:start + 500])
            return len(doomed)
        except UNREACHABLE as error:  # nothing is served from it while it is down
            _warn("delete_prefixed", error)
            return 0
    if isinstance(backend, LocMemCache):
        full = backend.make_key(prefix)
        with backend._lock:
            doomed = [key for key in backend._cache
                      if key.startswith(full) and not key.endswith(ends)]
            for key in doomed:
                backend._delete(key)
        return len(doomed)
    backend.clear()
    return -1
