"""Bankers of a round's tables: who banks which table (one table per banker and round), the
accounts made for new bankers, and each table's private link (see :mod:`tournament.banker_links`)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournament import audit, banker_links, errors, selectors, staff
from tournament.models import BankerLink, Round, StaffRole, Table, Tournament


def carry_over_bankers(*, round_: Round, tables: Sequence[Table]) -> list[Table]:
    """By default a banker keeps the same table number in the next round (and gets a link);
    the organizer changes whom they like. Returns the tables that got their banker this way."""
    previous = (
        Round.objects.filter(tournament_id=round_.tournament_id, number__lt=round_.number)
        .order_by("-number").first()
    )
    if previous is None:
        return []
    before = dict(
        Table.objects.filter(round=previous, banker__isnull=False)
        .values_list("number", "banker_id")
    )
    busy = {t.banker_id for t in tables if t.banker_id}
    old_links = {
        (link.table.number, link.banker_id): link
        for link in BankerLink.objects.filter(
            table__round=previous, revoked_at__isnull=True
        ).select_related("table")
    }
    carried = []
    for table in tables:
        banker_id = before.get(table.number)
        if table.banker_id is None and banker_id and banker_id not in busy:
            Table.objects.filter(pk=table.pk).update(banker_id=banker_id)
            table.banker_id = banker_id
            busy.add(banker_id)
            banker_links.issue_link(  # the printed card of the last round opens this table
                table=table, banker=table.banker,
                carried_from=old_links.get((table.number, banker_id)),
            )
            carried.append(table)
    return carried


def get_or_create_banker(*, username: str, tournament: Tournament) -> User:
    """The user called ``username`` (any case), created on the fly as a banker if new.

    A new banker gets no usable password: the private table link is how they sign in.
    """
    username = staff.clean_username(username)
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        staff.check_new_username(username)
        user = User(username=username)
        user.set_unusable_password()
        user.save()
    staff.ensure_role(tournament=tournament, user=user, role=StaffRole.Role.BANKER)
    return user


def candidate_banker(*, tournament: Tournament, user_id: int) -> User:
    """The banker of ``tournament`` with this id; any other id is unknown here (the answer
    names no account outside the tournament: ids are no directory of every account)."""
    user = selectors.banker_candidates(tournament).filter(pk=user_id).first()
    if user is None:
        raise errors.UnknownBanker(errors.UNKNOWN_BANKER, params={"banker": user_id})
    return user


def banker_by_name(*, tournament: Tournament, username: str, create: bool) -> User:
    """The tournament's banker called ``username`` (any case), or with ``create`` a new account
    of that name. Accounts outside the tournament are neither found nor given a role here
    (appointing one is the staff page's step), so the answer does not tell them apart from
    names that do not exist — unless a new account is asked for under a taken name."""
    found = (selectors.banker_candidates(tournament)
             .filter(username__iexact=(username or "").strip()).first())
    if found is not None:
        return found
    if not create:
        raise errors.UnknownBanker(errors.UNKNOWN_BANKER, params={"banker": username[:150]})
    username = staff.clean_username(username)
    if User.objects.filter(username__iexact=username).exists():
        raise errors.AccountExists(errors.BANKER_NAME_TAKEN, params={"username": username})
    return get_or_create_banker(username=username, tournament=tournament)


@transaction.atomic
def assign_banker(*, table: Table, banker: User | None) -> Table:
    """Make ``banker`` the table's banker (``None``: nobody), also mid-round.

    A change of banker revokes the table's live link and issues a new one for the new banker,
    so the old banker's link (and every session opened with it) stops working at once. One
    banker runs one table per round.
    """
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    round_ = table.round
    if round_.status == Round.Status.COMPLETE:
        raise errors.RoundComplete(errors.BANKER_ROUND_COMPLETE, params={"number": round_.number})
    if banker is not None:
        busy = (
            Table.objects.filter(round=round_, banker=banker).exclude(pk=table.pk).first()
        )
        if busy is not None:
            raise errors.BankerUnavailable(
                errors.BANKER_BUSY,
                params={"banker": banker.get_username(), "table": busy.number},
            )
    changed = table.banker_id != (banker.pk if banker else None)
    table.banker = banker
    table.save(update_fields=["banker"])
    if banker is not None:
        staff.ensure_role(
            tournament=round_.tournament, user=banker, role=StaffRole.Role.BANKER
        )
    if changed:
        banker_links.revoke_link(table=table)
        if banker is not None:
            banker_links.issue_link(table=table, banker=banker)
    return table


def issue_link(*, table: Table, banker: User | None = None) -> BankerLink:
    """A fresh private link for the table (revoking the live one); see :mod:`.banker_links`."""
    return banker_links.issue_link(table=table, banker=banker)


def revoke_link(*, table: Table) -> int:
    """Revoke the table's live link (saved row by row, so the audit log keeps before → after)."""
    links = list(BankerLink.objects.filter(table=table, revoked_at__isnull=True))
    with audit.action(tournament=table.round.tournament_id, actor=None, what="link.revoke"):
        for link in links:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
    return len(links)


def restore_link(*, table: Table) -> BankerLink | None:
    with audit.action(tournament=table.round.tournament_id, actor=None, what="link.restore"):
        return banker_links.restore_link(table=table)
