"""Redis away: the cache degrades to misses, pages and the standings API are served from the
database, and nothing raises. A closed port stands in for the outage (a real Redis that
refuses connections); the rehearsal's Redis fault test restarts a real one mid-round."""

from __future__ import annotations

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings
from factories import TournamentFactory

from scoring import cache as standings_cache

CLOSED = {
    "default": {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@pytest.fixture
def away():
    with override_settings(CACHES=CLOSED):
        caches["default"].close()
        yield caches["default"]


def test_every_operation_degrades_to_a_miss(away):
    assert away.get("k") is None
    assert away.get("k", "fallback") == "fallback"
    assert away.set("k", 1) is None
    assert away.add("k", 1) is False
    assert away.get_or_set("k", 7) == 7
    assert away.get_or_set("k", lambda: 8) == 8
    assert away.get_many(["a", "b"]) == {}
    assert away.delete("k") is False
    assert away.has_key("k") is False
    with pytest.raises(ValueError):  # what Django raises for a missing key; callers handle it
        away.incr("k")


def test_the_probe_still_fails_loudly(away):
    with pytest.raises(redis.exceptions.ConnectionError):
        away.probe()


def test_invalidation_during_an_outage_does_not_raise(away):
    standings_cache.invalidate("ka")
    assert standings_cache.generation("ka", standings_cache.STANDINGS) == 1


@pytest.mark.django_db
def test_public_pages_and_api_answer_from_the_database(client, away):
    TournamentFactory(slug="ka", status="running")
    for path in ("/t/ka/", "/t/ka/tables/", "/t/ka/live/standings",
                 "/api/v1/tournaments/ka/standings"):
        assert client.get(path).status_code == 200, path


@pytest.mark.redis
def test_a_real_redis_round_trips(settings):
    import os

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    real = {"default": {**CLOSED["default"], "LOCATION": url, "KEY_PREFIX": "test-outage"}}
    with override_settings(CACHES=real):
        cache = caches["default"]
        cache.set("k", 41)
        assert cache.incr("k") == 42
        assert cache.probe() == "ResilientRedisCache"
        cache.delete("k")


@pytest.mark.redis
def test_concurrent_probes_do_not_trip_each_other():
    """Found by make bench: a hall of /healthz requests at once must all see the cache up."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    from config.cache import ResilientRedisCache

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    cache = ResilientRedisCache(url, {"KEY_PREFIX": "test-probe"})
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda _: cache.probe(), range(400)))
    assert answers == ["ResilientRedisCache"] * 400


@pytest.mark.redis
def test_clearing_the_cache_leaves_the_rest_of_redis_alone():
    """Found in CI: a restore (``scripts/restore.sh``, ``laptop restore``, every ``serve``
    start) cleared the cache with FLUSHDB, which also emptied Celery's queued tasks and every
    other cache in that Redis database (a concurrent test's rate-limit counts)."""
    import os
    import uuid

    from config.cache import ResilientRedisCache

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    mine = ResilientRedisCache(url, {"KEY_PREFIX": f"test-clear-{uuid.uuid4().hex[:8]}"})
    other = ResilientRedisCache(url, {"KEY_PREFIX": f"test-other-{uuid.uuid4().hex[:8]}"})
    broker_key = f"test-queue-{uuid.uuid4().hex[:8]}"
    client = mine._cache.get_client(write=True)
    try:
        mine.set("page", "stale", version=1)
        mine.set("page", "stale too", version=7)
        other.set("count", 3)
        client.rpush(broker_key, b"a queued task")
        assert mine.clear() is True
        assert mine.get("page", version=1) is None and mine.get("page", version=7) is None
        assert other.get("count") == 3
        assert client.lrange(broker_key, 0, -1) == [b"a queued task"]
    finally:
        client.delete(broker_key)
        other.delete("count")


@pytest.mark.redis
def test_one_redis_client_serves_every_call_and_every_thread():
    """Found profiling a hall's polls (issue 29): Django built a new ``redis.Redis`` for every
    cache call, and its constructor alone was a third of a version poll's CPU."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    from config.cache import ResilientRedisCache

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    cache = ResilientRedisCache(url, {"KEY_PREFIX": f"test-clients-{os.getpid()}"})
    built = []
    original = redis.Redis.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    redis.Redis.__init__ = counting
    try:
        def round_trip(n: int) -> int:
            cache.set(f"k{n}", n)
            cache.get_many([f"k{n}", "absent"])
            return cache.get(f"k{n}")

        with ThreadPoolExecutor(max_workers=8) as pool:
            assert list(pool.map(round_trip, range(200))) == list(range(200))
    finally:
        redis.Redis.__init__ = original
        cache.delete_many([f"k{n}" for n in range(200)])
    assert len(built) == 1
    assert cache._cache.get_client(write=True) is cache._cache.get_client()
