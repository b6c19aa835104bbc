"""Hall screens: the desk adds a screen, chooses what it shows, removes it. Every change bumps
the screens' cache generation, so the screen follows within its poll (a few seconds)."""

from __future__ import annotations

import secrets
import unicodedata

from django.db import transaction
from django.utils.text import slugify

from config.inputs import visible_text
from scoring import cache
from scoring.errors import BAD_MODE, BAD_NAME, TOO_MANY, ScreenRefused
from scoring.models import HallScreen
from tournament.models import Tournament

SCREENS = "screens"
MAX_SCREENS = 40


def _changed(tournament: Tournament) -> None:
    transaction.on_commit(lambda: cache.invalidate(tournament.slug, SCREENS))


def new_key(name: str) -> str:
    """The screen's address: its name for the desk to recognise, and 96 random bits, so the
    address cannot be guessed from the name (a screen shows every name of the seating list).
    """
    return f"{slugify(name)[:15].strip('-')}-{secrets.token_hex(12)}"


@transaction.atomic
def add_screen(*, tournament: Tournament, name: str) -> HallScreen:
    # NUL (PostgreSQL refuses it) and other controls are refused; bidi and zero-width
    # characters dropped (a hall screen's name is seen by the desk only, but shown like one).
    control = any(unicodedata.category(char) == "Cc" and not char.isspace() for char in name or "")
    name = " ".join(visible_text(name).split())
    base = slugify(name)[:30]
    if not name or len(name) > 40 or not base or control:
        raise ScreenRefused(BAD_NAME, code="screen_name")
    if HallScreen.objects.filter(tournament=tournament).count() >= MAX_SCREENS:
        raise ScreenRefused(TOO_MANY, code="screen_too_many")
    key = new_key(name)
    while HallScreen.objects.filter(tournament=tournament, key=key).exists():  # 2^96: never
        key = new_key(name)
    screen = HallScreen.objects.create(tournament=tournament, name=name, key=key)
    _changed(tournament)
    return screen


@transaction.atomic
def set_mode(*, screen: HallScreen, mode: str) -> HallScreen:
    if mode not in HallScreen.Mode.values:
        raise ScreenRefused(BAD_MODE, code="screen_mode")
    screen.mode = mode
    screen.save(update_fields=["mode", "changed_at"])
    _changed(screen.tournament)
    return screen


@transaction.atomic
def remove_screen(*, screen: HallScreen) -> None:
    tournament = screen.tournament
    screen.delete()
    _changed(tournament)
