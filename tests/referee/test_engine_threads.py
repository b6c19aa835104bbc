"""One engine, several threads (issue 25, finding 7): the laptop serves with 4 threads per
worker, and the engines are kept in the process. A reader (the console's picture, the public
table page) takes no lock, so the engine it reads must never be one a writer is changing: a
writer changes its own copy under the game's row lock, and the copy is shared only after the
commit. A post that rolls back leaves nothing cached that shows its event.

The threads are put in order with events (no sleeping): the writer stops inside the rules
engine, half-way through applying its event, while the reader reads.
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core.cache import cache
from django.db import connection
from factories import UserFactory, seated_table

from public import live
from referee import engine_cache, selectors, services
from referee.models import Game
from referee.rules import engine as rules_engine

pytestmark = pytest.mark.django_db(transaction=True)

T0 = dt.datetime(2026, 11, 28, 14, 0, tzinfo=dt.UTC)
WAIT = 20  # seconds; a thread that never gets its signal fails the test instead of hanging


def _game_with_events() -> Game:
    table = seated_table(banker=UserFactory())
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    anna, ben = game.players[:2]
    services.post_event(game_id=game.pk, event={"type": "pay", "from": anna, "to": ben,
                                                "amount": 100, "reason": "rent"},
                        author=None, now=T0 + dt.timedelta(minutes=1))
    return Game.objects.get(pk=game.pk)


def _writer(target, errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            target()
        except BaseException as error:  # noqa: BLE001 - the main thread judges it
            errors.append(error)
        finally:
            connection.close()

    return threading.Thread(target=run, name="writer")


def _stop_writer_after_the_state_changed(monkeypatch, *, applied, read) -> None:
    """The ``pay`` handler, in the writer thread only: the state is changed, the event not yet
    appended to the record; the writer waits there until the reader has read."""
    original = rules_engine._HANDLERS["pay"]

    def pay(state, event, index, at, commit):
        original(state, event, index, at, commit)
        if commit and threading.current_thread().name == "writer" and not applied.is_set():
            applied.set()
            assert read.wait(WAIT), "the reader never read"

    monkeypatch.setitem(rules_engine._HANDLERS, "pay", pay)


def test_a_reader_never_sees_a_half_applied_event(monkeypatch):
    game = _game_with_events()
    anna, ben = game.players[:2]
    committed = selectors.game_state(game, public=False)
    cash = {p["id"]: p["cash"] for p in committed["players"]}
    applied, read = threading.Event(), threading.Event()
    _stop_writer_after_the_state_changed(monkeypatch, applied=applied, read=read)
    errors: list[BaseException] = []
    writer = _writer(lambda: services.post_event(
        game_id=game.pk, event={"type": "pay", "from": anna, "to": ben, "amount": 250,
                                "reason": "rent"},
        author=None, now=T0 + dt.timedelta(minutes=2)), errors)
    writer.start()
    try:
        assert applied.wait(WAIT), "the writer never applied its event"
        # The reader, as a console or public request: the row as committed (2 events).
        seen = selectors.game_state(Game.objects.get(pk=game.pk), public=False)
    finally:
        read.set()
        writer.join(WAIT)
    assert not errors, errors
    assert seen["seq"] == 2
    # Before the fix: Anna had paid the 250 already, in a state that said 2 events.
    assert {p["id"]: p["cash"] for p in seen["players"]} == cash
    after = selectors.game_state(Game.objects.get(pk=game.pk), public=False)
    assert after["seq"] == 3
    assert {p["id"]: p["cash"] for p in after["players"]}[anna] == cash[anna] - 250


class RolledBack(Exception):
    pass


def test_a_post_that_rolls_back_leaves_nothing_cached_that_shows_its_event(monkeypatch):
    """The public table page is read while a post is half-way; the post then fails (its
    insert, as with a full disk). Neither the page nor its feed (cached for an hour under the
    event count), nor the record, ever show the event the database does not hold."""
    game = _game_with_events()
    table = game.table
    tournament = table.round.tournament
    anna, ben = game.players[:2]
    live.table_live(tournament, table.number)  # the reader's engine is the shared one
    got_engine, applied = threading.Event(), threading.Event()
    original_feed = live.feed_entries

    def feed_entries(engine, **kwargs):
        # The reader holds its engine; the writer now applies its event, then the feed is built.
        got_engine.set()
        assert applied.wait(WAIT), "the writer never applied its event"
        return original_feed(engine, **kwargs)

    monkeypatch.setattr(live, "feed_entries", feed_entries)
    read = threading.Event()
    original_store = services._store

    def store(*args, **kwargs):
        applied.set()
        assert read.wait(WAIT), "the reader never read"
        raise RolledBack("the insert failed")

    monkeypatch.setattr(services, "_store", store)
    cache.clear()
    errors: list[BaseException] = []
    reader_pages: list[dict] = []

    def post() -> None:
        assert got_engine.wait(WAIT), "the reader never took its engine"
        services.post_event(game_id=game.pk, event={"type": "pay", "from": anna, "to": ben,
                                                    "amount": 777, "reason": "rent"},
                            author=None, now=T0 + dt.timedelta(minutes=2))

    writer = _writer(post, errors)
    writer.start()
    try:
        reader_pages.append(live.table_live(tournament, table.number))
        record = selectors.record(Game.objects.get(pk=game.pk))
    finally:
        read.set()
        writer.join(WAIT)
    assert len(errors) == 1 and isinstance(errors[0], RolledBack), errors
    monkeypatch.setattr(services, "_store", original_store)
    monkeypatch.setattr(live, "feed_entries", original_feed)
    assert Game.objects.get(pk=game.pk).event_count == 2

    def shows_the_event(page: dict) -> bool:
        return any("777" in str(entry) for entry in page["feed"])

    assert not shows_the_event(reader_pages[0])
    assert not shows_the_event(live.table_live(tournament, table.number))  # the cached feed
    assert len(record["events"]) == 2
    assert all(event.get("amount") != 777 for event in record["events"])
    # The next post is the third event, from a consistent engine.
    services.post_event(game_id=game.pk, event={"type": "pay", "from": ben, "to": anna,
                                                "amount": 5, "reason": "rent"},
                        author=None, now=T0 + dt.timedelta(minutes=3))
    engine_cache.clear()
    fresh = selectors.game_state(Game.objects.get(pk=game.pk), public=False)
    assert fresh["seq"] == 3


def test_a_record_read_from_an_older_row_holds_exactly_that_rows_events():
    """The record is cached under its event count: a post committed between the reader's row
    and its events must not land in the record filed under the older count."""
    game = _game_with_events()
    anna, ben = game.players[:2]
    older = Game.objects.get(pk=game.pk)  # the reader's row: 2 events
    services.post_event(game_id=game.pk, event={"type": "pay", "from": ben, "to": anna,
                                                "amount": 5, "reason": "rent"},
                        author=None, now=T0 + dt.timedelta(minutes=2))
    assert len(selectors.record(older)["events"]) == older.event_count == 2
