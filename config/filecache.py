"""The embedded default's cache in files, with the size check made now and then, small values
kept in symlinks, and a counter that counts across processes.

**The size check.** Django's ``FileBasedCache`` lists its whole folder on every write to see
whether it holds ``MAX_ENTRIES`` files already (``_cull``): with a few thousand entries that
listing is milliseconds, and a banker's post writes six times (issue 29). The limit only keeps
the folder from growing without end, so it is checked on the first write of a process and then
on every ``CULL_EVERY``-th: a folder overshoots it by at most that many writes per process
until the next check removes the surplus (a third of the entries, as Django does).

**Small values.** Django writes every value to a new file and renames it over the old one, so
a reader sees the old value or the new, never half of one. On ext4 a rename over an existing
file first writes the new file's data to the disk (``auto_da_alloc``): 0.1-3 ms of the
writer's time, measured on this machine, for every version, token and counter a post replaces
(issue 29). An int or a short str (the games' versions, the follow tokens, the generations)
is kept instead as the target of a symlink (``SHORT`` bytes at most: ext4 keeps it in the
inode, no data block), made under a temporary name and renamed over the key: as atomic for a
reader (``os.readlink``), and about 10 µs. Every read, test and delete knows both forms; a
key may change form, a reader never takes one form for the other's absence.

**Counting.** Django's ``incr`` is a read and a write: two processes counting at once both
write the same number, and the second change keeps the first one's generation (a public page
built in between stays cached as current). ``incr`` here holds a lock on a file of the folder
(``flock``, and a thread lock: the laptop serves with threads) from the read to the write, and
keeps the counter's expiry (Django's ``incr`` gave a counter kept for ever the default
timeout; Redis's keeps it).
"""

from __future__ import annotations

import errno
import fcntl
import os
import pickle
import secrets
import threading
import time
import zlib

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

#: Writes of one process between two listings of the folder.
CULL_EVERY = 64
#: The longest symlink target ext4 keeps in the inode itself (a "fast" symlink).
SHORT = 59
_MISSING = object()


def _short(value: object, expiry: float | None) -> str | None:
    """The symlink target that holds ``value`` (an int or a short str), else None."""
    if type(value) is int:
        kind, text = "i", str(value)
    elif type(value) is str and "\0" not in value:
        kind, text = "s", value
    else:
        return None
    target = f"{kind}{'' if expiry is None else f'{expiry:.3f}'}|{text}"
    return target if len(target.encode()) <= SHORT else None


def _parse(target: str) -> tuple[object, float | None]:
    head, _, text = target.partition("|")
    expiry = float(head[1:]) if len(head) > 1 else None
    return (int(text) if head[0] == "i" else text), expiry


class EmbeddedFileBasedCache(FileBasedCache):
    """``FileBasedCache`` that lists its folder for the size limit once per ``CULL_EVERY``
    writes of the process, keeps small values in symlinks and counts under a lock."""

    _writes = 0
    _lock = threading.Lock()
    _counting = threading.Lock()

    def _cull(self) -> None:
        with EmbeddedFileBasedCache._lock:
            due = EmbeddedFileBasedCache._writes % CULL_EVERY == 0
            EmbeddedFileBasedCache._writes += 1
        if due:
            super()._cull()

    # ------------------------------------------------------------------ reading both forms

    def _load(self, fname: str) -> tuple[object, float | None] | object:
        """(value, expiry) of the file ``fname`` in either form, or ``_MISSING``."""
        for _attempt in range(3):
            try:
                return _parse(os.readlink(fname))
            except FileNotFoundError:
                return _MISSING
            except OSError as error:
                if error.errno != errno.EINVAL:  # EINVAL: a regular file
                    raise
            try:
                fd = os.open(fname, os.O_RDONLY | os.O_NOFOLLOW)
            except FileNotFoundError:
                return _MISSING
            except OSError as error:
                if error.errno == errno.ELOOP:
                    continue  # replaced by a symlink meanwhile: read that
                raise
            with open(fd, "rb") as file:
                expiry = pickle.load(file)
                return pickle.loads(zlib.decompress(file.read())), expiry
        return _MISSING

    def _live(self, fname: str) -> tuple[object, float | None] | object:
        found = self._load(fname)
        if found is not _MISSING and found[1] is not None and found[1] < self._now():
            self._delete(fname)
            return _MISSING
        return found

    def _now(self) -> float:
        return time.time()

    def get(self, key, default=None, version=None):
        found = self._live(self._key_to_file(key, version))
        return default if found is _MISSING else found[0]

    def has_key(self, key, version=None) -> bool:
        return self._live(self._key_to_file(key, version)) is not _MISSING

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None) -> bool:
        found = self._live(self._key_to_file(key, version))
        if found is _MISSING:
            return False
        self.set(key, found[0], timeout, version)
        return True

    def _delete(self, fname: str) -> bool:
        # ``os.path.exists`` follows a symlink to nowhere: ``lexists`` sees the link.
        if not fname.startswith(self._dir) or not os.path.lexists(fname):
            return False
        try:
            os.remove(fname)
        except FileNotFoundError:
            return False
        return True

    # ------------------------------------------------------------------ writing

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> None:
        target = _short(value, self.get_backend_timeout(timeout))
        if target is None:
            super().set(key, value, timeout, version)
        else:
            self._link(self._key_to_file(key, version), target)

    def _link(self, fname: str, target: str) -> None:
        self._createdir()
        self._cull()
        temporary = f"{fname}.{secrets.token_hex(4)}.tmp"
        os.symlink(target, temporary)
        try:
            os.rename(temporary, fname)
        except BaseException:
            os.remove(temporary)
            raise

    def incr(self, key, delta=1, version=None):
        fname = self._key_to_file(key, version)
        with EmbeddedFileBasedCache._counting:
            lock = self._open_lock()
            try:
                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
                found = self._live(fname)
                if found is _MISSING:
                    raise ValueError(f"Key '{key}' not found")
                value, expiry = found
                new = value + delta
                target = _short(new, expiry)
                if target is not None:
                    self._link(fname, target)
                else:  # a counter too long for a symlink: a file, its expiry kept
                    self.set(key, new, None if expiry is None else max(expiry - self._now(),
                                                                       0.001), version)
                return new
            finally:
                os.close(lock)

    def _open_lock(self) -> int:
        path = os.path.join(self._dir, "counting.lock")
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except FileNotFoundError:  # the folder was deleted: Django makes it again too
            self._createdir()
            return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
