"""Players' data rights (DSGVO): erase a player on request, export one player's data, and
anonymize a tournament's players a chosen number of months after it.

Erasing keeps the player's row — results, placements, standings and game records refer to it
and stay consistent — and replaces what names the person: the name becomes a pseudonym
(“Anonym 17”), club, e-mail and note are cleared, consent is withdrawn, the personal code
(the player's own page, the printed card) is renewed. The same name is
replaced in the tournament's audit log and incident notes. Every page, cached fragment,
export and PDF reads the player's row, and saving it invalidates the public caches
(``scoring.receivers``, ``referee.receivers``): nothing shows the old name afterwards.
The erasure itself is audit-logged, without the old name.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from auditlog.context import disable_auditlog
from auditlog.models import LogEntry
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from config.errors import Conflict

from . import audit, signals
from .errors import ALREADY_ERASED
from .models import Incident, Player, Seat, Tournament, new_pass_code


class AlreadyErased(Conflict, code="player_already_erased"): ...


def pseudonym(player: Player) -> str:
    """Unique in the tournament (the name constraint) and stable: the player's id."""
    return f"Anonym {player.pk}"


def scrub(text: str, secrets: list[str], replacement: str) -> str:
    """``text`` with every secret (an old name, an e-mail) replaced by the pseudonym."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, replacement)
    return text


def _scrub_audit_log(tournament_id: int, secrets: list[str], replacement: str) -> int:
    """Replace the old name and e-mail wherever the tournament's audit log kept them."""
    changed = 0
    rows = LogEntry.objects.filter(additional_data__tournament=tournament_id)
    for entry in rows.iterator():
        before = (entry.object_repr, json.dumps(entry.changes), entry.changes_text,
                  json.dumps(entry.serialized_data))
        after = tuple(scrub(part or "", secrets, replacement) for part in before)
        if after != before:
            LogEntry.objects.filter(pk=entry.pk).update(
                object_repr=after[0], changes=json.loads(after[1]) if entry.changes else None,
                changes_text=after[2],
                serialized_data=json.loads(after[3]) if entry.serialized_data else None,
            )
            changed += 1
    return changed


@transaction.atomic
def erase_player(*, player: Player, actor: User | None, reason: str = "") -> Player:
    """Anonymize one player everywhere; results stay. Audit-logged without the old name."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.erased_at is not None:
        raise AlreadyErased(ALREADY_ERASED)
    secrets = sorted({player.name, player.email}, key=len, reverse=True)
    replacement = pseudonym(player)
    with disable_auditlog():  # the automatic entry would keep the old name as "before"
        player.name = replacement
        player.club = None
        player.email = ""
        player.private_note = ""
        player.public_name_consent = False
        player.pass_code = new_pass_code()  # the printed card's link opens nothing any more
        player.erased_at = timezone.now()
        player.save()
    for incident in Incident.objects.filter(tournament_id=player.tournament_id):
        note = scrub(incident.note, secrets, replacement)
        if note != incident.note:
            with disable_auditlog():
                Incident.objects.filter(pk=incident.pk).update(note=note)
    _scrub_audit_log(player.tournament_id, secrets, replacement)
    signals.player_erased.send(sender=Player, tournament_id=player.tournament_id,
                               names=[secret for secret in secrets if secret],
                               replacement=replacement)
    audit.note(tournament=player.tournament_id, actor=actor, what="player.erase",
               reason=reason, obj=player,
               changes={"name": ["…", replacement], "club": ["…", ""], "email": ["…", ""]})
    return player


def player_data(player: Player) -> dict[str, Any]:
    """Everything the championship keeps about one player, as JSON (the right of access)."""
    seats = (Seat.objects.filter(player=player)
             .select_related("round", "table__game__result").order_by("round__number"))
    games = []
    for seat in seats:
        game = getattr(seat.table, "game", None)
        result = getattr(game, "result", None) if game is not None else None
        placement = result.placements.filter(player=player).first() if result else None
        games.append({
            "round": seat.round.number, "table": seat.table.number, "seat": seat.position,
            "place": placement.place if placement else None,
            "net_worth": placement.net_worth if placement else None,
            "result": result.status if result else None,
        })
    tournament = player.tournament
    return {
        "format": "monopoly-championship-player-data/1",
        "exported_at": timezone.now().isoformat(),
        "tournament": {"name": tournament.name, "slug": tournament.slug,
                       "date": tournament.date.isoformat(), "venue": tournament.venue},
        "player": {
            "id": player.pk, "name": player.name,
            "club": player.club.name if player.club else "",
            "email": player.email, "public_name_consent": player.public_name_consent,
            "public_name": player.public_name, "checked_in": player.checked_in,
            "dropped_out": player.dropped_out, "private_note": player.private_note,
            "registered": player.created_at.isoformat(),
            "anonymized": player.erased_at.isoformat() if player.erased_at else None,
        },
        "games": games,
        "incidents": [
            {"level": incident.level, "points": incident.points, "note": incident.note,
             "round": incident.round_number, "table": incident.table_number}
            for incident in player.incidents.order_by("pk")
        ],
    }


def add_months(day: dt.date, months: int) -> dt.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return day.replace(year=year, month=month, day=min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)


def anonymize_expired(*, today: dt.date | None = None) -> int:
    """Anonymize the players of every finished tournament whose retention period is over;
    idempotent (erased players are skipped). Returns how many players were anonymized."""
    today = today or timezone.localdate()
    count = 0
    due = Tournament.objects.filter(status=Tournament.Status.FINISHED,
                                    retention_months__isnull=False)
    for tournament in due:
        if add_months(tournament.date, tournament.retention_months) > today:
            continue
        for player in tournament.players.filter(erased_at__isnull=True):
            erase_player(player=player, actor=None, reason="retention")
            count += 1
    return count
