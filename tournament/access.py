"""Who may do what: the one module that decides every permission.

Authority is per tournament (``StaffRole``); only a superuser reaches every tournament. Views,
API endpoints, prints, exports and jobs ask :func:`can` / :func:`check` with one of the actions
below; the role × action table (:data:`GRANTS`) is the whole policy. A table's console is
decided by :func:`can_run_table` (its banker, a live link in the session, or the tournament's
head referee or organizer).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, resolve_url
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django_htmx.http import HttpResponseClientRedirect
from rest_framework.permissions import SAFE_METHODS, BasePermission

from config.errors import PermissionDenied
from tournament.errors import (
    CREATE_REFUSED,
    NOT_YOUR_ROLE,
    NOT_YOUR_TABLE,
    ORGANIZERS_ONLY,
    REFUSED,
    NotYourTable,
)
from tournament.models import StaffRole, Table, Tournament

Role = StaffRole.Role


class Action(StrEnum):
    VIEW = "view"  # the tournament's staff pages (overview, lists, player pages)
    SETTINGS = "settings"  # settings, status, export, the audit log
    STAFF = "staff"  # appoint and remove staff
    PLAYERS = "players"  # add, edit, import, delete players
    CHECK_IN = "check_in"  # the check-in desk and late entry
    DROP_OUT = "drop_out"  # a player drops out (or comes back): told at the desk on the day
    NEW_CODE = "new_code"  # a lost player card: a new personal code (the old card opens nothing)
    ROUNDS = "rounds"  # create, seat, edit, lock, start, close rounds; the final; the crown
    BANKERS = "bankers"  # assign bankers, issue and revoke their links
    PRINT = "print"  # printed documents without secrets (score sheets, seating, standings)
    PRINT_PRIVATE = "print_private"  # table cards (banker links), confirmation-code slips
    DESK = "desk"  # the round desk (every table of the running round)
    RULE = "rule"  # disputes, reopening results, paper results, time, penalties, seat moves
    EXPORT = "export"  # the whole tournament as JSON (confirmation codes included)
    AUDIT = "audit"  # the audit log
    SIGNUPS = "signups"  # the public sign-up: settings, sign-ups, moving up, the outbox
    CREATE = "create"  # a new tournament: any staff account (see may_create_tournaments)


GRANTS: dict[str, frozenset[Action]] = {
    Role.ORGANIZER: frozenset(Action) - {Action.CREATE},
    Role.HEAD_REFEREE: frozenset(
        {Action.VIEW, Action.PRINT, Action.PRINT_PRIVATE, Action.DESK, Action.RULE, Action.AUDIT}
    ),
    Role.DESK: frozenset(
        {Action.VIEW, Action.CHECK_IN, Action.DROP_OUT, Action.NEW_CODE, Action.PRINT, Action.DESK}
    ),
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
        raise _refusal(user, action, tournament)


def permissions(user: User | AnonymousUser, tournament: Tournament | int) -> dict[str, bool]:
    """Every action's answer for the person here, for templates (``may.drop_out``): a page
    offers only what its reader may do."""
    return {action.value: can(user, action, tournament) for action in Action}


def _role_names(roles) -> object:
    """The roles' names in the reader's language, in the order of :class:`StaffRole.Role`
    (lazy: a refusal is worded in German and in English)."""
    labels = [label for value, label in Role.choices if value in roles]
    return format_lazy(", ".join(["{}"] * len(labels)), *labels)


def _refusal(user: User | AnonymousUser, action: Action, tournament) -> PermissionDenied:
    """No role here: ask the organizer; a role that does not allow this: say whose work it is
    (not "no role", which a desk volunteer would rightly dispute)."""
    roles = roles_of(user, tournament) if tournament is not None else frozenset()
    if action is Action.CREATE:
        return PermissionDenied(CREATE_REFUSED, code="not_allowed")
    if not roles:
        return PermissionDenied(REFUSED, code="not_your_tournament")
    allowed = {role for role, actions in GRANTS.items() if action in actions}
    if allowed == {Role.ORGANIZER}:
        return PermissionDenied(ORGANIZERS_ONLY, code="not_your_role",
                                params={"roles": _role_names(roles)})
    return PermissionDenied(NOT_YOUR_ROLE, code="not_your_role",
                            params={"roles": _role_names(roles), "allowed": _role_names(allowed)})


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


def landing(user: User | AnonymousUser) -> str:
    """Where the person starts after logging in: where their work is.

    Organizers (and accounts that may create tournaments) and anyone staffing several
    tournaments get the staff's start page; a head referee of one tournament its round desk, a
    desk volunteer its check-in desk; a banker "My tables"; anybody else the public home page.
    """
    if not _active(user):
        return reverse("home")
    if may_create_tournaments(user):
        return reverse("organizer:dashboard")
    roles = _roles_by_tournament(user)
    if len(roles) > 1 or any(Role.ORGANIZER in held for held in roles.values()):
        return reverse("organizer:dashboard")
    if roles:
        ((slug, held),) = roles.items()
        return _work_page(slug, held)
    if StaffRole.objects.filter(user=user, role=Role.BANKER).exists() or (
        banked_tables(user).exists()
    ):
        return reverse("banker:tables")
    return reverse("home")


def work_pages(user: User | AnonymousUser) -> dict[str, str]:
    """Each staffed tournament's page where the person works in it (slug → URL), for the staff's
    start page: a head referee's link opens the round desk, a desk volunteer's the check-in
    desk — as :func:`landing` does for one tournament. One query."""
    if may_create_tournaments(user):
        return {}  # the tournament's own page, for every tournament
    return {slug: _work_page(slug, held) for slug, held in _roles_by_tournament(user).items()}


def _roles_by_tournament(user: User) -> dict[str, set[str]]:
    """The staff roles (bankers aside) the person holds, by tournament slug."""
    roles: dict[str, set[str]] = {}
    for slug, role in (StaffRole.objects.filter(user=user).exclude(role=Role.BANKER)
                       .values_list("tournament__slug", "role")):
        roles.setdefault(slug, set()).add(role)
    return roles


def _work_page(slug: str, roles: set[str]) -> str:
    if Role.ORGANIZER in roles:
        return reverse("organizer:tournament", kwargs={"slug": slug})
    if Role.HEAD_REFEREE in roles:
        return reverse("round_desk:desk", kwargs={"slug": slug})
    return reverse("organizer:desk", kwargs={"slug": slug})


@dataclass(frozen=True)
class NavLink:
    url: str
    label: str


@dataclass(frozen=True)
class TournamentLinks:
    name: str
    links: list[NavLink]


@dataclass(frozen=True)
class StaffNav:
    """The header's staff part: ``links`` stand in the header itself; with several
    tournaments their desks sit in one menu, a group per tournament (six links with long
    names took a third of a phone's first screen)."""

    links: list[NavLink]
    tournaments: list[TournamentLinks]

    def __bool__(self) -> bool:
        return bool(self.links or self.tournaments)


def staff_links(user: User | AnonymousUser) -> StaffNav:
    """The header's links to each role's own pages: the staff's start page, and per tournament
    not yet finished the round desk (head referee, organizer) and the check-in desk (desk)."""
    if not _active(user):
        return StaffNav([], [])
    links = []
    if has_staff_page(user):
        links.append(NavLink(reverse("organizer:dashboard"), gettext("Organizer")))
    rows = list(
        StaffRole.objects.filter(user=user).exclude(role=Role.BANKER)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .values_list("tournament_id", "tournament__slug", "tournament__name")
        .distinct().order_by("-tournament__date", "tournament_id")[:3]
    )
    groups: list[TournamentLinks] = []
    for tournament_id, slug, name in rows:
        desks = []
        if can(user, Action.DESK, tournament_id):
            desks.append(NavLink(reverse("round_desk:desk", kwargs={"slug": slug}),
                                 gettext("Round desk")))
        if can(user, Action.CHECK_IN, tournament_id):
            desks.append(NavLink(reverse("organizer:desk", kwargs={"slug": slug}),
                                 gettext("Check-in desk")))
        if desks:
            groups.append(TournamentLinks(name, desks))
    if len(groups) == 1:
        return StaffNav(links + groups[0].links, [])
    return StaffNav(links, groups)


def owns_job(user: User | AnonymousUser, job: Mapping | None) -> bool:
    """A background job's state (progress, outcome) is for whoever started it, recorded as its
    ``user``, and the superuser; a job id is no secret to rely on."""
    if job is None or not _active(user):
        return False
    return user.is_superuser or job.get("user") == user.pk


# --- Tables and their consoles -----------------------------------------------------------------


def can_run_table(request: HttpRequest, table: Table) -> bool:
    """The table's banker, a live banker link in this session, or the tournament's referees."""
    user = request.user
    # The table's banker first: known from the table, while the roles take a query.
    if _active(user) and table.banker_id == user.pk:
        return True
    if is_head_referee(user, table.round.tournament_id):
        return True
    return _session_link(request, table) is not None


def _session_link(request: HttpRequest, table: Table):
    """The session's live link for the table, read once per request (the permission check
    and the author of the write ask the same)."""
    from tournament.banker_links import session_link

    known = request.__dict__.setdefault("_banker_links", {})
    if table.pk not in known:
        known[table.pk] = session_link(request.session, table)
    return known[table.pk]


def table_by_link(request: HttpRequest, table_id: int) -> Table | None:
    """The table of a console request read with the session's live link for it, in one
    statement (issue 29: a banker's post read the table, then the link); the link is kept for
    the permission check and the author (:func:`_session_link` asks no more). None when the
    session holds no live link for it: the caller reads the table itself."""
    from tournament.banker_links import session_link_with_table

    held, link = session_link_with_table(request.session, table_id)
    if held:  # asked: the answer is the session's link for the table, live or not
        request.__dict__.setdefault("_banker_links", {})[table_id] = link
    return link.table if link is not None else None


def table_author(request: HttpRequest, table: Table) -> User | None:
    """Who writes at this table: the logged-in banker or referee, else the holder of the
    session's banker link (a link opens the console without a login; its writes are still
    someone's: the banker it was issued to)."""
    user = request.user
    if _active(user) and (table.banker_id == user.pk
                          or is_head_referee(user, table.round.tournament_id)):
        return user
    link = _session_link(request, table)
    if link is not None and link.banker is not None:
        return link.banker
    return user if user.is_authenticated else None


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
                refusal = CREATE_REFUSED if predicate is may_create_tournaments else REFUSED
                raise PermissionDenied(refusal, code="not_allowed")
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


# --- The REST API -------------------------------------------------------------------------------

#: Actions decided without a tournament (who may start one): the gate asks the view for none.
ANYWHERE = frozenset({Action.CREATE})


class TableRule(StrEnum):
    """Rules decided per table, not per tournament (a banker link needs no login)."""

    RUN = "run_table"  # the table's banker, a live link in the session, its referees


def api_rule(view) -> Action | TableRule | None:
    """The rule of the view's current operation (DRF's action name; ``None`` for an APIView)."""
    return getattr(view, "access_rules", {}).get(getattr(view, "action", None))


class ApiRule(BasePermission):
    """The API's one gate: ``view.access_rules`` maps each operation to its rule, and the view
    says where its tournament (or table) comes from; the gate decides, no view has to remember.

    An operation without a rule is a public read (the view narrows what it shows) and refused
    for anything but GET/HEAD/OPTIONS. An :class:`Action` needs a login, then the tournament of
    ``view.get_access_tournament()`` (a Tournament or its id; a 404 there is the view's answer
    for an unknown one) must allow it; an action of :data:`ANYWHERE` is decided without one.
    :attr:`TableRule.RUN` asks :func:`can_run_table` of ``view.get_access_table()``.
    ``tests/tournament/test_api_gate.py`` fails the suite for a view that misses either.
    """

    message = REFUSED

    def has_permission(self, request, view) -> bool:
        rule = api_rule(view)
        if rule is None:
            return request.method in SAFE_METHODS
        if rule is TableRule.RUN:
            if not can_run_table(request._request, view.get_access_table()):
                raise NotYourTable(NOT_YOUR_TABLE)
            return True
        if not _active(request.user):
            return False
        check(request.user, rule, None if rule in ANYWHERE else view.get_access_tournament())
        return True


def sees_staff_data(request, tournament: Tournament | int) -> bool:
    """Full names, e-mails, notes, bankers: for the tournament's staff only."""
    return bool(request) and can(request.user, Action.VIEW, tournament)
