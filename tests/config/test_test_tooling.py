"""The test run's own settings: a fast password hasher, a per-test timeout, the slowest tests
listed (pyproject.toml's [tool.pytest.ini_options] and tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

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


def _collection_hook(pytestconfig):
    """The root conftest's hook (another conftest may own the module name ``conftest``)."""
    root_conftest = Path(__file__).resolve().parents[1] / "conftest.py"
    (plugin,) = [p for p in pytestconfig.pluginmanager.get_plugins()
                 if Path(getattr(p, "__file__", "") or "/").resolve() == root_conftest]
    return plugin.pytest_collection_modifyitems


def _item(name, *marks):
    return SimpleNamespace(name=name, nodeid=f"tests/test_x.py::{name}",
                           get_closest_marker=lambda mark: mark if mark in marks else None)


def test_slow_and_browser_tests_are_handed_out_first(pytestconfig):
    """Under pytest-xdist the collection order is the order work is handed out."""
    items = [_item("a"), _item("browser", "e2e"), _item("b"), _item("slow", "slow"), _item("c")]
    _collection_hook(pytestconfig)(items)
    assert [i.name for i in items] == ["slow", "browser", "a", "b", "c"]


def test_a_test_id_collected_twice_stops_the_run(pytestconfig):
    """pytest-xdist would run only one of them and report the run as complete."""
    with pytest.raises(pytest.UsageError, match=r"1 test id\(s\) collected twice.*::b"):
        _collection_hook(pytestconfig)([_item("a"), _item("b"), _item("b"), _item("c")])
