"""The sessions in the database, as Django's ``db`` engine keeps them (the same table, rows
and cookies), read with a query compiled once (``config.prepared``; issue 29: every banker
post, every staff page reads the session first, and its compilation was most of the read).

The expiry is compared here, after the read, instead of in the query's WHERE: the same
answer (an expired or unknown session is an empty one, its key dropped), with the session's
key as the query's only parameter.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.prepared import PreparedRead

_SESSION = PreparedRead(lambda key: Session.objects.filter(session_key=key))


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        key = self.session_key
        session = _SESSION.first(key) if key else None
        if session is None or session.expire_date <= timezone.now():
            self._session_key = None
            return None
        return session
