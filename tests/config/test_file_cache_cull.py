"""The embedded default's file cache lists its folder for the size limit now and then, not on
every write (issue 29: a banker's post writes six times; with thousands of entries each listing
cost milliseconds), and still keeps the folder near its limit."""

from __future__ import annotations

from unittest import mock

from django.core.cache.backends.filebased import FileBasedCache

from config import filecache
from config.filecache import CULL_EVERY, EmbeddedFileBasedCache


def make(tmp_path, *, max_entries=20_000) -> EmbeddedFileBasedCache:
    return EmbeddedFileBasedCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": max_entries}})


def test_writes_list_the_folder_once_per_cull_every(tmp_path, monkeypatch):
    monkeypatch.setattr(EmbeddedFileBasedCache, "_writes", 0)
    cache = make(tmp_path)
    with mock.patch.object(FileBasedCache, "_list_cache_files",
                           autospec=True, return_value=[]) as listing:
        for index in range(2 * CULL_EVERY):
            cache.set(f"key-{index}", index)
    assert listing.call_count == 2  # Django's own: 128 listings for 128 writes


def test_the_folder_is_still_culled_to_its_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(EmbeddedFileBasedCache, "_writes", 0)
    monkeypatch.setattr(filecache, "CULL_EVERY", 4)
    cache = make(tmp_path, max_entries=10)
    for index in range(40):
        cache.set(f"key-{index}", index)
    # at most the limit plus the writes between two checks
    assert len(cache._list_cache_files()) <= 10 + 4
    assert cache.get("key-39") == 39


def test_the_laptop_uses_it():
    """(The embedded default's settings: ``test_settings_selection``.)"""
    from config import laptop

    assert laptop.CACHES["default"]["BACKEND"] == "config.filecache.EmbeddedFileBasedCache"
