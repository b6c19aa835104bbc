"""A small bounded store per process for the console's answers that repeat across posts (issue
29: the fragment is built and rendered on every banker's post, mostly from the same parts).

Each user keys an entry by everything the kept value was made from, so an entry never goes
stale: a changed input is a new key, and old keys only age out (least recently used first).
"""

from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """At most ``size`` values, the least recently used dropped first; safe across threads
    (a lock around the dictionary, not around making a value: two threads may make the same
    value once each)."""

    def __init__(self, *, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, *, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``make()`` kept."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
                return value
        value = make()
        with self._lock:
            self._values[key] = value
            if len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


#: Pickles of frozen dataclasses by their identity (the ruleset: a fifth of a digest's pickle),
#: each with its object, so that an identity is never reused while its pickle is kept.
_frozen_pickles: dict[int, tuple[Any, bytes]] = {}


def kept_pickle(*, values: dict[str, Any]) -> bytes:
    """``values`` as one pickle, a frozen dataclass among them whose fields all hash (so none
    can change: the ruleset) pickled once per object."""
    plain, frozen = {}, {}
    for name, value in values.items():
        params = getattr(type(value), "__dataclass_params__", None)
        if params is None or not params.frozen:
            plain[name] = value
            continue
        kept = _frozen_pickles.get(id(value))
        if kept is None or kept[0] is not value:
            try:
                hash(value)  # every field hashable: nothing inside can change either
            except TypeError:
                plain[name] = value
                continue
            if len(_frozen_pickles) >= 64:
                _frozen_pickles.clear()
            kept = _frozen_pickles[id(value)] = (
                value, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        frozen[name] = kept[1]
    return pickle.dumps((plain, frozen), protocol=pickle.HIGHEST_PROTOCOL)
