"""Print the code-size figures issue 27 sets limits on: long modules and long functions.

Usage: python scripts/code_figures.py [--module-lines 500] [--function-lines 60]
Counts our packages' Python (no migrations, no tests): a module over the limit by its lines,
a function over the limit by end_lineno - lineno + 1 (decorators not counted), methods and
nested functions included. Reads the files only; runs none of them.
"""

from __future__ import annotations

import argparse
import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Our packages: the import contracts' root packages.
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
    "root_packages"
]


def sources() -> list[Path]:
    """Our packages' modules, without migrations and tests."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "migrations" in parts or "tests" in parts or path.name.startswith("test_"):
                continue
            found.append(path)
    return found


def long_functions(*, path: Path, limit: int) -> list[tuple[int, str, int]]:
    """(lines, qualified name, first line) of each function in path longer than limit."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                length = child.end_lineno - child.lineno + 1
                if length > limit:
                    found.append((length, name, child.lineno))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module-lines", type=int, default=500)
    parser.add_argument("--function-lines", type=int, default=60)
    args = parser.parse_args()

    modules = []
    functions = []
    for path in sources():
        name = str(path.relative_to(ROOT))
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > args.module_lines:
            modules.append((lines, name))
        for length, function, first in long_functions(path=path, limit=args.function_lines):
            functions.append((length, f"{name}:{first} {function}"))

    print(f"modules over {args.module_lines} lines: {len(modules)}")
    for lines, name in sorted(modules, reverse=True):
        print(f"  {lines:5d}  {name}")
    print(f"functions over {args.function_lines} lines: {len(functions)}")
    for length, name in sorted(functions, reverse=True):
        print(f"  {length:5d}  {name}")


if __name__ == "__main__":
    main()
