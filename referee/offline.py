"""An action that waited on the banker's phone (offline): when it was made, from the wait the
phone measured (``made_at``, kept in the event beside its arrival ``at``)."""

from __future__ import annotations

import datetime as dt

#: An action that waited at least this long on the phone (offline) is stamped with when it
#: was made (``made_at``) besides its arrival (``at``).
MADE_AT_AFTER = dt.timedelta(seconds=10)
#: A longer wait is no offline queue but a phone's wrong figure: not stamped.
MADE_AT_WITHIN = dt.timedelta(hours=12)


def made_at(*, now: dt.datetime, waited: dt.timedelta | None) -> dt.datetime | None:
    """When an action that waited on the phone was made: the server's ``now`` less the wait the
    phone measured (a duration on its own clock, so a phone whose clock is wrong still gives
    the right moment). ``None``: sent at once, or a wait no queue explains."""
    if waited is None or not MADE_AT_AFTER <= waited <= MADE_AT_WITHIN:
        return None
    return now - waited
