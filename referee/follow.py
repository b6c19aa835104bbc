"""A banker console's follow poll answered before Django does any work (issue 29, "a full hall
on two cores").

Every console asks ``GET /api/v1/tables/<id>/state`` once a second with ``If-None-Match``; a
hall of 167 tables is up to 167 such polls a second on a two-core laptop, and nearly all of
them are 304s. The full view (``referee.api.TableStateView``) reads the session, the banker
link, the table and the game (about four queries) to say "not modified". Here a poll whose
ETag is the table's current one is answered 304 by a middleware placed before the session and
the user are looked at, from one read of the shared cache and no query at all.

**What is kept.** Per table two cache entries (Redis in production, the processes' shared
file cache on the embedded default and the laptop):

- the table's *token*, a random value replaced by every change that can alter the table's
  state ETag or who may read it, when it is made and again once it is committed
  (``changed``): an event posted or voided (also the deadlines a read enforces), a ruling or
  extra time, a result counted, confirmed, reopened or amended, an untouched game following
  a new seating, a name changed or erased, the round or the tournament saved (seated,
  started, closed, results released: the public's ``held`` flag and whether the table is
  public at all), the table or its seats saved;
- the *entry*, written by the full view whenever it answers: the token it read before it read
  the database, the ETags it answered with (the private one, the public one, ``-held``), and
  the earliest pending deadline of the game.

**When the gate answers 304.** A GET of the state with ``If-None-Match`` (not ``*``), the
entry present, its token equal to the table's current token, one of its ETags named by the
request, no deadline due (a due one is enforced by the full view), and the table readable by
the public (the entry says so; see below). Anything else falls through to the full view,
which enforces deadlines, authorizes and answers as before.

**Why never stale.** The full view reads the token *before* it reads the table and the game.
A change that commits after that read replaces the token after its commit, so after the
view's token read: the entry the view writes then names a token that is no longer current,
and the gate ignores it. A change committed before the read is in what the view read, so in
its ETag — which is why, after the commit, the token is replaced *last*, after the game's
version (part of the ETag) moved: ``changed`` is called after the version's own after-commit
work is registered (callbacks run in that order). The token is replaced, never counted: an evicted token comes back as a new random
value that no older entry names. An entry lives ``ENTRY_TIMEOUT`` seconds at most, so even a
token write lost while Redis was unreachable (the cache then drops writes,
``config.cache``) costs at most that long.

**Why a 304 without authorization leaks nothing.** A 304 carries no body, only the ETag the
client sent. The gate answers only for a table the public may read (not a draft tournament,
the round started): for such a table every ETag variant is made of what the public variant's
ETag already publishes (the game's id, its event count, its version) plus the variant's flag,
so "your tag is current" tells anybody nothing a spectator's 200 does not. A table the public
may not read (a seated round not started, a draft) is never answered here: its bankers and
referees take the full view, so nobody can probe it. A reader whose rights ended (a revoked
banker link) keeps getting 304s only while nothing changes: no byte of the state, and the
first change is a full view that refuses them. Making the tournament or the round private
again saves it, which replaces the token.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from collections.abc import Callable, Iterable

from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified

from config.compression import etag_matches
from config.early import early_get

ENTRY_TIMEOUT = 120  # seconds: the longest a lost invalidation could be served (see above)
STATE_VIEW = "table-state"  # referee.api_urls: the console's follow poll
#: The full view's Vary: DRF's negotiation, its coding, the session (who reads), the language.
VARY = "Accept, Accept-Encoding, Cookie, Accept-Language"


def token_key(table_id: int) -> str:
    return f"referee:follow:t{table_id}:token"


def entry_key(table_id: int) -> str:
    return f"referee:follow:t{table_id}"


def _new_token() -> str:
    return secrets.token_hex(8)


# --------------------------------------------------------------------------- invalidation


def changed(table_ids: Iterable[int]) -> None:
    """The tables' state (or who may read it) changes: replace their tokens now and again once
    the change is committed, so no entry made before the commit answers again. (Now: a test
    that never commits, and the entries of polls before the change, stop at once. After the
    commit: a poll that read the old rows under the token of "now" wrote an entry with it.)"""
    ids = sorted({int(pk) for pk in table_ids if pk})
    if ids:
        replace_tokens(ids)
        # Outside a transaction (a post calls this after its commit) "now" is "once
        # committed": a second replacement would be the same write again (a file's rename on
        # the embedded default, issue 29).
        if transaction.get_connection().in_atomic_block:
            transaction.on_commit(lambda: replace_tokens(ids))


def replace_tokens(table_ids: Iterable[int]) -> None:
    """A new token per table: no entry names it yet."""
    cache.set_many({token_key(pk): _new_token() for pk in table_ids}, timeout=None)


def forget(table_id: int) -> None:
    """Drop the table's entry (as an eviction would): its next poll takes the full view."""
    cache.delete(entry_key(table_id))


