"""Players' data rights (DSGVO): erase a player on request, export one player's data, and
anonymize a tournament's players a chosen number of months after it.

Erasing keeps the player's row — results, placements, standings and game records refer to it
and stay consistent — and replaces what names the person: the name becomes a pseudonym
(“Anonym 17”), club, e-mail and note are cleared (a club of theirs alone is deleted: a
family's name names them), consent is withdrawn, the personal code (the player's own page, the
printed card) is renewed. Every name and e-mail the player ever had (the audit log's earlier
values), in every form the product writes them ("Gül Müller-Weiß", "Müller-Weiß, Gül",
"G.M.W."), is replaced in the tournament's audit log (texts and parsed structures, reasons
included), incident notes, game texts, cached answers and print files. Every page, cached fragment,
export and PDF reads the player's row, and saving it invalidates the public caches
(``scoring.receivers``, ``referee.receivers``): nothing shows the old name afterwards.
The erasure itself is audit-logged, without the old name.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from auditlog.context import disable_auditlog
from auditlog.models import LogEntry
from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone

from tournament import audit, names, signals
from tournament.errors import ALREADY_ERASED, AlreadyErased
from tournament.models import (
    Incident,
    Player,
    Seat,
    Signup,
    Tournament,
    new_pass_code,
)
from tournament.signup.selectors import email_key


def pseudonym(player: Player) -> str:
    """Unique in the tournament (the name constraint) and stable: the player's id."""
    return f"Anonym {player.pk}"


def scrub(text: str, secrets: list[str], replacement: str) -> str:
    """``text`` with every secret (an old name, an e-mail, in each form the product writes
    it) replaced by the pseudonym; letter case does not matter ("MÜLLER" is Müller)."""
    pattern = _pattern(tuple(secrets))
    if pattern is None or not text:
        return text
    return pattern.sub(lambda _match: replacement, text)


@functools.lru_cache(maxsize=64)
def _pattern(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    """One expression for all the secrets, the longest first (an erasure walks every string
    of the tournament's audit log: one search per string, not one per secret)."""
    parts = []
    for secret in sorted({secret for secret in secrets if secret}, key=len, reverse=True):
        escaped = re.escape(secret)
        # Whole words only ("Anna Koch" is not inside "Johanna Kochs"); initials ("G.M.W.")
        # not inside a longer set of initials either.
        edge = r"[\w.]" if _is_initials(secret) else r"\w"
        parts.append(rf"(?<!{edge}){escaped}(?!{edge})")
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def scrub_value(value: Any, secrets: list[str], replacement: str) -> Any:
    """The parsed structure (JSON: dicts, lists, text) with every secret replaced, keys too:
    searching its serialized form missed "G\\u00fcl" and anything written as escapes."""
    pattern = _pattern(tuple(secrets))
    if pattern is None:
        return value
    folded = [secret.casefold() for secret in secrets if secret]

    def text(value: str) -> str:
        # A substring test first (most strings name nobody): the expression only where needed.
        if not value:
            return value
        lowered = value.casefold()
        if not any(secret in lowered for secret in folded):
            return value
        return pattern.sub(lambda _match: replacement, value)

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list | tuple):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {text(str(key)): walk(item) for key, item in value.items()}
        return value

    return walk(value)


def _is_initials(text: str) -> bool:
    return bool(re.fullmatch(r"(?:\w\.)+", text))


def name_forms(name: str) -> list[str]:
    """Every form in which the product writes a person's name: as entered ("Gül Müller-Weiß"),
    the seating list's "Müller-Weiß, Gül" and the public initials "G.M.W." (single initials,
    "G.", would match far too much and are left out)."""
    name = " ".join((name or "").split())
    if not name:
        return []
    forms = {name, names.last_name_first(name)}
    initials = names.initials(name)
    if len(initials) >= 4:  # two letters at least
        forms.add(initials)
    return sorted(forms, key=len, reverse=True)


def _earlier_values(player: Player) -> tuple[set[str], set[str]]:
    """Every name and e-mail the player ever had: the audit log's before → after of the
    player's own rows keeps the earlier ones."""
    from django.contrib.contenttypes.models import ContentType

    names_seen, emails_seen = {player.name}, {player.email}
    entries = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Player), object_pk=str(player.pk)
    )
    for entry in entries.only("changes", "object_repr"):
        if entry.object_repr:
            names_seen.add(entry.object_repr)
        changes = entry.changes if isinstance(entry.changes, dict) else {}
        for field, into in (("name", names_seen), ("email", emails_seen)):
            values = changes.get(field)
            if isinstance(values, list | tuple):
                into.update(value for value in values if isinstance(value, str))
    none = {"", "None", "…"}
    return names_seen - none, emails_seen - none


def player_secrets(player: Player) -> list[str]:
    """What erasing ``player`` replaces: every name they had in every form, every e-mail, and
    their club's name when the club is theirs alone (a family: "Familie Öztürk")."""
    names_seen, emails_seen = _earlier_values(player)
    secrets = {form for name in names_seen for form in name_forms(name)} | emails_seen
    # A one-word name ("Anna") that is a word of another player's name stays: replacing it
    # would rewrite "Anna Becker" in her entries too.
    words = {word.casefold() for name in player.tournament.players.exclude(pk=player.pk)
             .values_list("name", flat=True) for word in name.split()}
    secrets = {secret for secret in secrets
               if " " in secret or "@" in secret or _is_initials(secret)
               or secret.casefold() not in words}
    club = player.club
    if club is not None and not club.players.exclude(pk=player.pk).exists():
        secrets.add(club.name)
    return sorted(secrets, key=len, reverse=True)


