"""Queueing a task without making the request that queues it fail.

Every task queued from a request is backed by a periodic sweep that does the same work
(``referee.sweep_deadlines`` for timers, ``scoring.refresh_running_standings`` for standings),
so a message the broker cannot take (Redis restarting) delays its work by one sweep instead
of turning a banker's already committed event into an error page.
"""

from __future__ import annotations

import datetime as dt
import logging

from kombu.exceptions import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("config.queue")

BROKER_UNREACHABLE = (OperationalError, RedisConnectionError, RedisTimeoutError)


def enqueue(task, *args, eta: dt.datetime | None = None) -> bool:
    """Queue ``task(*args)``; False (and a warning) when the broker is unreachable."""
    try:
        task.apply_async(args=args, eta=eta)
    except BROKER_UNREACHABLE as error:
        logger.warning("broker unreachable, %s%r left to its sweep: %s", task.name, args, error)
        return False
    return True
