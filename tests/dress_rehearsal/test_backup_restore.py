"""scripts/backup.sh + scripts/restore.sh: restore into an empty database, same standings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ._run import machine_services

ROOT = Path(__file__).resolve().parents[2]
SOURCE, TARGET = "mcs_backup_source", "mcs_backup_restored"
PG = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qAt"]

pytestmark = [pytest.mark.postgres]

STANDINGS = (
    "SELECT t.slug, s.scope, s.player_id, s.points, s.net_worth_sum, s.tie_order, s.tie_break "
    "FROM scoring_standingrow s JOIN tournament_tournament t ON t.id = s.tournament_id "
    "ORDER BY 1, 2, 3"
)


def _psql(db: str, sql: str) -> str:
    return subprocess.run([*PG, "-d", db, "-c", sql], check=True, capture_output=True,
                          text=True).stdout


@pytest.mark.slow
def test_backup_restores_into_an_empty_database_with_the_same_standings(tmp_path):
    machine_services()
    _psql("postgres", f"DROP DATABASE IF EXISTS {SOURCE}")
    _psql("postgres", f"DROP DATABASE IF EXISTS {TARGET}")
    _psql("postgres", f"CREATE DATABASE {SOURCE}")
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{SOURCE}",
               PYTHON=sys.executable)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=env, check=True)
    subprocess.run([sys.executable, "manage.py", "demo", "--players", "36", "--no-serve"],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    before = _psql(SOURCE, STANDINGS)
    assert before.strip(), "the demo has standings"
    out = subprocess.run(["bash", "scripts/backup.sh", str(tmp_path)], cwd=ROOT, env=env,
                         check=True, capture_output=True, text=True).stdout
    dump = out.strip().splitlines()[-1]
    assert Path(dump).stat().st_size > 0
    assert list(tmp_path.glob("*-demo.json")), "the tournament JSON export is in the backup"
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{TARGET}"
    subprocess.run(["bash", "scripts/restore.sh", dump, "--create"], cwd=ROOT, env=env,
                   check=True, capture_output=True, text=True)
    assert _psql(TARGET, STANDINGS) == before
    # restoring over a database that has tables is refused
    again = subprocess.run(["bash", "scripts/restore.sh", dump], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=False)
    assert again.returncode == 3
    _psql("postgres", f"DROP DATABASE IF EXISTS {SOURCE}")
    _psql("postgres", f"DROP DATABASE IF EXISTS {TARGET}")