AUDIT_TEXTS = ("object_repr", "changes_text")
AUDIT_STRUCTURES = ("changes", "additional_data", "serialized_data")


def _scrub_audit_log(tournament_id: int, secrets: list[str], replacement: str) -> int:
    """Replace the secrets wherever the tournament's audit log kept them: its texts and the
    parsed structures (before → after, the action's reason), never their JSON text."""
    changed = 0
    rows = LogEntry.objects.filter(additional_data__tournament=tournament_id)
    for entry in rows.iterator():
        after = {field: scrub(getattr(entry, field) or "", secrets, replacement)
                 for field in AUDIT_TEXTS}
        after.update({field: scrub_value(getattr(entry, field), secrets, replacement)
                      for field in AUDIT_STRUCTURES})
        if any(after[field] != (getattr(entry, field) or "") for field in AUDIT_TEXTS) or any(
            after[field] != getattr(entry, field) for field in AUDIT_STRUCTURES
        ):
            LogEntry.objects.filter(pk=entry.pk).update(**after)
            changed += 1
    return changed


@transaction.atomic
def erase_player(*, player: Player, actor: User | None, reason: str = "") -> Player:
    """Anonymize one player everywhere; results stay. Audit-logged without the old name."""
    player = (Player.objects.select_for_update(of=("self",)).select_related("club")
              .get(pk=player.pk))
    if player.erased_at is not None:
        raise AlreadyErased(ALREADY_ERASED)
    secrets = player_secrets(player)
    replacement = pseudonym(player)
    # The sign-up that made them a player (and any other of the same address here) goes
    # with its mails: the outbox keeps name, address and links.
    signups = Signup.objects.filter(tournament_id=player.tournament_id).filter(
        models.Q(player=player) | models.Q(email_key=email_key(player.email))
        if player.email else models.Q(player=player))
    secrets = sorted({*secrets, *(s for row in signups.values_list("name", "email")
                                  for s in row if s)}, key=len, reverse=True)
    with disable_auditlog():
        signups.delete()
    club = player.club
    with disable_auditlog():  # the automatic entry would keep the old name as "before"
        player.name = replacement
        player.club = None
        player.email = ""
        player.private_note = ""
        player.public_name_consent = False
        player.pass_code = new_pass_code()  # the printed card's link opens nothing any more
        player.erased_at = timezone.now()
        player.save()
        if club is not None and club.name in secrets:  # theirs alone: no list keeps it
            club.delete()
    for incident in Incident.objects.filter(tournament_id=player.tournament_id):
        note = scrub(incident.note, secrets, replacement)
        if note != incident.note:
            with disable_auditlog():
                Incident.objects.filter(pk=incident.pk).update(note=note)
    _scrub_audit_log(player.tournament_id, secrets, replacement)
    signals.player_erased.send(sender=Player, tournament_id=player.tournament_id,
                               names=secrets, replacement=replacement)
    audit.note(tournament=player.tournament_id, actor=actor, what="player.erase",
               reason=scrub(reason, secrets, replacement), obj=player,
               changes={"name": ["…", replacement], "club": ["…", ""], "email": ["…", ""]})
    return player


@transaction.atomic
def erase_signup(*, signup: Signup, actor: User | None, reason: str = "") -> None:
    """Erase a sign-up that is no player (pending, waiting, withdrawn) with its mails; a
    registered one is erased with its player (:func:`erase_player`)."""
    signup = Signup.objects.select_for_update().get(pk=signup.pk)
    if signup.player_id is not None:
        erase_player(player=signup.player, actor=actor, reason=reason)
        return
    secrets = sorted({signup.name, signup.email}, key=len, reverse=True)
    tournament_id = signup.tournament_id
    replacement = f"Anonym S{signup.pk}"
    with disable_auditlog():
        signup.delete()
    _scrub_audit_log(tournament_id, secrets, replacement)
    audit.note(tournament=tournament_id, actor=actor, what="signup.erase", reason=reason,
               changes={"name": ["…", replacement]})


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
        "signup": signup_data(Signup.objects.filter(player=player).first()),
    }


def signup_data(signup: Signup | None) -> dict[str, Any] | None:
    """A sign-up and the mails sent to it (in a player's data and in the export)."""
    if signup is None:
        return None
    return {
        "name": signup.name, "email": signup.email, "club": signup.club,
        "public_name_consent": signup.public_name_consent, "language": signup.language,
        "status": signup.status, "player": signup.player_id,
        "signed_up": signup.created_at.isoformat(),
        "confirmed": signup.confirmed_at.isoformat() if signup.confirmed_at else None,
        "waiting_since": signup.waiting_since.isoformat() if signup.waiting_since else None,
        "withdrawn": signup.withdrawn_at.isoformat() if signup.withdrawn_at else None,
        "fee_paid": signup.fee_paid_at.isoformat() if signup.fee_paid_at else None,
        "mails": [
            {"kind": mail.kind, "to": mail.to, "language": mail.language,
             "subject": mail.subject, "status": mail.status, "attempts": mail.attempts,
             "created": mail.created_at.isoformat(),
             "sent": mail.sent_at.isoformat() if mail.sent_at else None}
            for mail in signup.mails.order_by("pk")
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
        for signup in tournament.signups.all():  # waiting, withdrawn: never players
            erase_signup(signup=signup, actor=None, reason="retention")
    return count
