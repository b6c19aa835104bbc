"""Who may do what: the one module that decides every permission.

Authority is per tournament (``StaffRole``); only a superuser reaches every tournament. Views,
API endpoints, prints, exports and jobs ask :func:`can` / :func:`check` with one of the actions
below; the role × action table (:data:`GRANTS`) is the whole policy. A table's console is
decided by :func:`can_run_table` (its banker, a live link in the session, or the tournament's
head referee or organizer).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import StrEnum

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, resolve_url
from django.utils.http import urlencode
from django_htmx.http import HttpResponseClientRedirect
from rest_framework.permissions import SAFE_METHODS, BasePermission

from config.errors import PermissionDenied

from .errors import REFUSED
from .models import StaffRole, Table, Tournament

Role = StaffRole.Role


class Action(StrEnum):
    VIEW = "view"  # the tournament's staff pages (overview, lists, player pages)
    SETTINGS = "settings"  # settings, status, export, the audit log
    STAFF = "staff"  # appoint and remove staff
    PLAYERS = "players"  # add, edit, import, drop, delete players
    CHECK_IN = "check_in"  # the check-in desk and late entry
    ROUNDS = "rounds"  # create, seat, edit, lock, start, close rounds; the final; the crown
    BANKERS = "bankers"  # assign bankers, issue and revoke their links
    PRINT = "print"  # printed documents without secrets (score sheets, seating, standings)
    PRINT_PRIVATE = "print_private"  # table cards (banker links), confirmation-code slips
    DESK = "desk"  # the round desk (every table of the running round)
    RULE = "rule"  # disputes, reopening results, paper results, time, penalties, seat moves
    EXPORT = "export"  # the whole tournament as JSON (confirmation codes included)
    AUDIT = "audit"  # the audit log
    CREATE = "create"  # a new tournament: any staff account (see may_create_tournaments)


GRANTS: dict[str, frozenset[Action]] = {
    Role.ORGANIZER: frozenset(Action) - {Action.CREATE},
    Role.HEAD_REFEREE: frozenset(
        {Action.VIEW, Action.PRINT, Action.PRINT_PRIVATE, Action.DESK, Action.RULE, Action.AUDIT}
    ),
    Role.DESK: frozenset({Action.VIEW, Action.CHECK_IN, Action.PRINT, Action.DESK}),
    Role.BANKER: frozenset(),
}


_CACHE = "_staff_roles_by_tournament"


def _active(user: User | AnonymousUser) -> bool:
    return bool(user.is_authenticated and user.is_active)


def roles_of(user: User | AnonymousUser, tournament: Tournament | int) -> frozenset[str]:
    """The person's roles in the tournament (cached on the user object for the request)."""
    if not _active(user):
        return frozenset()
    if user.is_superuser:
        return frozenset(Role.values)
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    cache = user.__dict__.setdefault(_CACHE, {})
    if tournament_id not in cache:
        cache[tournament_id] = frozenset(
            StaffRole.objects.filter(user=user, tournament_id=tournament_id).values_list(
                "role", flat=True
            )
        )
    return cache[tournament_id]


def forget(user: User | AnonymousUser) -> None:
    """Drop the cached roles (after appointing or removing someone in the same request)."""
    user.__dict__.pop(_CACHE, None)


def can(user: User | AnonymousUser, action: Action, tournament: Tournament | int) -> bool:
    return any(action in GRANTS[role] for role in roles_of(user, tournament))


def check(user: User | AnonymousUser, action: Action, tournament: Tournament | int | None) -> None:
    """Refuse with a 403 in German and English unless the person may do this here."""
    if action is Action.CREATE:
        allowed = may_create_tournaments(user)
    else:
        allowed = tournament is not None and can(user, action, tournament)
    if not allowed:
        raise PermissionDenied(REFUSED, code="not_your_tournament")


def has_role(user: User | AnonymousUser, role: str, tournament: Tournament | int) -> bool:
    return role in roles_of(user, tournament)


