"""The banker's pages: the tables a banker runs."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament import roles, selectors

from . import console


@login_required
@require_GET
def my_tables(request: HttpRequest) -> HttpResponse:
    if not (roles.is_banker(request.user) or roles.is_organizer(request.user)):
        raise PermissionDenied
    return render(
        request,
        "referee/my_tables.html",
        {"tables": selectors.tables_banked_by(request.user)},
    )


def table_console(request: HttpRequest, table_id: int) -> HttpResponse:
    """The banker's console of one table (see :mod:`referee.console`)."""
    return console.page(request, table_id)
