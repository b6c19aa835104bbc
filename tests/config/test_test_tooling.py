"""The test run's own settings: a fast password hasher, a per-test timeout, the slowest tests
listed (pyproject.toml's [tool.pytest.ini_options] and tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import get_hasher, make_password

pytestmark = pytest.mark.django_db


def test_passwords_are_hashed_fast_in_tests_and_real_hashes_still_check(django_user_model):
    assert get_hasher().algorithm == "md5"
    user = django_user_model.objects.create_user("hasher", password="Schlossallee-4000")
    assert user.password.startswith("md5$") and user.check_password("Schlossallee-4000")
    real = make_password("Schlossallee-4000", hasher="pbkdf2_sha256")
    user.password = real
    assert user.check_password("Schlossallee-4000") and not user.check_password("Badstrasse")


def test_every_test_has_a_timeout_and_the_run_lists_the_slowest(pytestconfig):
    assert float(pytestconfig.getini("timeout")) >= 60
    assert "--durations=15" in pytestconfig.getini("addopts")


def test_slow_and_browser_tests_are_handed_out_first(pytestconfig):
    """Under pytest-xdist the collection order is the order work is handed out."""
    from pathlib import Path
    from types import SimpleNamespace

    root_conftest = Path(__file__).resolve().parents[1] / "conftest.py"
    (plugin,) = [p for p in pytestconfig.pluginmanager.get_plugins()
                 if Path(getattr(p, "__file__", "") or "/").resolve() == root_conftest]
    pytest_collection_modifyitems = plugin.pytest_collection_modifyitems

    def item(name, *marks):
        return SimpleNamespace(name=name, get_closest_marker=lambda mark: mark if mark in marks
                               else None)

    items = [item("a"), item("browser", "e2e"), item("b"), item("slow", "slow"), item("c")]
    pytest_collection_modifyitems(items)
    assert [i.name for i in items] == ["slow", "browser", "a", "b", "c"]
