"""The embedded SQLite default writes ahead (issue 29): ``migrate`` switches a file database to
WAL once, and the mode stays in the file — no pragma on each of the connections a request opens."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _mode(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        connection.close()


def test_migrate_switches_the_embedded_database_to_write_ahead_logging(tmp_path):
    database = tmp_path / "db.sqlite3"
    sqlite3.connect(database).close()  # an empty file in SQLite's own default mode
    assert _mode(database) == "delete"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "DATABASE_URL": f"sqlite:///{database}", "CACHE_DIR": str(tmp_path / "cache")}
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT,
                          env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _mode(database) == "wal"  # kept in the file: a new connection finds it
