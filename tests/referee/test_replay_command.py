"""``python manage.py replay RECORD.json``, run as the organisers run it (a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).resolve().parent / "rules" / "examples"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("name", ["karlsruhe-second-bankruptcy", "classic-ledger-running"])
def test_replay_prints_the_result(name: str) -> None:
    done = run(EXAMPLES / f"{name}.json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    expected = json.loads((EXAMPLES / f"{name}.out.json").read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == expected


def test_replay_output_is_indented_and_keeps_umlauts(tmp_path: Path) -> None:
    record = json.loads((EXAMPLES / "classic-ledger-running.json").read_text(encoding="utf-8"))
    record["players"][0] = "jürgen"
    for event in record["events"]:
        for field in ("player", "from", "to"):
            if event.get(field) == "anna":
                event[field] = "jürgen"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = run(path)
    assert done.returncode == 0, done.stderr
    assert '"player": "jürgen"' in done.stdout
    assert done.stdout.startswith('{\n "status": "running"')


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ([], "Badstraße already belongs to anna"),
        (["--lang", "de"], "Badstraße gehört bereits anna"),
    ],
)
def test_refused_event(lang: list[str], message: str) -> None:
    done = run(*lang, EXAMPLES / "refused-deed-owned-twice.json")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("event 2 ")
    assert lines[0] == f"event 2 (deal badstrasse): {message}"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot read"),
        ("{not json", "is not valid JSON"),
        (
            '{"format": "monopoly-game-record/1", "ruleset": "go", "players": ["a", "b"]}',
            "unknown ruleset 'go'",
        ),
    ],
)
def test_unusable_file(tmp_path: Path, content: str | None, expected: str) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = run(path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and expected in lines[0]


def test_organisers_board_file(tmp_path: Path) -> None:
    board = tmp_path / "castle-de.csv"
    text = (ROOT / "referee" / "rules" / "data" / "classic-de.csv").read_text(encoding="utf-8")
    board.write_text(text.replace("Badstraße", "Burggraben"), encoding="utf-8")
    record = json.loads((EXAMPLES / "refused-deed-owned-twice.json").read_text(encoding="utf-8"))
    record["board"] = "castle-de"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = run(path, "--board-file", board)
    assert done.returncode == 2
    assert done.stderr.strip() == "event 2 (deal badstrasse): Burggraben already belongs to anna"
