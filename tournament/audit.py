"""The audit log: every staff change to players, seating, results, roles, links, penalties, time.

Storage is django-auditlog: it records each changed row of a registered model with its
before → after values and the person (its middleware knows the request's user, so admin edits
leave a trace too). This module adds what a championship needs on top: the tournament every
entry belongs to (``get_additional_data()`` of the models), the staff action it was part of and
the reason given, via :func:`action` around a service's writes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass

from auditlog.context import disable_auditlog
from auditlog.diff import model_instance_diff
from auditlog.models import LogEntry
from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models import Q, QuerySet
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament import audit_words
from tournament.models import Tournament

_current: ContextVar[dict | None] = ContextVar("staff_action", default=None)

#: What a staff action is called on the audit page (the code is stored).
ACTIONS = {
    "staff.appoint": _("Staff appointed"),
    "staff.dismiss": _("Staff removed"),
    "player.delete": _("Player deleted"),
    "player.erase": _("Player's data anonymized"),
    "round.close": _("Round closed"),
    "round.reopen": _("Round reopened"),
    "round.reseat": _("Round seated again"),
    "round.delete": _("Round deleted"),
    "final.seat": _("Final seated"),
    "seat.move": _("Player moved by the head referee"),
    "seat.swap": _("Players swapped by the head referee"),
    "result.amend": _("Counted figures amended"),
    "result.resolve": _("Dispute ruled"),
    "result.reopen": _("Result reopened"),
    "result.reopen_count": _("Count reopened at the table"),
    "result.paper": _("Result entered from the paper sheet"),
    "result.paper.replace": _("Pending result replaced by a paper sheet"),
    "result.count": _("Result counted"),
    "result.dispute": _("Result disputed"),
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
    "signup.settings": _("Sign-up settings changed"),
    "signup.close": _("Sign-up closed early"),
    "signup.move_up": _("Moved up from the waiting list by hand"),
    "signup.withdraw": _("Sign-up withdrawn"),
    "signup.fee": _("Entry fee marked"),
    "signup.erase": _("Sign-up erased"),
}

#: What a write through a page is called when no service named its action (the code is
#: ``page:<namespace>:<url name>``); every page that writes has its name here, in the words of
#: the service's action where the page is one (one wording for both).
PAGE_ACTIONS = {
    f"page:{code}": text for code, text in {
        "organizer:tournament-new": _("Tournament created"),
        "organizer:tournament-settings": _("Tournament settings changed"),
        "organizer:tournament-transition": _("Tournament status changed"),
        "organizer:player-add": _("Player added"),
        "organizer:players-import": _("Players imported"),
        "organizer:player-edit": _("Player edited"),
        "organizer:player-delete": ACTIONS["player.delete"],
        "organizer:player-erase": ACTIONS["player.erase"],
        "organizer:player-check-in": _("Player checked in"),
        "organizer:player-undo-check-in": _("Check-in undone"),
        "organizer:player-drop-out": ACTIONS["player.drop"],
        "organizer:player-undo-drop-out": ACTIONS["player.undo_drop"],
        "organizer:player-new-code": _("New player code issued"),
        "organizer:player-fee-paid": ACTIONS["signup.fee"],
        "organizer:player-incidents": ACTIONS["incident.record"],
        "organizer:desk": _("Late entry at the check-in desk"),
        "organizer:round_create": _("Round created"),
        "organizer:round_seat": _("Round seated"),
        "organizer:round_swap": ACTIONS["seating.swap"],
        "organizer:round_move": ACTIONS["seating.move"],
        "organizer:round_lock": _("Seating locked"),
        "organizer:round_unlock": _("Seating unlocked"),
        "organizer:round_start": _("Round started"),
        "organizer:round_bankers": _("Bankers assigned"),
        "organizer:table_assign_banker": _("Banker assigned"),
        "organizer:table_issue_link": _("Banker link issued"),
        "organizer:table_restore_link": ACTIONS["link.restore"],
        "organizer:table_revoke_link": ACTIONS["link.revoke"],
        "organizer:staff": ACTIONS["staff.appoint"],
        "organizer:staff-remove": ACTIONS["staff.dismiss"],
        "organizer:alternate-rank": ACTIONS["alternate.rank"],
        "organizer:alternate-replace": ACTIONS["alternate.replace"],
        "organizer:signup-settings": ACTIONS["signup.settings"],
        "organizer:signup-close": ACTIONS["signup.close"],
        "organizer:signup-resend": _("Sign-up mail sent again"),
        "organizer:signup-move-up": ACTIONS["signup.move_up"],
        "organizer:signup-erase": ACTIONS["signup.erase"],
        "organizer:outbox-resend": _("Mail sent again"),
        "round_desk:import": _("Tournament imported"),
        "round_desk:screens": _("Hall screen added"),
        "round_desk:screen-mode": _("Hall screen changed"),
        "round_desk:screen-remove": _("Hall screen removed"),
        "round_desk:close-round": ACTIONS["round.close"],
        "round_desk:seat-final": ACTIONS["final.seat"],
        "round_desk:reseat-round": ACTIONS["round.reseat"],
        "round_desk:delete-round": ACTIONS["round.delete"],
        "round_desk:resolve": ACTIONS["result.resolve"],
        "round_desk:reopen": ACTIONS["result.reopen"],
        "round_desk:extra-time": ACTIONS["time.extra"],
        "round_desk:delay-round": ACTIONS["time.delay"],
        "round_desk:reopen-round": ACTIONS["round.reopen"],
        "round_desk:move-player": ACTIONS["seat.move"],
        "round_desk:swap-players": ACTIONS["seat.swap"],
        "round_desk:paper": ACTIONS["result.paper"],
        "round_desk:confirm-code": ACTIONS["result.confirm"],
        "banker:console-main": _("Console action"),
        "banker:console-check": _("Console action"),
        "banker:console-count": _("Count entered at the table"),
        "banker:console-confirm": _("Result confirmed at the table"),
        "banker:console-dispute": _("Result disputed at the table"),
        "banker:console-reopen-count": ACTIONS["result.reopen_count"],
        "table-events": _("Console action"),
        "table-banker": _("Banker assigned"),
        "table-link": _("Banker link issued"),
    }.items()
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


def save_known(instance: models.Model, *, before: models.Model) -> None:
    """Save a registered row whose state before the change the caller read in this
    transaction, under a lock (a result under its game's): the entry's "before" is that copy
    (``copy.copy`` of the row as read), where django-auditlog would read the row once more."""
    with disable_auditlog():
        instance.save()
    changes = model_instance_diff(
        before, instance, use_json_for_changes=getattr(settings, "AUDITLOG_STORE_JSON_CHANGES", False)
    )
    if changes:
        LogEntry.objects.log_create(instance, action=LogEntry.Action.UPDATE, changes=changes)


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
        what = page_action(request.path_info)
        if what is None:
            return self.get_response(request)
        user = getattr(request, "user", None)
        with action(tournament=None, actor=user if user is not None else None, what=what):
            return self.get_response(request)


#: The action named by each written path, per URL resolver (a new one after the URLconf
#: changes): Django resolves the path once more to find the view, so each banker post resolved
#: it twice (issue 29: 1.4 % of a post). Bounded: paths carry ids, tokens, anything typed.
_NAMED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_NAMED_MOST = 4096


def page_action(path: str) -> str | None:
    """The action a write at ``path`` is (``admin.edit`` in the admin, else ``page:`` and the
    URL's name); None for a path no view answers."""
    from django.urls import Resolver404, get_resolver, get_urlconf

    resolver = get_resolver(get_urlconf())
    named = _NAMED.get(resolver)
    if named is None:
        named = _NAMED.setdefault(resolver, {})
    if path in named:
        return named[path]
    try:
        match = resolver.resolve(path)
    except Resolver404:
        what = None
    else:
        what = "admin.edit" if "admin" in match.namespaces else f"{PAGE_PREFIX}{match.view_name}"
    if len(named) >= _NAMED_MOST:
        named.clear()
    named[path] = what
    return what


def filter_choices() -> list[tuple[str, str]]:
    """The audit page's action filter: every named action and every page that writes, by
    their words (a page whose words a named action already has is left out)."""
    choices: dict[str, str] = {}
    for code, text in {**ACTIONS, **PAGE_ACTIONS}.items():
        choices.setdefault(str(text), code)
    return sorted(((code, text) for text, code in choices.items()),
                  key=lambda choice: choice[1].casefold())


def same_words(code: str) -> list[str]:
    """Every action code called like ``code`` (a named action and the page it is done on)."""
    words = label(code)
    return [other for other in (*ACTIONS, *PAGE_ACTIONS) if label(other) == words] or [code]


def label(code: str) -> str:
    """What an action code is called on the audit page."""
    if code in ACTIONS:
        return str(ACTIONS[code])
    if code in PAGE_ACTIONS:
        return str(PAGE_ACTIONS[code])
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
    kind: str = ""  # what was changed (the model's name in words)
    words: list[str] = dataclasses.field(default_factory=list)  # the changes in words


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
            Q(additional_data__action__in=same_words(what))
            | Q(additional_data__action__startswith=f"{what}.")
        )
    if actor:
        rows = rows.filter(actor__username__iexact=actor)
    if model:
        rows = rows.filter(content_type__model=model)
    return rows.order_by("-timestamp", "-pk")


def lines(rows) -> list[Line]:
    rows = list(rows)
    words = audit_words.Words(rows)
    out = []
    for entry in rows:
        data = entry.additional_data or {}
        code = data.get("action", "")
        changes = []
        for field, pair in (entry.changes_dict or {}).items():
            if isinstance(pair, list | tuple) and len(pair) == 2:
                changes.append((field, str(pair[0]), str(pair[1])))
        model = entry.content_type.model_class() if entry.content_type_id else None
        out.append(
            Line(
                at=entry.timestamp,
                actor=entry.actor.get_username() if entry.actor else data.get("actor_name", ""),
                action=code,
                action_label=label(code) if code else str(_("Change by the system")),
                target=words.target(entry),
                model=entry.content_type.model if entry.content_type_id else "",
                changes=changes,
                reason=data.get("reason", ""),
                kind=str(capfirst(model._meta.verbose_name)) if model is not None else "",
                words=[words.change(model, field, before, after)
                       for field, before, after in changes if words.shown(model, field)
                       and words.value(model, field, before) != words.value(model, field, after)],
            )
        )
    return out


def export(tournament: Tournament, *,
           target_keys: Mapping[tuple[str, int], dict] | None = None) -> list[dict]:
    """The audit log as plain data for the tournament's export. ``target_keys`` names an
    entry's target in words that survive a move ((model, id) → e.g. a placement's round,
    table and player key): an id does not, the importing server gives its rows new ones."""
    rows = list(entries(tournament).order_by("timestamp", "pk"))
    exported = []
    for entry, line in zip(rows, lines(rows), strict=True):
        row = {
            "at": line.at.isoformat(),
            "actor": line.actor,
            "action": line.action,
            "target": line.target,
            "model": line.model,
            "changes": [list(change) for change in line.changes],
            "reason": line.reason,
        }
        key = (target_keys or {}).get((line.model, entry.object_id))
        if key is not None:
            row["target_key"] = key
        exported.append(row)
    return exported


def import_entries(tournament: Tournament, rows: list, *,
                   target: Callable[[dict], tuple[type[models.Model], int] | None] | None = None,
                   ) -> int:
    """The exported log of a tournament moved from another server (the event laptop): the
    entries keep their time, action, reason, target and changes; the actor is the user of the
    same name here when there is one (the name is kept either way); each is marked imported.

    An entry is filed under the row ``target(row)`` names here (model, id: the importer finds
    it by the entry's ``target_key``, e.g. the placement an amendment changed, which
    ``manage.py verify`` looks for), else under the tournament (an older export's entries)."""

    from django.contrib.auth import get_user_model
    from django.contrib.contenttypes.models import ContentType

    kind = ContentType.objects.get_for_model(Tournament)
    users = {user.get_username(): user for user in get_user_model().objects.filter(
        username__in={row.get("actor") for row in rows if isinstance(row, dict)})}
    made = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        try:
            at = dt.datetime.fromisoformat(str(row.get("at")))
        except ValueError:
            continue
        actor = str(row.get("actor") or "")[:150]
        data = {"tournament": tournament.pk, "imported": True, "actor_name": actor}
        if row.get("action"):
            data["action"] = str(row["action"])[:100]
        if row.get("reason"):
            data["reason"] = str(row["reason"])[:1000]
        changes = {str(c[0]): [str(c[1]), str(c[2])] for c in row.get("changes") or []
                   if isinstance(c, list) and len(c) == 3}
        found = target(row) if target is not None else None
        content_type, pk = (
            (ContentType.objects.get_for_model(found[0]), found[1]) if found is not None
            else (kind, tournament.pk)
        )
        made.append(LogEntry(
            content_type=content_type, object_pk=str(pk), object_id=pk,
            object_repr=str(row.get("target") or "")[:200], action=LogEntry.Action.UPDATE,
            changes=changes, actor=users.get(actor), timestamp=at, additional_data=data))
    LogEntry.objects.bulk_create(made)  # bulk: no signal stamps them as this import's own
    return len(made)
