"""The audit log: every staff change to players, seating, results, roles, links, penalties, time.

Storage is django-auditlog: it records each changed row of a registered model with its
before → after values and the person (its middleware knows the request's user, so admin edits
leave a trace too). This module adds what a championship needs on top: the tournament every
entry belongs to (``get_additional_data()`` of the models), the staff action it was part of and
the reason given, via :func:`action` around a service's writes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from auditlog.models import LogEntry
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from .models import Tournament

_current: ContextVar[dict | None] = ContextVar("staff_action", default=None)

#: What a staff action is called on the audit page (the code is stored).
ACTIONS = {
    "staff.appoint": _("Staff appointed"),
    "staff.dismiss": _("Staff removed"),
    "player.delete": _("Player deleted"),
    "player.erase": _("Player's data anonymized"),
    "round.close": _("Round closed"),
    "round.reopen": _("Round reopened"),
    "seat.move": _("Player moved by the head referee"),
    "result.amend": _("Counted figures amended"),
    "result.resolve": _("Dispute ruled"),
    "result.reopen": _("Result reopened"),
    "result.paper": _("Result entered from the paper sheet"),
    "result.confirm": _("Result confirmed"),
    "time.extra": _("Extra minutes for a table"),
    "time.delay": _("Round start delayed"),
    "incident.record": _("Incident recorded"),
    "crown": _("Winner crowned"),
    "crown.undo": _("Crowning undone"),
    "link.revoke": _("Banker link revoked"),
    "link.restore": _("Banker link restored"),
    "seating.move": _("Player moved"),
    "seating.swap": _("Players swapped"),
    "admin.edit": _("Direct change (admin)"),
    "player.drop": _("Player dropped out"),
    "player.undo_drop": _("Drop-out undone"),
    "alternate.rank": _("Alternate ranked"),
    "alternate.replace": _("No-show replaced by an alternate"),
}

#: Staff pages whose writes get their page's name as the action when the service names none
#: (``AuditContextMiddleware``); the label is the page's, the code is ``page:<url name>``.
PAGE_PREFIX = "page:"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@contextlib.contextmanager
def action(
    *, tournament: Tournament | int | None, actor: User | None, what: str, reason: str = "",
    fallback: bool = False,
) -> Iterator[None]:
    """Every row a registered model changes inside belongs to this staff action.

    Nested, the inner (more specific) action wins; the actor of the outer one stays if the
    inner names none (a service called by a page knows what it does, the page who did it).
    A ``fallback`` action (a step other services build on, like a confirmation) names the
    change only when no service around it named one.
    """
    tournament_id = tournament if isinstance(tournament, int | None) else tournament.pk
    outer = _current.get() or {}
    if fallback and outer and not outer["action"].startswith(PAGE_PREFIX):
        yield
        return
    token = _current.set(
        {
            "tournament": tournament_id if tournament_id is not None else outer.get("tournament"),
            "actor": actor if actor is not None and actor.is_authenticated
            else outer.get("actor"),
            "action": what,
            "reason": reason or outer.get("reason", ""),
        }
    )
    try:
        yield
    finally:
        _current.reset(token)


def stamp(sender, instance: LogEntry, **kwargs) -> None:
    """pre_save of LogEntry: add the tournament, the staff action and its reason."""
    data = dict(instance.additional_data or {})
    current = _current.get()
    if current is not None:
        if current["tournament"] is not None:
            data.setdefault("tournament", current["tournament"])
        data["action"] = current["action"]
        if current["reason"]:
            data["reason"] = current["reason"]
        if current["actor"] is not None:
            instance.actor = current["actor"]
    instance.additional_data = data or None


def note(*, tournament: Tournament | int, actor: User | None, what: str, reason: str = "",
         obj=None, changes: dict | None = None, fallback: bool = False) -> LogEntry:
    """An entry for an action that changes no registered row (e.g. a reprint decision)."""
    from django.contrib.contenttypes.models import ContentType

    target = obj if obj is not None else (
        tournament if isinstance(tournament, Tournament) else Tournament.objects.get(pk=tournament)
    )
    with action(tournament=tournament, actor=actor, what=what, reason=reason,
                fallback=fallback):
        return LogEntry.objects.create(
            content_type=ContentType.objects.get_for_model(type(target)),
            object_pk=str(target.pk),
            object_id=target.pk,
            object_repr=str(target)[:200],
            action=LogEntry.Action.UPDATE,
            changes=changes or {},
            actor=actor if actor is not None and actor.is_authenticated else None,
        )


class AuditContextMiddleware:
    """Every write through a page is a staff action: the admin's as ``admin.edit``, a staff
    page's or API call's as ``page:<url name>`` unless its service names a more specific one.
    Only changes made by the system itself (deadlines, imports by command) carry no action."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in WRITES:
            return self.get_response(request)
        from django.urls import Resolver404, resolve

        try:
            match = resolve(request.path_info)
        except Resolver404:
            return self.get_response(request)
        user = getattr(request, "user", None)
        what = "admin.edit" if "admin" in match.namespaces else (
            f"{PAGE_PREFIX}{match.view_name}")
        with action(tournament=None, actor=user if user is not None else None, what=what):
            return self.get_response(request)


def label(code: str) -> str:
    """What an action code is called on the audit page."""
    if code in ACTIONS:
        return str(ACTIONS[code])
    if code.startswith(PAGE_PREFIX):
        name = code[len(PAGE_PREFIX):].rsplit(":", 1)[-1]
        return name.replace("-", " ").replace("_", " ").capitalize()
    return code


# --- Reading ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    at: object
    actor: str
    action: str
    action_label: str
    target: str
    model: str
    changes: list[tuple[str, str, str]]
    reason: str


def entries(
    tournament: Tournament, *, what: str = "", actor: str = "", model: str = "",
    staff_actions_only: bool = False,
) -> QuerySet[LogEntry]:
    """The tournament's entries, newest first, optionally narrowed (``what`` also matches a
    family: "result" finds every ``result.*`` action)."""
    rows = LogEntry.objects.filter(additional_data__tournament=tournament.pk).select_related(
        "actor", "content_type"
    )
    if staff_actions_only:
        rows = rows.filter(additional_data__has_key="action")
    if what:
        rows = rows.filter(
            Q(additional_data__action=what) | Q(additional_data__action__startswith=f"{what}.")
        )
    if actor:
        rows = rows.filter(actor__username__iexact=actor)
    if model:
        rows = rows.filter(content_type__model=model)
    return rows.order_by("-timestamp", "-pk")


def lines(rows) -> list[Line]:
    out = []
    for entry in rows:
        data = entry.additional_data or {}
        code = data.get("action", "")
        changes = []
        for field, pair in (entry.changes_dict or {}).items():
            if isinstance(pair, list | tuple) and len(pair) == 2:
                changes.append((field, str(pair[0]), str(pair[1])))
        out.append(
            Line(
                at=entry.timestamp,
                actor=entry.actor.get_username() if entry.actor else "",
                action=code,
                action_label=label(code) if code else str(_("Change by the system")),
                target=entry.object_repr,
                model=entry.content_type.model if entry.content_type_id else "",
                changes=changes,
                reason=data.get("reason", ""),
            )
        )
    return out


def export(tournament: Tournament) -> list[dict]:
    """The audit log as plain data for the tournament's export."""
    return [
        {
            "at": line.at.isoformat(),
            "actor": line.actor,
            "action": line.action,
            "target": line.target,
            "model": line.model,
            "changes": [list(change) for change in line.changes],
            "reason": line.reason,
        }
        for line in lines(entries(tournament).order_by("timestamp", "pk"))
    ]
