"""Settings come from the environment: embedded default, PostgreSQL, Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import ConfigError, database_config, env_bool

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; from django.conf import settings; django.setup();"
    "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'],"
    " 'name': str(settings.DATABASES['default']['NAME']),"
    " 'host': settings.DATABASES['default'].get('HOST', ''),"
    " 'cache': settings.CACHES['default']['BACKEND'],"
    " 'location': settings.CACHES['default'].get('LOCATION', ''),"
    " 'eager': settings.CELERY_TASK_ALWAYS_EAGER, 'broker': settings.CELERY_BROKER_URL,"
    " 'debug': settings.DEBUG, 'hosts': settings.ALLOWED_HOSTS, 'key': settings.SECRET_KEY}))"
)
KEYS = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CACHE_DIR")


def load_settings(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in KEYS}
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)


def test_embedded_default_is_sqlite_a_shared_file_cache_and_eager_celery():
    loaded = load_settings()
    assert loaded["engine"] == "django.db.backends.sqlite3"
    assert loaded["name"] == str(ROOT / "db.sqlite3")
    # Shared by every process (gunicorn's workers), filed under the database.
    # (its folder listed for the size limit now and then, not on every write: issue 29)
    assert loaded["cache"] == "config.filecache.EmbeddedFileBasedCache"
    assert loaded["location"].startswith(str(ROOT / "var" / "cache-embedded"))
    other = load_settings(DATABASE_URL="postgres://mcs:pw@db.example:5433/champ")
    assert other["location"] != loaded["location"]
    assert loaded["eager"] is True
    assert loaded["debug"] is False


def test_database_url_selects_postgresql():
    loaded = load_settings(DATABASE_URL="postgres://mcs:pw@db.example:5433/champ")
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert loaded["name"] == "champ"
    assert loaded["host"] == "db.example"


def test_redis_url_makes_redis_the_cache_and_the_broker():
    loaded = load_settings(REDIS_URL="redis://127.0.0.1:6379/3")
    assert loaded["cache"].endswith("RedisCache")
    assert loaded["broker"] == "redis://127.0.0.1:6379/3"
    assert loaded["eager"] is False


def test_secret_key_debug_and_hosts_from_environment():
    loaded = load_settings(SECRET_KEY="s3cret", DEBUG="true", ALLOWED_HOSTS="a.example, b.example")
    assert loaded["key"] == "s3cret"
    assert loaded["debug"] is True
    assert loaded["hosts"] == ["a.example", "b.example"]


def test_database_config_parses_credentials_and_options():
    config = database_config(
        "postgresql://u%40x:p%2Fw@127.0.0.1:5432/db?sslmode=require", sqlite_path="x"
    )
    assert config["USER"] == "u@x"
    assert config["PASSWORD"] == "p/w"
    assert config["OPTIONS"] == {"sslmode": "require"}


def test_unknown_database_scheme_is_a_clear_error():
    with pytest.raises(ConfigError, match="mysql"):
        database_config("mysql://x/y", sqlite_path="x")


def test_bad_boolean_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ConfigError, match="DEBUG"):
        env_bool("DEBUG", False)


def test_pool_parameter_enables_a_connection_pool():
    config = database_config("postgres://u@h:5432/db?pool=20", sqlite_path="x")
    assert config["OPTIONS"]["pool"]["max_size"] == 20
    assert config["CONN_MAX_AGE"] == 0
    with pytest.raises(ConfigError, match="pool"):
        database_config("postgres://u@h:5432/db?pool=many", sqlite_path="x")


# --------------------------------------------------------------------------- issue 15


def _production(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in (*KEYS, "DJANGO_ALLOW_ASYNC_UNSAFE")}
    clean.update(DJANGO_SETTINGS_MODULE="config.production", **env)
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT,
                          env=clean, capture_output=True, text=True, check=False)


GOOD_KEY = "k3Y-" + "".join(chr(ord("a") + n % 26) + str(n % 10) for n in range(30))


@pytest.mark.parametrize("env", [
    {},  # no key at all: the built-in fallback is never used in production
    {"SECRET_KEY": "insecure-embedded-default-key-set-SECRET_KEY-in-production-9f3a7c1e5b"},
    {"SECRET_KEY": "short-but-not-random"},
    {"SECRET_KEY": "a" * 60},
    {"SECRET_KEY": GOOD_KEY, "DEBUG": "1"},
])
def test_production_settings_refuse_to_start_without_a_real_key_or_with_debug(env):
    out = _production(ALLOWED_HOSTS="meisterschaft.example.org", **env)
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr and "config.production" in out.stderr


def test_production_settings_pass_check_deploy_without_a_warning():
    out = _production(SECRET_KEY=GOOD_KEY, ALLOWED_HOSTS="meisterschaft.example.org")
    assert out.returncode == 0, out.stderr
    assert "System check identified no issues" in out.stdout + out.stderr
    assert "WARNINGS" not in out.stdout + out.stderr


def test_the_readme_production_recipe_uses_the_production_settings():
    readme = (ROOT / "README.md").read_text()
    recipe = readme.split("## Running it in production", 1)[1].split("```", 2)[1]
    assert "DJANGO_SETTINGS_MODULE=config.production" in recipe
    assert "check --deploy" in recipe
