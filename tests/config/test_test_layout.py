"""The tests' own layout (issue 27): a test module is named by the feature it tests, not by when
it was written, and imports only shared builders (tests/factories.py, gameplay.py, browsing.py,
consoles.py, pdfs.py, commands.py ... and a directory's conftest.py), never another test module:
a helper one test module borrows from another breaks when that module is renamed or split."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]

#: Words that name a module by its history (an issue, a review round, a polish pass).
HISTORY = re.compile(r"polish|round3|round_three|issue", re.IGNORECASE)


def _is_test_module(dotted: str) -> bool:
    """``tests.referee.test_console_views``, ``test_console_views``: a module whose file name
    starts with ``test_``."""
    return any(part.startswith("test_") for part in dotted.split(".") if part)


def imports_of_test_modules(source: str) -> list[str]:
    """Every import of ``source`` that reaches into a test module (at any depth: module level,
    inside a function, ``importlib.import_module("...")`` with a literal name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if _is_test_module(module):
                found.append(module)
            else:  # ``from tests.referee import test_console_views``
                found += [f"{module}.{alias.name}".lstrip(".") if node.module else alias.name
                          for alias in node.names if alias.name.startswith("test_")]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ast.unparse(node.func) in {"importlib.import_module", "import_module",
                                             "__import__"}
              and _is_test_module(node.args[0].value)):
            found.append(node.args[0].value)
    return found


@pytest.mark.parametrize(("source", "expected"), [
    ("from tests.referee.test_console_views import keys", ["tests.referee.test_console_views"]),
    ("from tests.referee import test_console_views as base", ["tests.referee.test_console_views"]),
    ("import test_seating_command", ["test_seating_command"]),
    ("def f():\n    from test_print_documents import text", ["test_print_documents"]),
    ("from .test_desk_dashboard import finish", [".test_desk_dashboard"]),
    ("from . import test_desk_dashboard", ["test_desk_dashboard"]),
    ("import importlib\nimportlib.import_module('tests.x.test_y')", ["tests.x.test_y"]),
    ("from factories import UserFactory\nfrom gameplay import play\nfrom django.test import Client\n"
     "from referee.rules import testing_kit", []),
])
def test_the_check_finds_every_way_of_importing_a_test_module(source, expected):
    assert imports_of_test_modules(source) == expected


def test_no_test_module_imports_another_test_module():
    borrowed = {
        str(path.relative_to(TESTS)): found
        for path in sorted(TESTS.rglob("*.py"))
        if (found := imports_of_test_modules(path.read_text("utf-8")))
    }
    assert borrowed == {}, (
        "a test module imports another test module; move the helper or fixture into a shared "
        "builder (tests/factories.py, gameplay.py, consoles.py, pdfs.py, commands.py, ...) or "
        f"the directory's conftest.py: {borrowed}"
    )


def test_no_test_file_is_named_by_its_history():
    named = [str(path.relative_to(TESTS)) for path in sorted(TESTS.rglob("*"))
             if path.suffix == ".py" and HISTORY.search(str(path.relative_to(TESTS)))]
    assert named == [], f"name these by the feature they test, not by when: {named}"


@pytest.mark.parametrize("name", ["desk/test_desk_polish.py", "tournament/test_privacy_round3.py",
                                  "dress_rehearsal/test_abuse_round_three.py",
                                  "public/test_issue_16.py"])
def test_the_history_words_are_caught(name):
    assert HISTORY.search(name)
