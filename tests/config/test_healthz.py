"""/healthz reports database, cache and broker; 503 names what is down."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]
CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


@pytest.mark.django_db
def test_healthy(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["down"] == []
    assert set(body["checks"]) == {"database", "cache", "broker"}
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.parametrize("backend", ["config.cache.ResilientRedisCache",
                                     "django.core.cache.backends.redis.RedisCache"])
@pytest.mark.django_db
def test_cache_down_is_named(client, backend):
    """Even the cache that hides outages from pages reports them here."""
    caches = {
        "default": {
            "BACKEND": backend,
            "LOCATION": CLOSED_PORT_REDIS,
            "OPTIONS": {"socket_connect_timeout": 0.5},
        }
    }
    with override_settings(CACHES=caches):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["down"] == ["cache"]


@pytest.mark.django_db
def test_broker_down_is_named(client):
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=CLOSED_PORT_REDIS):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["broker"]
    assert body["checks"]["broker"]["ok"] is False


def test_database_down_is_named():
    """A real server that cannot reach its database answers 503 naming it."""
    probe = (
        "import django, json; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/healthz');"
        "print(json.dumps({'status': r.status_code, 'body': r.json()}))"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL="postgres://nobody@127.0.0.1:1/nothing?connect_timeout=1",
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
        check=True, timeout=60,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["status"] == 503
    assert result["body"]["down"] == ["database"]


@pytest.mark.redis
@pytest.mark.django_db
def test_real_redis_is_healthy(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # check the real broker, as production does
    response = client.get("/healthz")
    assert response.status_code == 200
    checks = response.json()["checks"]
    assert checks["cache"]["detail"] == "ResilientRedisCache"
    assert checks["broker"]["detail"] == "redis"
