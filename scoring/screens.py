"""Hall screens: the desk adds a screen, chooses what it shows, removes it. Every change bumps
the screens' cache generation, so the screen follows within its poll (a few seconds)."""

from __future__ import annotations

import unicodedata

from django.db import transaction
from django.utils.text import slugify

from config.errors import DomainError
from tournament.models import Tournament

from . import cache
from .errors import BAD_MODE, BAD_NAME, TOO_MANY
from .models import HallScreen

SCREENS = "screens"
MAX_SCREENS = 40


class ScreenRefused(DomainError):
    http_status = 400


def _changed(tournament: Tournament) -> None:
    transaction.on_commit(lambda: cache.invalidate(tournament.slug, SCREENS))


@transaction.atomic
def add_screen(*, tournament: Tournament, name: str) -> HallScreen:
    name = " ".join((name or "").split())
    base = slugify(name)[:30]
    control = any(unicodedata.category(char) == "Cc" for char in name)  # NUL: PostgreSQL refuses
    if not name or len(name) > 40 or not base or control:
        raise ScreenRefused(BAD_NAME, code="screen_name")
    if HallScreen.objects.filter(tournament=tournament).count() >= MAX_SCREENS:
        raise ScreenRefused(TOO_MANY, code="screen_too_many")
    key, n = base, 1
    while HallScreen.objects.filter(tournament=tournament, key=key).exists():
        n += 1
        key = f"{base}-{n}"
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
