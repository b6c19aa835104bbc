"""A result's history in words, for the head referee's result page.

The audit log files every change by content type and object id; ids of different tables
(results, placements) overlap, so an entry belongs to this result only when both match (or,
for a placement since replaced, when the entry names this result). Values are put in words:
no field names, no "None", times in local time, people by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from auditlog.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee import errors
from referee.feed import amount
from referee.models import GameResult, Placement
from referee.results import write_label
from referee.selectors import STATE_LABELS, public_word
from tournament import audit, audit_words
from tournament.models import Player
from tournament.names import account_name

NOTHING = audit_words.NOTHING
VIA = {
    "player_code": gettext_lazy("the table's code"),
    "head_referee": gettext_lazy("as head referee"),
}
RESULT_FIELDS = {
    "status": gettext_lazy("Status"),
    "dispute_note": gettext_lazy("Dispute"),
    "resolved_note": gettext_lazy("Ruling"),
    "from_paper": gettext_lazy("Source"),
}
PLACEMENT_FIELDS = {
    "place": gettext_lazy("Place"),
    "net_worth": gettext_lazy("Net worth"),
    "bankrupt": gettext_lazy("bankrupt"),
}


@dataclass(frozen=True)
class HistoryLine:
    at: str  # local time
    actor: str
    action: str
    changes: list[str]
    reason: str


def _empty(value) -> bool:
    return value is None or value in ("None", "")


def _local(value) -> str:
    """A stored time (auditlog keeps them naive in UTC) as the hall's local time."""
    return audit_words.local_time(value, time_only=True)


def _word(field: str, value) -> str:
    if _empty(value):
        return NOTHING
    text = str(value)
    if field == "status":  # the table's state by its one name, as the page's chip names it
        return str(STATE_LABELS.get(public_word(text), text))
    if field == "from_paper":
        return _("paper sheet") if text == "True" else _("console")
    if text in ("True", "False"):
        return _("yes") if text == "True" else _("no")
    if field == "net_worth":
        try:
            return amount(int(text))
        except ValueError:
            return text
    if field.endswith("_at"):
        return _local(text)
    return text


def _note_word(code: str, changes: dict) -> str:
    """The head referee's note in a change, named by the action that wrote it."""
    if code == "result.resolve":
        before = (changes.get("status") or [None, None])[0]
        return str(errors.NOTE_RULING if before == GameResult.Status.DISPUTED
                   else errors.NOTE_CONFIRMATION)
    if code == "result.amend":
        return str(errors.NOTE_AMENDED)
    if code == "result.reopen":
        return str(errors.NOTE_REOPENED)
    if code.startswith("result.paper"):
        return str(errors.NOTE_PAPER)
    return str(errors.NOTE_OTHER)


def _result_changes(changes: dict, users: dict[int, User], reason: str,
                    code: str = "") -> list[str]:
    out = []
    status = changes.get("status")
    confirmed = status is not None and status[1] == GameResult.Status.CONFIRMED
    if confirmed:
        by = changes.get("confirmed_by", [None, None])[1]
        via = changes.get("confirmed_via", [None, None])[1]
        who = account_name(users.get(int(by))) if not _empty(by) and str(by).isdigit() else ""
        how = str(VIA[via]) if via in VIA else ""
        text = _("confirmed by %(name)s") % {"name": who} if who else _("confirmed")
        out.append(f"{text} ({how})" if how else text)
    for field, label in RESULT_FIELDS.items():
        if field not in changes or (field == "status" and confirmed):
            continue
        before, after = changes[field]
        if field == "resolved_note" and after == reason:
            continue  # the reason is shown once, at the end of the line
        if field == "resolved_note":
            label = _note_word(code, changes)
        if _word(field, before) != _word(field, after):  # e.g. no note → empty note
            out.append(f"{label}: {_word(field, before)} → {_word(field, after)}")
    return out


def _placement_changes(changes: dict, player: str) -> list[str]:
    out = []
    for field, label in PLACEMENT_FIELDS.items():
        if field not in changes:
            continue
        before, after = changes[field]
        if field == "bankrupt" and "False" in (before, after) and (_empty(before)
                                                                   or _empty(after)):
            continue  # a placement of a player still in the game, made or removed
        out.append(f"{label}: {_word(field, before)} → {_word(field, after)}")
    return [f"{player}: {'; '.join(out)}"] if out and player else out


def entries(result: GameResult):
    """The entries of the game's results, newest first: this result's and its placements' (also
    replaced ones), and those of the results the game had before (a count taken back deletes
    its result, the next count is a new row). Results' entries carry their game since the
    result page's second walk; older ones are matched by the result's id alone."""
    tournament = result.game.table.round.tournament
    kinds = ContentType.objects.get_for_models(GameResult, Placement)
    placements = list(result.placements.values_list("pk", flat=True))
    rows = audit.entries(tournament)
    mine = Q(content_type=kinds[GameResult]) & (
        Q(additional_data__game=result.game_id)
        | (Q(object_id=result.pk) & ~Q(additional_data__has_key="game")))
    results = {result.pk, *rows.filter(mine).values_list("object_id", flat=True)}
    return rows.filter(
        mine
        | Q(content_type=kinds[Placement], object_id__in=placements)
        | Q(content_type=kinds[Placement], additional_data__result__in=sorted(results))
    )


def result_history(result: GameResult, *, limit: int = 50) -> list[HistoryLine]:
    """The result's changes in words, newest first."""
    rows = list(entries(result)[:limit])
    kinds = ContentType.objects.get_for_models(GameResult, Placement)
    user_ids, player_ids = set(), set()
    for entry in rows:
        changes = entry.changes_dict or {}
        for key in ("confirmed_by",):
            value = (changes.get(key) or [None, None])[1]
            if not _empty(value) and str(value).isdigit():
                user_ids.add(int(value))
        if entry.content_type_id == kinds[Placement].pk:
            player = next((value for value in changes.get("player", []) if not _empty(value)),
                          None)
            if player is not None and str(player).isdigit():
                player_ids.add(int(player))
    users = {user.pk: user for user in User.objects.filter(pk__in=user_ids)}
    placements = dict(Placement.objects.filter(pk__in=[
        entry.object_id for entry in rows if entry.content_type_id == kinds[Placement].pk
    ]).values_list("pk", "player_id"))
    player_ids |= set(placements.values())
    names = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))
    out = []
    for entry in rows:
        data = entry.additional_data or {}
        code = data.get("action", "")
        reason = data.get("reason", "")
        changes = {field: pair for field, pair in (entry.changes_dict or {}).items()
                   if isinstance(pair, list | tuple) and len(pair) == 2}
        if entry.content_type_id == kinds[Placement].pk:
            player = next((value for value in changes.get("player", []) if not _empty(value)),
                          None)
            pid = int(player) if player is not None and str(player).isdigit() else (
                placements.get(entry.object_id))
            words = _placement_changes(changes, names.get(pid, ""))
        elif entry.action == LogEntry.Action.DELETE:
            words = []  # a count taken back: its fields all going is no change to name
        else:
            words = _result_changes(changes, users, reason, code)
        out.append(HistoryLine(
            at=_local(entry.timestamp),
            actor=account_name(entry.actor),
            action=write_label(code, changes) if code else _("Change by the system"),
            changes=words,
            reason=reason,
        ))
    return out
