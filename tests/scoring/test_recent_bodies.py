"""Issue 29: a public body read again within a second comes from this process, not from the
shared cache (a file read or a Redis round trip and an unpickling each time); a change is a
new key at once, and what is kept ages out."""

from __future__ import annotations

import pytest
from django.core.cache import cache as shared

from config.compression import Encoded
from config.kept import Kept
from scoring import cache

pytestmark = pytest.mark.django_db


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_body_read_again_within_its_second_comes_from_the_process(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(cache, "recent", Kept(size=4, seconds=1.0, clock=clock))
    first = cache.cached_body("ka", cache.STANDINGS, [cache.STANDINGS], lambda: b"first")
    key = cache.key("ka", f"{cache.STANDINGS}:{cache.generations('ka', [cache.STANDINGS])}")
    assert isinstance(shared.get(key), Encoded)
    shared.set(key, Encoded(b"other", '"x"'))  # a shared read would now see another body
    clock.now += 0.9
    assert cache.cached_body("ka", cache.STANDINGS, [cache.STANDINGS], lambda: b"?") is first
    clock.now += 0.2  # older than a second: the shared cache again
    assert cache.cached_body("ka", cache.STANDINGS, [cache.STANDINGS],
                             lambda: b"?").body == b"other"


def test_a_change_is_a_new_body_at_once(monkeypatch):
    monkeypatch.setattr(cache, "recent", Kept(size=4, seconds=1.0, clock=Clock()))
    assert cache.cached_body("ka", cache.STANDINGS, [cache.STANDINGS],
                             lambda: b"before").body == b"before"
    cache.invalidate("ka", cache.STANDINGS)
    assert cache.cached_body("ka", cache.STANDINGS, [cache.STANDINGS],
                             lambda: b"after").body == b"after"
    cache.forget("ka")  # an erasure: every body of the tournament new
    assert cache.cached_body("ka", cache.STANDINGS, [cache.STANDINGS],
                             lambda: b"erased").body == b"erased"


def test_a_kept_value_ages_out_after_its_seconds_the_least_recent_first():
    clock = Clock()
    kept: Kept[str] = Kept(size=2, seconds=1.0, clock=clock)
    made: list[str] = []

    def make(name: str):
        return lambda: made.append(name) or name

    kept.get(key="a", make=make("a"))
    kept.get(key="b", make=make("b"))
    kept.get(key="a", make=make("a"))  # a is now the most recent: c drops b
    kept.get(key="c", make=make("c"))
    assert made == ["a", "b", "c"]
    kept.get(key="b", make=make("b"))
    assert made == ["a", "b", "c", "b"]
    clock.now += 1.5  # older than a second: made again
    kept.get(key="b", make=make("b"))
    assert made == ["a", "b", "c", "b", "b"]
