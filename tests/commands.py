"""Running the project's management commands as organisers do: a child process of
``manage.py`` in the project folder, its exit code, stdout and stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def seating(*args: str | Path) -> subprocess.CompletedProcess:
    """``manage.py seating`` with ``args``, as finished (text out, two minutes at most)."""
    return subprocess.run(
        [sys.executable, "manage.py", "seating", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def refused(*args: str | Path) -> str:
    """The single stderr line of a refusal (exit 2, nothing on stdout)."""
    done = seating(*args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]
