"""What the console's kept parts are keyed by (issue 29: the fragment is built and rendered on
every banker's post, mostly from the same parts; the store is ``config.kept.Kept``).
"""

from __future__ import annotations

import pickle
from typing import Any

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
