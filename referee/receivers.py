"""Receivers of the referee's own signals: keep the game's version and timers in step (the
work lives in ``timers``); connected in ``RefereeConfig.ready``."""

from __future__ import annotations

from django.db.models.signals import post_save

from tournament.models import Player
from tournament.signals import player_erased

from . import privacy, timers
from .models import Game
from .signals import game_changed


def on_game_changed(sender, *, game_id: int, replan: bool = False, **kwargs) -> None:
    """A new version for the state's ETag; new timers when the deadlines moved."""
    timers.bump_version(game_id)
    if replan:
        timers.schedule(game_id)


def on_player_saved(sender, *, instance: Player, **kwargs) -> None:
    """A name, club or consent changed (or the player was anonymized): the state of every
    game the player is in gets a new version, so no cached state shows the old name."""
    for game_id in Game.objects.filter(table__seats__player=instance).values_list("pk", flat=True):
        timers.bump_version(game_id)


def on_player_erased(sender, *, tournament_id: int, names: list[str], replacement: str,
                     **kwargs) -> None:
    privacy.scrub_games(tournament_id=tournament_id, names=names, replacement=replacement)


def connect() -> None:
    post_save.connect(on_player_saved, sender=Player, dispatch_uid="referee.on_player_saved")
    player_erased.connect(on_player_erased, dispatch_uid="referee.on_player_erased")
    # Connected before any other app's receivers (``referee`` precedes ``scoring`` in
    # INSTALLED_APPS), so the version is bumped before the public pages are invalidated.
    game_changed.connect(on_game_changed, dispatch_uid="referee.on_game_changed")
