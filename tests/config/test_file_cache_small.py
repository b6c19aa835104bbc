"""The embedded default's file cache keeps an int or a short str in a symlink (no rename over a
file with data: on ext4 that writes the data to the disk first, 0.1-3 ms per version, token or
counter a post replaces, issue 29), reads and deletes both forms, and counts across processes
without losing a count."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest
import time_machine
from django.core.cache.backends.filebased import FileBasedCache

from config.filecache import SHORT, EmbeddedFileBasedCache


def make(tmp_path) -> EmbeddedFileBasedCache:
    return EmbeddedFileBasedCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 20_000}})


def form(cache, key) -> str:
    return "link" if os.path.islink(cache._key_to_file(key)) else "file"


@pytest.mark.parametrize(("value", "kind"), [
    (7, "link"), (-3, "link"), ("3f9a0c1b2d4e5f60", "link"), ("", "link"),
    ("x" * (SHORT - 2), "link"), ("x" * SHORT, "file"), (True, "file"), (7.5, "file"),
    ({"a": 1}, "file"), ("ä|b", "link"), ("a\0b", "file"),
])
def test_small_values_are_symlinks_and_read_back(tmp_path, value, kind):
    cache = make(tmp_path)
    cache.set("k", value, timeout=None)
    assert form(cache, "k") == kind
    assert cache.get("k") == value and type(cache.get("k")) is type(value)
    assert cache.has_key("k")
    assert cache.get_many(["k", "other"]) == {"k": value}


def test_a_key_changes_form_both_ways(tmp_path):
    cache = make(tmp_path)
    cache.set("k", {"big": "x" * 100})
    cache.set("k", 5)
    assert (form(cache, "k"), cache.get("k")) == ("link", 5)
    cache.set("k", [5])
    assert (form(cache, "k"), cache.get("k")) == ("file", [5])
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_delete_add_touch_and_clear_see_a_symlink(tmp_path):
    """Django's ``_delete`` asked ``os.path.exists``, which follows the link to nowhere."""
    cache = make(tmp_path)
    cache.set("k", "token", timeout=None)
    assert cache.add("k", "other") is False and cache.get("k") == "token"
    assert cache.delete("k") is True and cache.get("k") is None
    assert not os.path.lexists(cache._key_to_file("k"))
    cache.set("k", 1)
    cache.clear()
    assert cache.get("k") is None and not os.listdir(tmp_path)


def test_a_small_value_expires(tmp_path):
    cache = make(tmp_path)
    with time_machine.travel(1_800_000_000, tick=False):
        cache.set("k", 3, timeout=60)
        assert cache.touch("k", timeout=120)
    with time_machine.travel(1_800_000_100, tick=False):
        assert cache.get("k") == 3
    with time_machine.travel(1_800_000_121, tick=False):
        assert cache.get("k") is None
        assert not os.path.lexists(cache._key_to_file("k"))


def test_incr_keeps_the_counters_expiry(tmp_path):
    """Django's ``incr`` wrote a counter kept for ever back with the default timeout."""
    cache = make(tmp_path)
    cache.set("n", 1, timeout=None)
    assert cache.incr("n") == 2
    with time_machine.travel(time.time() + 86400):  # Django's default timeout: 300 s
        assert cache.get("n") == 2
    with pytest.raises(ValueError, match="not found"):
        cache.incr("missing")
    FileBasedCache.set(cache, "old", 41, timeout=None)  # a counter kept as a file: counted on
    assert form(cache, "old") == "file" and cache.incr("old") == 42


def _count(location: str, times: int) -> None:
    cache = EmbeddedFileBasedCache(location, {})
    for _ in range(times):
        cache.incr("n")


def test_two_processes_counting_at_once_lose_no_count(tmp_path):
    cache = make(tmp_path)
    cache.set("n", 0, timeout=None)
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_count, args=(str(tmp_path), 300)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [worker.exitcode for worker in workers] == [0, 0]
    assert cache.get("n") == 600
