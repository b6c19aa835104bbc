"""A server process, once the site is loaded: its objects kept out of the garbage collector's
sweeps (issue 29).

Python's cyclic collector walks every tracked object of the oldest generation on a full
sweep: the modules, classes, URL patterns and settings loaded at start — hundreds of
thousands of objects that live as long as the process. A banker's post allocates enough to
run the collector several times; measured in-process on a console post, the collector took
0.34–0.40 ms of a ~9 ms post with Python's defaults, 0.23 ms with the start's objects frozen
(:func:`gc.freeze`), less again with a larger first generation (fewer runs, each over the
request's own short-lived objects).

Called at the end of ``config.wsgi`` and ``config.asgi`` (a gunicorn worker imports them
after the fork; with ``--preload`` the frozen objects are also shared pages the workers do
not copy). What requests leave behind is still collected, in larger batches (a worker's
memory may hold a few thousand more dead objects between sweeps).
"""

from __future__ import annotations

import gc

#: Objects allocated (minus freed) before a first-generation sweep, and sweeps before the
#: next generation's (Python: 700, 10, 10).
THRESHOLDS = (7000, 20, 20)


def settle() -> None:
    """Load what the first request would (every view module through the URLconf), sweep
    once, freeze what is left, and run the collector less often."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view module now
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
