"""Receivers: queue work, nothing else (the work itself lives in services)."""

from __future__ import annotations

from django.db.models.signals import post_save

from referee.changes import ResultChange
from referee.models import Game
from referee.signals import game_changed
from scoring import cache
from scoring.standings.trigger import standings_changed
from tournament.models import (
    Incident,
    Player,
    Round,
    Tournament,
)
from tournament.signals import player_erased


def on_player_saved(sender, *, instance, **kwargs) -> None:
    """A name or consent changed: public answers must not show the old one a moment longer."""
    slug = Tournament.objects.filter(pk=instance.tournament_id).values_list("slug", flat=True).first()
    if slug:
        cache.invalidate(slug, cache.STANDINGS, cache.TABLES, cache.PLAYERS)


#: The tournament's fields the stored standings follow: what the public may see (the hold of
#: the results) and how they are computed (``services.settings_for``).
STANDINGS_FIELDS = frozenset({"results_public_immediately", "format", "placement_points",
                              "tie_breaks", "final_decides", "finalists"})


def on_tournament_or_round_saved(sender, *, instance, update_fields=None, **kwargs) -> None:
    """A round drawn, started or closed, or settings changed: public answers follow at once;
    a setting the standings follow (the results' hold switched mid-round) has them recomputed
    after commit, not left to the periodic refresh (idempotent: nothing changed, nothing
    written)."""
    tournament_id = instance.pk if isinstance(instance, Tournament) else instance.tournament_id
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug:
        cache.invalidate(slug)
    if isinstance(instance, Tournament) and not kwargs.get("created") and (
            update_fields is None or STANDINGS_FIELDS & set(update_fields)):
        standings_changed(tournament_id=tournament_id)


def on_game_changed(sender, *, game_id: int, tournament_slug: str | None = None,
                    glance_changed: bool = True, **kwargs) -> None:
    """Every event: the tables' answers get a new generation (the console post names the
    tournament, so the busiest path looks nothing up); the overview's cards only when the
    game's glance changed (most payments change no card)."""
    slug = tournament_slug or (
        Game.objects.filter(pk=game_id).values_list("table__round__tournament__slug", flat=True)
    ).first()
    if slug:
        cache.invalidate(slug, cache.TABLES, cards=glance_changed)


def forget_tables(change: ResultChange) -> None:
    """Step after a changed result (``settings.RESULT_STEPS``): the tables' public answers get
    a new generation (the standings' follow their recompute, the next step)."""
    cache.invalidate(change.tournament_slug, cache.TABLES)


def on_player_erased(sender, *, tournament_id: int, **kwargs) -> None:
    """Once the erasure is committed: no cached body made before it keeps the old name (a
    rebuild reads the anonymized row). Print files: ``printing.receivers``."""
    from django.db import transaction

    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug:
        transaction.on_commit(lambda: cache.forget(slug))


def on_incident_saved(sender, *, instance, **kwargs) -> None:
    """A penalty changes the standings (a deduction, or a disqualification)."""
    standings_changed(tournament_id=instance.tournament_id)


def connect() -> None:
    post_save.connect(on_incident_saved, sender=Incident, dispatch_uid="scoring.on_incident")
    player_erased.connect(on_player_erased, dispatch_uid="scoring.on_player_erased")
    game_changed.connect(on_game_changed, dispatch_uid="scoring.on_game_changed")
    post_save.connect(on_player_saved, sender=Player, dispatch_uid="scoring.on_player_saved")
    for model in (Tournament, Round):
        post_save.connect(
            on_tournament_or_round_saved, sender=model,
            dispatch_uid=f"scoring.on_{model._meta.model_name}_saved",
        )
