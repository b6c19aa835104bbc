"""Branch coverage per room: one line per top-level package and per sub-package.

`make test` runs it after pytest (which writes .coverage): a total hides a room nobody tests,
so the figures are printed the way the project is divided. Fails (exit 2) when the total is
under ``fail_under`` of [tool.coverage.report] in pyproject.toml.

    python scripts/coverage_rooms.py [--data-file .coverage] [--sort name|cover]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import coverage


@dataclass
class Room:
    """Sums over a room's files, counted the way coverage.py counts its total."""

    statements: int = 0
    missing: int = 0
    branches: int = 0
    partial_or_missing_branches: int = 0

    @property
    def percent(self) -> float:
        possible = self.statements + self.branches
        if not possible:
            return 100.0
        covered = (self.statements - self.missing) + (
            self.branches - self.partial_or_missing_branches
        )
        return 100.0 * covered / possible


def room_of(*, path: str) -> str:
    """``scoring/standings/service.py`` → ``scoring/standings``; ``scoring/models.py`` → ``scoring``."""
    parts = PurePosixPath(path.replace("\\", "/")).parts
    if len(parts) >= 3:
        return f"{parts[0]}/{parts[1]}"
    if len(parts) == 2:
        return parts[0]
    return "(root)"


def rooms_from(*, report: dict) -> dict[str, Room]:
    """Group the JSON report's files by room."""
    rooms: dict[str, Room] = {}
    root = Path.cwd()
    for filename, entry in report["files"].items():
        path = Path(filename)
        relative = (
            path.relative_to(root) if path.is_absolute() and path.is_relative_to(root) else path
        )
        summary = entry["summary"]
        room = rooms.setdefault(room_of(path=relative.as_posix()), Room())
        room.statements += summary["num_statements"]
        room.missing += summary["missing_lines"]
        room.branches += summary.get("num_branches", 0)
        room.partial_or_missing_branches += summary.get("num_branches", 0) - summary.get(
            "covered_branches", 0
        )
    return rooms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-file", default=".coverage")
    parser.add_argument("--sort", choices=("name", "cover"), default="name")
    args = parser.parse_args(argv)

    cov = coverage.Coverage(data_file=args.data_file)
    cov.load()
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "coverage.json"
        cov.json_report(outfile=str(out))
        report = json.loads(out.read_text())

    rooms = rooms_from(report=report)
    key = (lambda item: item[1].percent) if args.sort == "cover" else (lambda item: item[0])
    print(f"{'room':<28} {'stmts':>7} {'miss':>6} {'branch':>7} {'br-miss':>7} {'cover':>7}")
    for name, room in sorted(rooms.items(), key=key):
        print(
            f"{name:<28} {room.statements:>7} {room.missing:>6} {room.branches:>7} "
            f"{room.partial_or_missing_branches:>7} {room.percent:>6.1f}%"
        )
    totals = report["totals"]
    total = totals["percent_covered"]
    print(
        f"{'TOTAL':<28} {totals['num_statements']:>7} {totals['missing_lines']:>6} "
        f"{totals.get('num_branches', 0):>7} "
        f"{totals.get('num_branches', 0) - totals.get('covered_branches', 0):>7} {total:>6.1f}%"
    )
    floor = float(cov.get_option("report:fail_under") or 0)
    if total < floor:
        print(
            f"FAIL: total branch coverage {total:.2f}% is under the floor {floor:g}%",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
