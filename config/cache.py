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

from django.core.cache.backends.redis import RedisCache
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


class ResilientRedisCache(RedisCache):
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
    clear = _degrading(lambda *a, **k: False)(RedisCache.clear)
    # get_or_set is Django's: built on get and add above, it answers the default.

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
