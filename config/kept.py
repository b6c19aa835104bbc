"""A small bounded store per process for answers that repeat (issue 29: the console's parts
across posts, the public bodies across a hall's polls).

Each user keys an entry by everything the kept value was made from, so an entry never goes
stale: a changed input is a new key, and old keys only age out (least recently used first,
or after ``seconds`` where a key may come back meaning something else).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """At most ``size`` values, the least recently used dropped first, each for at most
    ``seconds`` when given; safe across threads (a lock around the dictionary, not around
    making a value: two threads may make the same value once each)."""

    def __init__(self, *, size: int, seconds: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.seconds, self.clock = size, seconds, clock
        self._values: OrderedDict[Hashable, tuple[float | None, V]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, *, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``make()`` kept."""
        with self._lock:
            found = self._values.get(key)
            if found is not None and (found[0] is None or found[0] >= self.clock()):
                self._values.move_to_end(key)
                return found[1]
        value = make()
        with self._lock:
            until = None if self.seconds is None else self.clock() + self.seconds
            self._values[key] = (until, value)
            self._values.move_to_end(key)
            if len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
