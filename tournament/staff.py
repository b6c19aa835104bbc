"""The tournament's team: appoint and remove staff, create an account with a set-password link.

Only these functions write ``StaffRole`` rows; :mod:`tournament.access` reads them.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext_lazy

from tournament import audit, errors
from tournament.models import (
    BankerLink,
    Round,
    StaffRole,
    Table,
    Tournament,
)

Role = StaffRole.Role


def clean_username(username: str | None) -> str:
    """A username Django accepts (NFKC, as the login reads it; stripped), or InvalidUsername."""
    username = unicodedata.normalize("NFKC", username or "").strip()
    try:
        if not username or len(username) > 150:
            raise ValidationError("length")
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise errors.InvalidUsername(
            errors.INVALID_USERNAME, params={"username": username[:160]}
        ) from exc
    return username


# Unicode's confusables table (confusable-homoglyphs) maps letters of other scripts to the Latin
# ones they pass for; these few are added for names after casefolding (and digits and letter
# pairs that pass for letters).
_LOOK_ALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "ү": "y", "ɡ": "g", "ı": "i",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "μ": "u", "γ": "y", "ω": "w",
    # Latin and digits
    "0": "o", "1": "l",
})
_CJK = {"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HANGUL", "BOPOMOFO"}  # written together: one script


@functools.lru_cache(maxsize=4096)
def _latin_look(char: str) -> str:
    """The Latin letter ``char`` passes for (Unicode's confusables), else ``char`` itself."""
    if char.isascii() or not char.isalpha():
        return char
    found = confusables.is_confusable(char, preferred_aliases=["latin"]) or []
    for entry in found:
        for glyph in entry.get("homoglyphs", []):
            if glyph["c"].isascii() and glyph["c"].isalpha():
                return glyph["c"].casefold()
    return char


def skeleton(username: str) -> str:
    """What ``username`` looks like: two names with one skeleton can be taken for each other."""
    text = unicodedata.normalize("NFKC", username).casefold()
    text = "".join(_latin_look(char) for char in text).translate(_LOOK_ALIKES)
    return text.replace("rn", "m").replace("vv", "w")


def scripts(username: str) -> set[str]:
    """The scripts of the letters in ``username`` (digits and signs belong to none)."""
    found = set()
    for char in username:
        if not char.isalpha():
            continue
        script = unicodedata.name(char, "UNKNOWN").split()[0]
        found.add("CJK" if script in _CJK else script)
    return found


def _mixed_script(username: str) -> bool:
    """Letters of more than one script (Japanese kana and kanji, written together, count as
    one: Unicode's own ``is_mixed_script`` would refuse さくらカード)."""
    return len(scripts(username)) > 1


def check_new_username(username: str) -> None:
    """Refuse a new account's name that can pass for another one in the audit log, a dispute
    or a banker list: letters of several scripts (``оrganizer`` with a Cyrillic о), or a name
    that looks like an existing account's (compared by :func:`skeleton`). Fullwidth and other
    compatibility forms are folded by NFKC before (:func:`clean_username`)."""
    if _mixed_script(username):
        raise errors.InvalidUsername(errors.USERNAME_MIXED_SCRIPTS, params={"username": username})
    mine = skeleton(username)
    folded = username.casefold()
    for other in User.objects.values_list("username", flat=True).iterator():
        if skeleton(other) == mine and other.casefold() != folded:
            raise errors.InvalidUsername(errors.USERNAME_LOOKS_LIKE, params={
                "username": username})


def ensure_role(*, tournament: Tournament, user: User, role: str) -> StaffRole:
    """The role, created if missing (assigning a banker to a table makes them one)."""
    staff_role, _ = StaffRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    return staff_role


@transaction.atomic
def appoint(*, tournament: Tournament, username: str, role: str, by: User) -> StaffRole:
    """Give an existing account a role in the tournament."""
    if role not in Role.values:
        raise errors.InvalidForm(fields=[gettext_lazy("Role")])
    user = User.objects.filter(username__iexact=(username or "").strip(), is_active=True).first()
    if user is None:
        raise errors.UnknownAccount(errors.UNKNOWN_ACCOUNT, params={"username": username[:150]})
    with audit.action(tournament=tournament, actor=by, what="staff.appoint"):
        return ensure_role(tournament=tournament, user=user, role=role)


@transaction.atomic
def create_account(
    *, tournament: Tournament, username: str, role: str, by: User
) -> tuple[StaffRole, str]:
    """A new account with the role and no password; returns the one-time set-password path.

    The link is Django's password-reset token: it stops working once the password is set.
    """
    username = clean_username(username)
    if User.objects.filter(username__iexact=username).exists():
        raise errors.AccountExists(errors.ACCOUNT_EXISTS, params={"username": username})
    check_new_username(username)
    user = User(username=username)
    user.set_unusable_password()
    user.save()
    staff_role = appoint(tournament=tournament, username=username, role=role, by=by)
    return staff_role, set_password_path(user)


def set_password_path(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("password_set", kwargs={"uidb64": uid, "token": token})


@transaction.atomic
def dismiss(*, tournament: Tournament, role_id: int, by: User) -> list[int]:
    """Remove a role; the last organizer stays (a tournament always has someone in charge).

    Removing a banker's role also frees every table they bank in a round not yet closed and
    revokes those tables' links, in the same step (returns the freed table numbers). Freeing
    rather than refusing while they bank a running table: an organizer removes a banker when
    that person must stop now (left the hall, lost the phone with the link), and a refusal
    would keep exactly that person at the table until someone else is found. The game's record
    stays; the head referee runs the freed table's console, or the organizer assigns a new
    banker on the bankers page (which issues a new link). Closed rounds keep their banker, as
    the record of who ran the game.
    """
    staff_role = (
        StaffRole.objects.select_for_update().filter(tournament=tournament, pk=role_id).first()
    )
    if staff_role is None:
        return []
    if staff_role.role == Role.ORGANIZER:
        organizers = StaffRole.objects.filter(tournament=tournament, role=Role.ORGANIZER)
        if organizers.count() <= 1:
            raise errors.LastOrganizer(errors.LAST_ORGANIZER)
    freed: list[int] = []
    with audit.action(tournament=tournament, actor=by, what="staff.dismiss"):
        if staff_role.role == Role.BANKER:
            freed = _free_tables(tournament=tournament, banker_id=staff_role.user_id)
        staff_role.delete()
    return freed


def _free_tables(*, tournament: Tournament, banker_id: int) -> list[int]:
    """The banker's tables in open rounds lose their banker and their live links (saved row by
    row, so the audit log shows each before → after)."""
    tables = list(
        Table.objects.select_for_update(of=("self",))
        .filter(round__tournament=tournament, banker_id=banker_id)
        .exclude(round__status=Round.Status.COMPLETE)
        .order_by("round__number", "number")
    )
    now = timezone.now()
    for table in tables:
        table.banker = None
        table.save(update_fields=["banker"])
        for link in BankerLink.objects.filter(table=table, revoked_at__isnull=True):
            link.revoked_at = now
            link.save(update_fields=["revoked_at"])
    return [table.number for table in tables]


def team(tournament: Tournament) -> list[StaffRole]:
    return list(tournament.staff.select_related("user").order_by("role", "user__username"))
