"""SQLite for the event laptop: writers wait in a queue instead of polling.

SQLite lets one writer in at a time; the others retry in growing sleeps (up to 100 ms each),
so in a burst of bankers a post can wait seconds while later ones overtake it. Here every
transaction first takes an exclusive lock on a file beside the database — the kernel wakes a
waiter the moment it is free — and then ``BEGIN IMMEDIATE`` as before. The lock belongs to
the connection (its own open file), so threads and processes queue alike, and it is released
by the commit or rollback (or the process's end).
"""

from __future__ import annotations

import fcntl
import os

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _writers_fd: int | None = None

    def _start_transaction_under_autocommit(self) -> None:
        if self._writers_fd is None:
            self._writers_fd = os.open(f"{self.settings_dict['NAME']}-writers",
                                       os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._writers_fd, fcntl.LOCK_EX)
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writers()
            raise

    def _release_writers(self) -> None:
        if self._writers_fd is not None:
            fcntl.flock(self._writers_fd, fcntl.LOCK_UN)

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_writers()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_writers()

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self._writers_fd is not None:
                os.close(self._writers_fd)
                self._writers_fd = None
