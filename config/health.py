"""Health checks for /healthz: database, cache and the Celery broker, each with a short timeout."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.db import connection


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    ms: float


def _timed(name: str, probe) -> Check:
    started = time.perf_counter()
    try:
        detail = probe()
        ok = True
    except Exception as exc:  # noqa: BLE001 - any failure means "down", with its reason
        detail = f"{type(exc).__name__}: {exc}"[:200]
        ok = False
    return Check(name, ok, detail, round((time.perf_counter() - started) * 1000, 1))


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _cache() -> str:
    key = f"healthz:{uuid.uuid4().hex}"
    cache = caches["default"]
    if hasattr(cache, "probe"):  # the resilient Redis cache hides outages from callers
        return cache.probe()
    cache.set(key, "1", timeout=5)
    value = cache.get(key)
    cache.delete(key)
    if value != "1":
        raise RuntimeError("value written was not read back")
    return cache.__class__.__name__


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager (tasks run in-process)"
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://")):
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        try:
            client.ping()
        finally:
            client.close()
        return "redis"
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=1)
    return conn.transport_cls


def run_checks() -> list[Check]:
    """Database, cache, broker, and what the set-up adds (``HEALTH_EXTRA_CHECKS``: dotted paths
    of functions named after their check, e.g. the laptop's ``backup``)."""
    from django.utils.module_loading import import_string

    checks = [_timed("database", _database), _timed("cache", _cache), _timed("broker", _broker)]
    for path in getattr(settings, "HEALTH_EXTRA_CHECKS", ()):
        probe = import_string(path)
        checks.append(_timed(probe.__name__, probe))
    return checks
