"""The exchange tests' shared export: the 36-player demo as its export file holds it."""

from __future__ import annotations

import json

import pytest

from demo.build import build_demo
from exchange import services as exchange
from referee import engine_cache
from referee.models import Game
from scoring.standings import services


@pytest.fixture(scope="module")
def demo_document(django_db_setup, django_db_blocker):
    """The demo's export as read back from its JSON, built once per module (in a transaction
    that is rolled back)."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        demo = build_demo(players=36).tournament
        services.recompute_standings(tournament_id=demo.pk)
        document = json.loads(exchange.export_json(demo))
        games = list(Game.objects.values_list("pk", flat=True))
        transaction.set_rollback(True)
    for game_id in games:  # rolled back: their engines must not outlive them
        engine_cache.forget(game_id)
    return document