# --------------------------------------------------------------------------- the full view


class Follow:
    """What the full view reads before the database (``start``) and keeps after (``keep``)."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        found = cache.get_many([token_key(table_id), entry_key(table_id)])
        token = found.get(token_key(table_id))
        if not token:
            cache.add(token_key(table_id), _new_token(), timeout=None)
            token = cache.get(token_key(table_id))
        self.token: str | None = token
        self.entry = found.get(entry_key(table_id))

    def keep(self, *, etag: str, private: bool, public: bool,
             due: Iterable[dt.datetime | None]) -> None:
        """Remember ``etag`` as current under the token read before the database;
        ``private``: the banker's variant (its 304 says ``private`` as its 200 does);
        ``public``: whether the public may read the table; ``due``: the pending deadlines."""
        if not self.token:  # the cache is unreachable: nothing to keep
            return
        deadlines = [moment.timestamp() for moment in due if moment is not None]
        entry = {"token": self.token, "public": public,
                 "due": min(deadlines) if deadlines else None, "etags": {etag: private}}
        known = self.entry
        if (isinstance(known, dict) and known.get("token") == self.token
                and known.get("public") == public and known.get("due") == entry["due"]):
            if known["etags"].get(etag) == private:
                return  # already kept: no write
            entry["etags"] = {**known["etags"], **entry["etags"]}
        cache.set(entry_key(self.table_id), entry, timeout=ENTRY_TIMEOUT)


# --------------------------------------------------------------------------- the gate


def table_of(request: HttpRequest) -> int | None:
    """The table of a follow poll (a GET of the state with ``If-None-Match``), else None."""
    header = request.headers.get("If-None-Match", "")
    if not header or header.strip() == "*":
        return None
    match = early_get(request, ends_with="/state", view_name=STATE_VIEW)
    if match is None or "table_id" not in match.kwargs:
        return None
    return int(match.kwargs["table_id"])


def early_answer(request: HttpRequest) -> HttpResponse | None:
    """304 when the request names the table's current ETag (module docstring), else None."""
    table_id = table_of(request)
    if table_id is None:
        return None
    found = cache.get_many([entry_key(table_id), token_key(table_id)])
    entry, token = found.get(entry_key(table_id)), found.get(token_key(table_id))
    if not isinstance(entry, dict) or not token or entry.get("token") != token:
        return None
    if not entry.get("public"):
        return None
    due = entry.get("due")
    if due is not None and time.time() >= due:
        return None
    for etag, private in entry.get("etags", {}).items():
        if etag_matches(request, etag):
            response = HttpResponseNotModified()
            # What the 200 would carry (RFC 9110 §15.4.5): its ETag, caching and Vary.
            response["ETag"] = etag
            response["Cache-Control"] = f"no-cache, {'private' if private else 'public'}"
            response["Vary"] = VARY
            return response
    return None


class FollowMiddleware:
    """Placed before the session and the user (``settings.MIDDLEWARE``): a console's follow
    poll that names its table's current ETag is answered here (``early_answer``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return early_answer(request) or self.get_response(request)
