"""Receivers of printed matter: queue work, nothing else."""

from __future__ import annotations

from django.db import transaction

from tournament.signals import player_erased


def on_player_erased(sender, *, tournament_id: int, **kwargs) -> None:
    """Once the erasure is committed, no print file made before it keeps the old name."""
    from printing import jobs

    transaction.on_commit(lambda: jobs.forget_tournament(tournament_id))


def connect() -> None:
    player_erased.connect(on_player_erased, dispatch_uid="printing.on_player_erased")
