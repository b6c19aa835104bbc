"""The first organizer of an empty installation: asked for at the terminal, or (no terminal)
created without a password and handed a one-time link to set it — printed at the first start
only (:func:`link_to_print`; ``python -m laptop organizer_link`` prints a new one on request)."""

from __future__ import annotations

import getpass
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from tournament.staff import set_password_path


@dataclass(frozen=True)
class Outcome:
    username: str
    created: bool
    link_path: str | None  # a one-time set-password link, when no password was typed


def has_organizer() -> bool:
    """An organizer who can log in (active staff with a password)."""
    return any(user.has_usable_password()
               for user in User.objects.filter(is_staff=True, is_active=True))


@transaction.atomic
def _user(username: str) -> tuple[User, bool]:
    user, created = User.objects.get_or_create(username=username)
    user.is_staff = user.is_superuser = user.is_active = True  # organizer and head referee
    if created:
        user.set_unusable_password()
    user.save()
    return user, created


def ensure_organizer(*, username: str, interactive: bool, ask=input, ask_secret=getpass.getpass,
                     say=print) -> Outcome | None:
    """Nothing when an organizer can already log in; else create one (asking for the password
    when ``interactive``) and return how."""
    if has_organizer():
        return None
    if interactive:
        username = (ask(f"Organizer login name [{username}]: ").strip() or username)
        while True:
            password = ask_secret("Password: ")
            if password != ask_secret("Password (again): "):
                say("The two passwords differ. / Die Passwörter sind verschieden.")
                continue
            try:
                validate_password(password, User(username=username))
            except ValidationError as error:
                say(" ".join(error.messages))
                continue
            break
        user, created = _user(username)
        user.set_password(password)
        user.save(update_fields=["password"])
        return Outcome(username, created, None)
    user, created = _user(username)
    # The staff pages' one-time link (Django's reset token: dies with the first password).
    return Outcome(username, created, set_password_path(user))


LINK_PRINTED = "organizer-link-printed"


def link_to_print(made: Outcome | None, *, data_dir: Path) -> str | None:
    """The set-password link to print at this start: at the first start only.

    ``serve`` prints the laptop's addresses and QR codes for the hall, often on a screen
    others see; a link that sets the organizer's password must not be shown there again at
    every start while nobody has used it. Later starts say how to get a new one instead."""
    if made is None or made.link_path is None:
        return None
    marker = data_dir / LINK_PRINTED
    if marker.exists() and not made.created:
        return None
    marker.write_text(made.username + "\n")
    return made.link_path
