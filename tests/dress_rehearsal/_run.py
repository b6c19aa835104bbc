"""Run the rehearsal (a whole stack of its own) in a subprocess for one fault."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from require import missing

ROOT = Path(__file__).resolve().parents[2]


def machine_services() -> None:
    """The rehearsal starts its own gunicorn/worker/beat/Redis; it needs the machine's tools."""
    for tool in ("redis-server", "redis-cli", "psql", "pg_isready"):
        if not shutil.which(tool):
            missing(f"the rehearsal needs {tool} on this machine")
    probe = subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"], check=False)
    if probe.returncode != 0:
        missing("the rehearsal needs PostgreSQL on 127.0.0.1:5432")


def of_this_run(db: str) -> str:
    """``db`` named after the suite's own database (DATABASE_URL): two suites on one machine
    (CI's and a helper's) each drop and create their own rehearsal databases, never the
    other's (a shared name made one run's fresh database end the other's connections)."""
    own = re.sub(r"\W", "_", urlsplit(os.environ.get("DATABASE_URL", "")).path.strip("/"))
    return f"{db}_{own[:30]}" if own else db


def rehearse(*args: str, db: str, timeout: int = 400) -> tuple[int, str]:
    """The rehearsal's exit status and its output (stdout, then stderr)."""
    machine_services()
    db = of_this_run(db)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    proc = subprocess.run(
        [sys.executable, "-m", "rehearsal.run", "--db", db, *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def run_rehearsal(*args: str, db: str, timeout: int = 400) -> str:
    code, out = rehearse(*args, db=db, timeout=timeout)
    if code != 0:
        pytest.fail(f"rehearsal failed (exit {code}):\n{out[-6000:]}", pytrace=False)
    return out
