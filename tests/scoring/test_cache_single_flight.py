"""Single flight (issue 17, the hall): after a change one caller rebuilds a missing cached body;
the others wait for its body instead of building the same fragment at once."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache as django_cache
from django.core.cache import caches

from scoring import cache

KEY = "scoring:ka:fragment:tables:de:3"
LOCK = f"{KEY}:building"


def builder(body: bytes, calls: list[str]):
    def build() -> bytes:
        calls.append("built")
        return body

    return build


def test_a_caller_waits_for_the_lock_holders_body_instead_of_building(monkeypatch):
    django_cache.add(LOCK, 1, timeout=cache.BUILD_LOCK_SECONDS)  # another worker builds
    pauses = []

    def other_builder_finishes(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 2:
            django_cache.set(KEY, cache.encode(b"theirs", cache.etag_of(b"theirs")))
            django_cache.delete(LOCK)

    monkeypatch.setattr(cache, "_pause", other_builder_finishes)
    calls: list[str] = []
    encoded = cache.cached_encoded(KEY, builder(b"mine", calls))
    assert encoded.body == b"theirs" and calls == []
    assert len(pauses) == 2


def test_with_real_threads_the_second_caller_gets_the_first_callers_body(monkeypatch):
    building, waiting, release = threading.Event(), threading.Event(), threading.Event()
    calls: list[str] = []

    def slow_build() -> bytes:
        calls.append("first")
        building.set()
        assert release.wait(5)
        return b"first's body"

    def pause(seconds: float) -> None:
        waiting.set()
        threading.Event().wait(0.005)

    monkeypatch.setattr(cache, "_pause", pause)
    answers: dict[str, bytes] = {}
    first = threading.Thread(
        target=lambda: answers.__setitem__("first", cache.cached_encoded(KEY, slow_build).body))
    second = threading.Thread(target=lambda: answers.__setitem__(
        "second", cache.cached_encoded(KEY, builder(b"second's body", calls)).body))
    first.start()
    assert building.wait(5)
    second.start()
    assert waiting.wait(5)  # the second is waiting while the first holds the lock
    release.set()
    first.join(5)
    second.join(5)
    assert answers == {"first": b"first's body", "second": b"first's body"}
    assert calls == ["first"]
    assert django_cache.get(LOCK) is None


def test_a_builder_that_does_not_finish_in_time_does_not_leave_the_caller_empty(monkeypatch):
    django_cache.add(LOCK, 1, timeout=cache.BUILD_LOCK_SECONDS)  # held, never released
    monkeypatch.setattr(cache, "BUILD_WAIT_SECONDS", 0)
    monkeypatch.setattr(cache, "_pause", lambda seconds: pytest.fail("waited past the deadline"))
    calls: list[str] = []
    assert cache.cached_encoded(KEY, builder(b"mine", calls)).body == b"mine"
    assert calls == ["built"]


def test_an_unreachable_cache_does_not_make_callers_wait(monkeypatch):
    """``add`` answers False when Redis is down: nobody holds the lock, so nobody waits."""
    monkeypatch.setattr(type(caches["default"]), "add", lambda *args, **kwargs: False)
    monkeypatch.setattr(cache, "_pause", lambda seconds: pytest.fail("waited for nobody"))
    calls: list[str] = []
    assert cache.cached_encoded(KEY, builder(b"mine", calls)).body == b"mine"
    assert calls == ["built"]


def test_a_failing_build_releases_the_lock():
    def broken() -> bytes:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        cache.cached_encoded(KEY, broken)
    assert django_cache.get(LOCK) is None
    calls: list[str] = []
    assert cache.cached_encoded(KEY, builder(b"mine", calls)).body == b"mine"
