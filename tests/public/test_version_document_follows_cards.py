"""Issue 29, a full hall: the live pages' version document follows the cards of the overview,
not every event. A payment changes no card, so a crowd of phones keeps its document (a 304)
while the tables post eight events a second; a pause, a bankruptcy or a new leader is a new
document at once. Whatever a post does, a changed card is never left under the old document."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client
from gameplay import T0

from public import selectors as public_selectors
from public import tables
from referee import services
from referee.models import Game
from referee.signals import game_changed
from scoring import cache

pytestmark = pytest.mark.django_db


def _post(table, event, minutes, django_capture_on_commit_callbacks):
    game = services.ensure_game(table=table)
    with django_capture_on_commit_callbacks(execute=True):
        services.post_event(game_id=game.pk, event=event, author=None,
                            now=T0 + dt.timedelta(minutes=minutes))


def _keys(table) -> list[str]:
    """The game's player keys in seat order (ids: not "1".."6" on every database)."""
    return list(services.ensure_game(table=table).players)


def _generation() -> str:
    return cache.generations("ka", tables.VERSIONS)


def test_a_payment_keeps_the_document_and_a_pause_makes_a_new_one(
        hall, django_capture_on_commit_callbacks):
    p = _keys(hall[0])
    # The game's first move after its start: the card says "running" from now on; the last
    # seats pay, so the leader (the first of equals) stays.
    _post(hall[0], {"type": "pay", "from": p[5], "to": "bank", "amount": 10}, 1,
          django_capture_on_commit_callbacks)
    spectator = Client()
    first = spectator.get("/t/ka/live/v")
    tables_before = cache.generation("ka", cache.TABLES)

    _post(hall[0], {"type": "pay", "from": p[4], "to": "bank", "amount": 10}, 1.5,
          django_capture_on_commit_callbacks)

    assert cache.generation("ka", cache.TABLES) == tables_before + 1  # the live table pages follow
    again = spectator.get("/t/ka/live/v", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304

    _post(hall[0], {"type": "pause"}, 2, django_capture_on_commit_callbacks)

    changed = spectator.get("/t/ka/live/v", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    delta = json.loads(spectator.get(
        f"/t/ka/live/v?since={json.loads(first.content)['g']}").content)
    assert list(delta["d"]) == [str(hall[0].number)]


def test_whatever_a_post_does_a_changed_card_is_a_new_document(
        hall, tournament, django_capture_on_commit_callbacks):
    """A game played through payments, purchases, a pause, a bankruptcy: after every post, the
    cards' versions read from the database are the ones of the document under the current
    generation — never a changed card under a generation that did not move."""
    p = _keys(hall[0])
    events = [
        {"type": "pay", "from": p[0], "to": p[1], "amount": 30},
        {"type": "pay", "from": "bank", "to": p[2], "amount": 200},
        {"type": "pay", "from": p[3], "to": p[0], "amount": 900},  # a new leader
        {"type": "pause"},
        {"type": "resume"},
        {"type": "pay", "from": p[1], "to": "bank", "amount": 5},
        {"type": "bankrupt", "player": p[4], "creditor": "bank"},
        {"type": "pay", "from": p[0], "to": p[5], "amount": 1},
    ]
    moved = 0
    for minute, event in enumerate(events, start=1):
        before = _generation()
        versions_before = public_selectors.table_versions(tournament)
        _post(hall[0], event, minute, django_capture_on_commit_callbacks)
        now = public_selectors.table_versions(tournament)
        if now != versions_before:
            assert _generation() != before, event
            moved += 1
        document = tables.current_versions("ka")
        assert document["t"] == now["t"], event
    assert 0 < moved < len(events)  # some posts changed a card, some did not


def test_a_change_without_a_glance_to_compare_makes_a_new_document(hall):
    """A change that is no banker's post (a timer's deadline, a scrub, a ruling) does not say
    whether a card changed: the cards' generation moves with the tables' all the same."""
    before, tables_before = _generation(), cache.generation("ka", cache.TABLES)
    game = services.ensure_game(table=hall[0])
    game_changed.send(sender=Game, game_id=game.pk)
    assert cache.generation("ka", cache.TABLES) == tables_before + 1
    assert _generation() != before
