"""Receivers of the referee's own signals: keep the game's version and timers in step (the
work lives in ``timers``); connected in ``RefereeConfig.ready``."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from referee import answer_cache, follow, privacy, services, timers
from referee.changes import ResultChange
from referee.models import Game
from referee.signals import game_changed
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.signals import player_erased, seating_changed


def on_game_changed(sender, *, game_id: int, replan: bool = False, due=None,
                    events_added: bool = False, **kwargs) -> None:
    """A new version for the state's ETag unless the change added events (every ETag that
    names the version names the event count too: ``timers.bump_version``); new timers when
    the deadlines moved. (The follow poll's token: ``services._after_change``,
    ``referee.follow``.)"""
    if not events_added:
        timers.bump_version(game_id)
    if replan:
        timers.schedule(game_id, due=due)


def new_version(change: ResultChange) -> None:
    """Step after a changed result (``settings.RESULT_STEPS``), the first: the state's ETag
    changes before anything is built from it; then the follow poll's token, so that no poll
    is answered from before the change while the later steps (the standings) run
    (``referee.follow``; ``results.result_changed`` replaces it again after them)."""
    timers.bump_version(change.game_id)
    if change.table_id is not None:
        follow.replace_tokens([change.table_id])


def on_player_saved(sender, *, instance: Player, **kwargs) -> None:
    """A name, club or consent changed (or the player was anonymized): the state of every
    game the player is in gets a new version, so no cached state shows the old name (again
    once committed: a state read in between must not keep the old name under the new one)."""
    games = list(Game.objects.filter(table__seats__player=instance).values_list("pk", "table_id"))

    def bump() -> None:
        for game_id, _table in games:
            timers.bump_version(game_id)

    bump()
    if games:
        transaction.on_commit(bump)
        follow.changed(table for _game, table in games)


def on_round_or_tournament_saved(sender, *, instance: Round | Tournament, **kwargs) -> None:
    """Seated, started, closed, results released, settings: whether the public reads a
    table and whether its results are held follow the round and the tournament, and the
    follow poll must not answer from before (``referee.follow``)."""
    tables = Table.objects.filter(**({"round__tournament": instance}
                                     if isinstance(instance, Tournament) else {"round": instance}))
    follow.changed(tables.values_list("pk", flat=True))


def on_table_or_seat_saved(sender, *, instance: Table | Seat, **kwargs) -> None:
    """Its banker, number or players: the follow poll asks the full view again."""
    follow.changed([instance.pk if isinstance(instance, Table) else instance.table_id])


def on_player_erased(sender, *, tournament_id: int, names: list[str], replacement: str,
                     **kwargs) -> None:
    """Scrub the games' texts; once committed, drop the tables' kept states and records."""
    privacy.scrub_games(tournament_id=tournament_id, names=names, replacement=replacement)
    tables = list(Table.objects.filter(round__tournament_id=tournament_id)
                  .values_list("pk", flat=True))
    transaction.on_commit(lambda: answer_cache.forget_tables(tables))
    follow.changed(tables)


def on_seating_changed(sender, *, round_: Round, **kwargs) -> None:
    """Each seated table gets its game (and so its confirmation code), and an untouched one
    follows the seating: the console and the code slips then only read (a GET never writes)."""
    tables = list(Table.objects.filter(round=round_, seats__isnull=False).distinct()
                  .select_related("round__tournament").order_by("number"))
    for table in tables:
        services.ensure_game(table=table)


def connect() -> None:
    post_save.connect(on_player_saved, sender=Player, dispatch_uid="referee.on_player_saved")
    for model in (Round, Tournament):
        post_save.connect(on_round_or_tournament_saved, sender=model,
                          dispatch_uid=f"referee.on_{model._meta.model_name}_saved")
    for model in (Table, Seat):
        for signal in (post_save, post_delete):
            signal.connect(on_table_or_seat_saved, sender=model,
                           dispatch_uid=f"referee.on_{model._meta.model_name}_{signal is post_save}")
    player_erased.connect(on_player_erased, dispatch_uid="referee.on_player_erased")
    seating_changed.connect(on_seating_changed, dispatch_uid="referee.on_seating_changed")
    # Connected before any other app's receivers (``referee`` precedes ``scoring`` in
    # INSTALLED_APPS), so the version is bumped before the public pages are invalidated. A
    # changed result says its order itself: ``settings.RESULT_STEPS``.
    game_changed.connect(on_game_changed, dispatch_uid="referee.on_game_changed")
