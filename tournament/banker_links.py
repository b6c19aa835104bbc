"""Private banker links: signed, table-bound, revocable; they open a table's console.

The token in the URL is ``{"t": table_id, "n": nonce}`` signed without a timestamp, so the same
link always gives the same token (a printed card, the API and the page agree); it is only valid while
the :class:`~tournament.models.BankerLink` with that nonce is not revoked. Opening the link
stores the grant in the session; every console request re-checks it, so revoking works at once.
"""

from __future__ import annotations

import enum
import secrets

from django.contrib.auth.models import User
from django.contrib.sessions.backends.base import SessionBase
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from config.prepared import PreparedRead
from tournament.models import BankerLink, Round, Table

SALT = "tournament.banker-link"
SESSION_KEY = "banker_tables"


def make_token(link: BankerLink) -> str:
    return signing.Signer(salt=SALT).sign_object({"t": link.table_id, "n": link.nonce},
                                                 compress=True)


def read_token(token: str) -> tuple[int, str] | None:
    """The (table id, nonce) a token names, or None when it was not signed by us.

    Tokens of earlier versions carried a timestamp (``signing.dumps``); cards printed with them
    still open their table."""
    try:
        data = signing.Signer(salt=SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    except ValueError:  # an earlier, timestamped token: its signed value is "payload:timestamp"
        data = signing.loads(token, salt=SALT)
    if not isinstance(data, dict) or not isinstance(data.get("t"), int):
        return None
    return data["t"], str(data.get("n", ""))


def grant(session: SessionBase, link: BankerLink) -> None:
    grants = dict(session.get(SESSION_KEY, {}))
    grants[str(link.table_id)] = link.nonce
    session[SESSION_KEY] = grants


def session_link(session: SessionBase, table: Table) -> BankerLink | None:
    """The live link for this table the session holds, with the banker it was issued to (its
    holder: the events, counts and confirmations are theirs in the record and the audit log);
    None when there is none (revoked links fail at once, and every link of a round stops when
    the round closes)."""
    nonce = _held_nonce(session, table.pk)
    return _LIVE_LINK.first(table.pk, nonce, Round.Status.COMPLETE) if nonce else None


def session_link_with_table(session: SessionBase, table_id: int) -> tuple[bool, BankerLink | None]:
    """(whether the session holds a link for the table, the live one with its table, round
    and tournament or None): :func:`session_link` for a table not read yet."""
    nonce = _held_nonce(session, table_id)
    if not nonce:
        return False, None
    return True, _LIVE_LINK_WITH_TABLE.first(table_id, nonce, Round.Status.COMPLETE)


def _held_nonce(session: SessionBase, table_id: int) -> str | None:
    """The nonce of the link for the table the session was granted, if any."""
    nonce = session.get(SESSION_KEY, {}).get(str(table_id))
    return nonce if nonce and isinstance(nonce, str) else None


def _live_links(*related: str):
    """The live link of a table with this nonce (``build`` of a :class:`PreparedRead`, the
    parameters in the values' order), read with the banker and ``related``."""
    return lambda table_id, nonce, complete: (
        BankerLink.objects.filter(table_id=table_id)
        .filter(nonce=nonce, revoked_at__isnull=True)
        .exclude(table__round__status=complete)
        .select_related("banker", *related)
    )


#: Asked on every request of a console opened by its link (each banker action): compiled once
#: (issue 29: building this query was most of the permission check's CPU).
_LIVE_LINK = PreparedRead(_live_links())
#: The same read with the link's table, round and tournament: a console opened by its link
#: reads its table and checks the link in one statement (issue 29: the banker's post read the
#: table, then the link). The joins only add columns (every link has a table, a round and a
#: tournament): the same link is found or not.
_LIVE_LINK_WITH_TABLE = PreparedRead(_live_links("table__round__tournament"))


#: Bytes of randomness in a link's nonce (``token_urlsafe`` makes 22 characters of 16 bytes).
NONCE_BYTES = 16


@transaction.atomic
def issue_link(
    *, table: Table, banker: User | None = None, carried_from: BankerLink | None = None
) -> BankerLink:
    """A new live link for ``table`` with a random nonce; the previous live link is revoked.

    ``banker`` defaults to the table's banker. The table row is locked so that two organizers
    issuing at once cannot trip the one-live-link-per-table constraint. ``carried_from``: the
    previous round's link this one continues (its printed card opens this table).
    """
    table = Table.objects.select_for_update().get(pk=table.pk)
    revoke_link(table=table)
    return BankerLink.objects.create(
        table=table,
        banker=banker if banker is not None else table.banker,
        nonce=secrets.token_urlsafe(NONCE_BYTES),
        carried_from=carried_from,
    )


def revoke_link(*, table: Table) -> int:
    """Revoke the table's live link (if any) at once; returns how many links were revoked."""
    return BankerLink.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def live_link(table: Table) -> BankerLink | None:
    return BankerLink.objects.filter(table=table, revoked_at__isnull=True).first()


def link_path(link: BankerLink) -> str:
    """The site-relative URL of a link (``/b/<token>/``); make it absolute with the request."""
    return reverse("banker_link", args=[make_token(link)])


class LinkState(enum.Enum):
    LIVE = "live"
    REVOKED = "revoked"  # someone revoked it (a new link, another banker)
    ROUND_CLOSED = "round_closed"  # nobody revoked it: its round is over (and none follows)
    INVALID = "invalid"


def resolve(token: str) -> tuple[LinkState, BankerLink | None]:
    """What a token from a URL is worth: a live link, a revoked one, one whose round closed,
    or nothing of ours."""
    named = read_token(token)
    if named is None:
        return LinkState.INVALID, None
    table_id, nonce = named
    link = (
        BankerLink.objects.filter(table_id=table_id, nonce=nonce)
        .select_related("table__round")
        .first()
    )
    if link is None:
        return LinkState.INVALID, None
    live = link.is_live and link.table.round.status != Round.Status.COMPLETE
    if not live and link.is_live:  # its round closed: a carried-over link takes over, if any
        successor = _successor(link)
        if successor is not None:
            return LinkState.LIVE, successor
        return LinkState.ROUND_CLOSED, link
    return (LinkState.LIVE if live else LinkState.REVOKED), link


def _successor(link: BankerLink) -> BankerLink | None:
    """The live link that carries ``link`` over into a round still open (following the chain
    round by round); None once someone revoked it or the banker changed."""
    seen = {link.pk}
    while True:
        link = (
            BankerLink.objects.filter(carried_from=link, revoked_at__isnull=True)
            .select_related("table__round")
            .first()
        )
        if link is None or link.pk in seen:
            return None
        if link.table.round.status != Round.Status.COMPLETE:
            return link
        seen.add(link.pk)


@transaction.atomic
def restore_link(*, table: Table) -> BankerLink | None:
    """Undo a revocation: the newest revoked link works again, unless a newer one was issued."""
    if BankerLink.objects.filter(table=table, revoked_at__isnull=True).exists():
        return None
    link = BankerLink.objects.filter(table=table).order_by("-created_at", "-pk").first()
    if link is None:
        return None
    link.revoked_at = None
    link.save(update_fields=["revoked_at"])
    return link
