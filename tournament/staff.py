"""The tournament's team: appoint and remove staff, create an account with a set-password link.

Only these functions write ``StaffRole`` rows; :mod:`tournament.access` reads them.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from . import audit, errors
from .models import StaffRole, Tournament

Role = StaffRole.Role


def clean_username(username: str | None) -> str:
    """A username Django accepts (stripped), or InvalidUsername."""
    username = (username or "").strip()
    try:
        if not username or len(username) > 150:
            raise ValidationError("length")
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise errors.InvalidUsername(
            errors.INVALID_USERNAME, params={"username": username[:160]}
        ) from exc
    return username


def ensure_role(*, tournament: Tournament, user: User, role: str) -> StaffRole:
    """The role, created if missing (assigning a banker to a table makes them one)."""
    staff_role, _ = StaffRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    return staff_role


@transaction.atomic
def appoint(*, tournament: Tournament, username: str, role: str, by: User) -> StaffRole:
    """Give an existing account a role in the tournament."""
    if role not in Role.values:
        raise errors.InvalidForm(errors.INVALID_FORM, params={"fields": "role"})
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
def dismiss(*, tournament: Tournament, role_id: int, by: User) -> None:
    """Remove a role; the last organizer stays (a tournament always has someone in charge)."""
    staff_role = (
        StaffRole.objects.select_for_update().filter(tournament=tournament, pk=role_id).first()
    )
    if staff_role is None:
        return
    if staff_role.role == Role.ORGANIZER:
        organizers = StaffRole.objects.filter(tournament=tournament, role=Role.ORGANIZER)
        if organizers.count() <= 1:
            raise errors.LastOrganizer(errors.LAST_ORGANIZER)
    with audit.action(tournament=tournament, actor=by, what="staff.dismiss"):
        staff_role.delete()


def team(tournament: Tournament) -> list[StaffRole]:
    return list(tournament.staff.select_related("user").order_by("role", "user__username"))
