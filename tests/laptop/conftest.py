"""Fixtures of the laptop tests: a database made the way ``python -m laptop serve`` makes it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    """A migrated laptop database made the way `serve` makes it (one per module: the copies
    and restores of a module start from it)."""
    data = tmp_path_factory.mktemp("laptop-data")
    env = {**os.environ, "LAPTOP_DATA_DIR": str(data)}
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "-m", "laptop", "migrate", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    return data / "championship.sqlite3"
