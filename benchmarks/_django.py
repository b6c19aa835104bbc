"""Bench helper: a fresh database (SQLite file or a PostgreSQL database), Django set up, migrated."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


def postgres_available() -> bool:
    probe = subprocess.run(
        ["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"], capture_output=True, check=False
    ) if _has("pg_isready") else None
    return bool(probe and probe.returncode == 0)


def _has(command: str) -> bool:
    from shutil import which

    return which(command) is not None


def fresh_database(kind: str, *, pool: int | None = None) -> str:
    """A DATABASE_URL for an empty database of ``kind`` ('sqlite' or 'postgres')."""
    if kind == "sqlite":
        path = Path(tempfile.mkdtemp(prefix="mcs-bench-")) / "bench.sqlite3"
        return f"sqlite:///{path}"
    name = "mcs_bench"
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c", f"DROP DATABASE IF EXISTS {name}",
         "-c", f"CREATE DATABASE {name}"],
        check=True, capture_output=True,
    )
    suffix = f"?pool={pool}" if pool else ""
    return f"postgres://postgres@127.0.0.1:5432/{name}{suffix}"


def setup(database_url: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
