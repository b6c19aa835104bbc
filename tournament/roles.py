"""The three roles: organizer (staff), banker (a user assigned to tables), public (anonymous)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

BANKERS_GROUP = "Bankers"
HEAD_REFEREES_GROUP = "Head referees"


def is_organizer(user: User | AnonymousUser) -> bool:
    return bool(user.is_authenticated and user.is_active and user.is_staff)


def is_banker(user: User | AnonymousUser) -> bool:
    """A banker is any active user who banks at least one table, or is in the Bankers group."""
    if not (user.is_authenticated and user.is_active):
        return False
    return user.banked_tables.exists() or user.groups.filter(name=BANKERS_GROUP).exists()


def is_head_referee(user: User | AnonymousUser) -> bool:
    """"Mr. Monopoly": rules on disputes, confirms results; superusers count as one."""
    if not (user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or user.groups.filter(name=HEAD_REFEREES_GROUP).exists()


def can_bank_table(user: User | AnonymousUser, table) -> bool:
    """Only the table's assigned banker, the head referee or an organizer may run its console."""
    if is_organizer(user) or is_head_referee(user):
        return True
    return bool(user.is_authenticated and user.is_active and table.banker_id == user.pk)