def is_head_referee(user: User | AnonymousUser, tournament: Tournament | int) -> bool:
    return has_role(user, Role.HEAD_REFEREE, tournament) or has_role(
        user, Role.ORGANIZER, tournament
    )


def may_create_tournaments(user: User | AnonymousUser) -> bool:
    """Staff accounts may start a tournament of their own (and become its organizer)."""
    return _active(user) and (user.is_staff or user.is_superuser)


def has_staff_page(user: User | AnonymousUser) -> bool:
    """The staff's start page: for those who may create a tournament or staff one."""
    return may_create_tournaments(user) or staffed_tournaments(user).exists()


def staffed_tournaments(user: User | AnonymousUser) -> QuerySet[Tournament]:
    """Every tournament the person has a staff role in (all of them for a superuser)."""
    if not _active(user):
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(
        pk__in=StaffRole.objects.filter(user=user).exclude(role=Role.BANKER).values("tournament")
    )


# --- Tables and their consoles -----------------------------------------------------------------


def can_run_table(request: HttpRequest, table: Table) -> bool:
    """The table's banker, a live banker link in this session, or the tournament's referees."""
    from .banker_links import session_grants_table

    user = request.user
    tournament_id = table.round.tournament_id
    if is_head_referee(user, tournament_id):
        return True
    if _active(user) and table.banker_id == user.pk:
        return True
    return session_grants_table(request.session, table)


def runs_as_head_referee(request: HttpRequest, table: Table) -> bool:
    """True when the console is open by the head referee, not the table's own banker (banner)."""
    user = request.user
    if _active(user) and table.banker_id == user.pk:
        return False
    return is_head_referee(user, table.round.tournament_id)


def banked_tables(user: User | AnonymousUser) -> QuerySet[Table]:
    if not _active(user):
        return Table.objects.none()
    return Table.objects.filter(banker=user)


# --- Views --------------------------------------------------------------------------------------


def _to_login(request: HttpRequest) -> HttpResponse:
    target = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': request.get_full_path()})}"
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(target)
    return HttpResponseRedirect(target)


def require(action: Action, *, slug_kwarg: str = "slug") -> Callable:
    """View decorator: log in first; then the tournament named by the URL must allow ``action``.

    The tournament is passed on as ``request.tournament``; an unknown slug is a 404.
    """

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            if not _active(request.user):
                return _to_login(request)
            tournament = get_object_or_404(Tournament, slug=kwargs[slug_kwarg])
            check(request.user, action, tournament)
            request.tournament = tournament
            return view(request, *args, **kwargs)

        wrapped.access_action = action
        return wrapped

    return decorate


def require_login(predicate: Callable[[User], bool] | None = None) -> Callable:
    """View decorator for pages that are not about one tournament (the staff's start page)."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            if not _active(request.user):
                return _to_login(request)
            if predicate is not None and not predicate(request.user):
                raise PermissionDenied(REFUSED, code="not_allowed")
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


# --- The REST API -------------------------------------------------------------------------------


class ApiRule(BasePermission):
    """DRF gate: ``view.access_rules`` maps each operation (DRF's action name) to its Action.

    An operation without a rule is a public read (the view narrows what it shows) and refused
    for anything but GET/HEAD/OPTIONS. With a rule a login is required here; the view then calls
    :func:`authorize` once it knows the tournament.
    """

    message = REFUSED

    def has_permission(self, request, view) -> bool:
        rule = getattr(view, "access_rules", {}).get(getattr(view, "action", None))
        if rule is None:
            return request.method in SAFE_METHODS
        return _active(request.user)


def authorize(view, tournament: Tournament | int) -> None:
    """Check the rule of the view's current operation in ``tournament`` (403 if refused)."""
    rule = getattr(view, "access_rules", {}).get(getattr(view, "action", None))
    if rule is not None:
        check(view.request.user, rule, tournament)


def sees_staff_data(request, tournament: Tournament | int) -> bool:
    """Full names, e-mails, notes, bankers: for the tournament's staff only."""
    return bool(request) and can(request.user, Action.VIEW, tournament)
