"""Running the project's management commands as organisers do: a child process of
``manage.py`` in the project folder, its exit code, stdout and stderr; or ``manage.py`` in the
test's own process (its database, its captured output), its exit code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from unittest import mock

from django.core.management import execute_from_command_line
from django.db import connections

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


def manage(*argv: str) -> int:
    """``manage.py argv…`` in this process (the test's database); the exit code.

    A command run from the command line closes the database connections when it ends; in a
    test that would close the test's own transaction on PostgreSQL, so not here.
    """
    with mock.patch.object(connections, "close_all"):
        try:
            execute_from_command_line(["manage.py", *argv])
        except SystemExit as exit_:
            return int(exit_.code or 0)
    return 0
