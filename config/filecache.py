"""The embedded default's cache in files, with the size check made now and then.

Django's ``FileBasedCache`` lists its whole folder on every write to see whether it holds
``MAX_ENTRIES`` files already (``_cull``): with a few thousand entries that listing is
milliseconds, and a banker's post writes six times (issue 29). The limit only keeps the
folder from growing without end, so it is checked on the first write of a process and then
on every ``CULL_EVERY``-th: a folder overshoots it by at most that many writes per process
until the next check removes the surplus (a third of the entries, as Django does).
"""

from __future__ import annotations

import threading

from django.core.cache.backends.filebased import FileBasedCache

#: Writes of one process between two listings of the folder.
CULL_EVERY = 64


class EmbeddedFileBasedCache(FileBasedCache):
    """``FileBasedCache`` that lists its folder for the size limit once per ``CULL_EVERY``
    writes of the process, not on every write."""

    _writes = 0
    _lock = threading.Lock()

    def _cull(self) -> None:
        with EmbeddedFileBasedCache._lock:
            due = EmbeddedFileBasedCache._writes % CULL_EVERY == 0
            EmbeddedFileBasedCache._writes += 1
        if due:
            super()._cull()
