"""Who may run a table's console: an organizer, the assigned banker, or a live banker link."""

from __future__ import annotations

from django.http import HttpRequest

from tournament import roles
from tournament.banker_links import session_grants_table
from tournament.models import Table


def can_run_table(request: HttpRequest, table: Table) -> bool:
    if roles.can_bank_table(request.user, table):
        return True
    return session_grants_table(request.session, table)
