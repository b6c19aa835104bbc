"""Reading settings from the environment (12-factor) without a third-party helper."""

from __future__ import annotations

import hashlib
import os
from urllib.parse import parse_qs, unquote, urlparse

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


class ConfigError(ValueError):
    """A setting in the environment cannot be understood."""


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_config(url: str | None, *, sqlite_path: str) -> dict:
    """Return a Django DATABASES['default'] entry for a DATABASE_URL, or the embedded SQLite."""
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            # A console write waits for a concurrent one instead of failing at once.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    parsed = urlparse(url)
    scheme = parsed.scheme.split("+")[0]
    if scheme in {"postgres", "postgresql", "pgsql"}:
        options: dict = {key: values[-1] for key, values in parse_qs(parsed.query).items()}
        pool_size = options.pop("pool", None)
        if pool_size is not None:
            # ?pool=N: a psycopg connection pool of at most N per process (Django >= 5.1);
            # persistent connections and a pool exclude each other.
            if not pool_size.isdigit() or int(pool_size) < 1:
                raise ConfigError(f"DATABASE_URL pool={pool_size!r} must be a positive number")
            options["pool"] = {"min_size": 1, "max_size": int(pool_size), "timeout": 30}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parsed.path.lstrip("/")),
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname or "",
            "PORT": str(parsed.port or ""),
            "CONN_MAX_AGE": 0 if pool_size else int(os.environ.get("CONN_MAX_AGE", "60")),
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    if scheme == "sqlite":
        # sqlite:///relative.db or sqlite:////absolute/path.db
        path = parsed.path[1:] if parsed.path.startswith("//") else parsed.path.lstrip("/")
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": unquote(path) or sqlite_path,
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    raise ConfigError(f"DATABASE_URL scheme {parsed.scheme!r} is not supported (postgres or sqlite)")


def database_identity(database: dict) -> str:
    """A short name for a database (engine, name, host, port): what a cache kept outside the
    database is filed under, so that another database never reads its entries."""
    parts = "|".join(str(database.get(key) or "") for key in ("ENGINE", "NAME", "HOST", "PORT"))
    return hashlib.sha256(parts.encode()).hexdigest()[:16]
