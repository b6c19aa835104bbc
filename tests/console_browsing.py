"""Helpers for the banker's console in a real browser (the test_console_*_browser modules):
the deal every game starts with, a console opened on a dealt table, the sheets of its actions
opened, answered and confirmed (online and queued offline), the recorded events waited for, and
what the console's service worker keeps."""

from __future__ import annotations

import os
import time

import pytest
from browsing import PHONE, login
from django.db import OperationalError
from factories import UserFactory, seated_table

from referee import services
from referee.models import Game, GameEvent

SHOTS = os.environ.get("CONSOLE_SHOTS", "/tmp")
#: What every console browser module runs with: a live server's database, no script error on
#: the page (the engine cache is cleared before every test: tests/conftest.py).
CONSOLE_BROWSER = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
                   pytest.mark.usefixtures("no_script_errors")]
DEALS = {
    "Anna": ["badstrasse", "turmstrasse"],
    "Ben": ["parkstrasse", "schlossallee"],
    "Carla": ["seestrasse", "hafenstrasse"],
    "Dieter": ["suedbahnhof", "muenchner-strasse"],
    "Eva": ["chausseestrasse", "elisenstrasse"],
    "Frank": ["poststrasse", "westbahnhof"],
}


def players(table) -> dict[str, str]:
    """First name -> engine key, in seat order."""
    seats = table.seats.order_by("position").select_related("player")
    return {seat.player.name.split()[0]: str(seat.player_id) for seat in seats}


def game_of(table) -> Game:
    return Game.objects.get(table=table)


def wait_for_events(table, count: int, timeout: float = 10) -> list[GameEvent]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            events = list(GameEvent.objects.filter(game__table=table).order_by("seq"))
        except OperationalError as error:  # SQLite's shared in-memory test database, mid-write
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
            continue
        if len(events) >= count:
            return events
        if time.monotonic() > deadline:
            raise AssertionError(
                f"expected {count} events, have {len(events)}: {[e.data for e in events]}"
            )
        time.sleep(0.05)


def settle(page, table) -> None:
    """Queue sent and the fragment re-rendered at the server's sequence number."""
    page.wait_for_function(
        "() => window.MCS && MCS.bankerConsole && MCS.bankerConsole.queue().length === 0"
    )
    seq = game_of(table).event_count
    page.wait_for_selector(f'#console-main[data-seq="{seq}"][data-ready]', state="attached")


def answer_ok(scope) -> None:
    scope.locator('.answer [data-ok="1"]').wait_for()


def confirm(page, scope, table) -> None:
    """Wait for the engine's answer, confirm, wait until it is recorded and shown."""
    answer_ok(scope)
    scope.locator(".btn-confirm").click()
    settle(page, table)


def open_action(page, player_key: str, action: str):
    page.locator(f'[data-select-player="{player_key}"]').click()
    page.locator(f'[data-open="sheet-{action}"][data-player="{player_key}"]').click()
    sheet = page.locator(f"#sheet-{action}")
    sheet.wait_for()
    return sheet


def confirm_offline(sheet, deed: str | None = None) -> None:
    """Without network: pick the deed, see that the server could not be asked (the action is
    queued unchecked), confirm."""
    if deed:
        pick(sheet, "deed", deed)
    sheet.locator(".offline-note").wait_for()
    sheet.locator(".btn-confirm").click()


def pick(scope, name: str, value: str) -> None:
    scope.locator(f'label:has(input[name="{name}"][value="{value}"])').first.click()


def shot(page, name: str, *, top: bool = False) -> None:
    if top:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=os.path.join(SHOTS, f"console-{name}.png"), full_page=False)


def last(table, n: int = 1) -> list[GameEvent]:
    """The last ``n`` events of the table's game, oldest first."""
    return list(GameEvent.objects.filter(game__table=table).order_by("-seq")[:n])[::-1]


def no_horizontal_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def _dealt_game(table, keys) -> Game:
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    for name, deeds in DEALS.items():
        for deed in deeds:
            services.post_event(
                game_id=game.pk, event={"type": "deal", "player": keys[name], "deed": deed},
                author=None,
            )
    return game_of(table)


def open_dealt_console(page, live_server, username: str, *, ready: str = "") -> tuple:
    """A banker's phone on a table whose set-up deal is done: (banker, table, player keys)."""
    banker = UserFactory(username=username)
    table = seated_table(banker=banker)
    keys = players(table)
    game = _dealt_game(table, keys)
    assert game.event_count == 13
    login(page, live_server, banker)
    page.set_viewport_size(PHONE)
    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector(f'#console-main[data-mode="play"]{ready}')
    return banker, table, keys


def kept(page, url: str) -> bool:
    """Whether the service worker's cache holds ``url`` (any query, any Vary)."""
    return page.evaluate(
        "async (url) => !!(await caches.match(url, {ignoreVary: true}))", url
    )


def wait_until_kept(page, live_server, table) -> None:
    """The worker controls the page and has kept the page, its fragment and its files."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    urls = [
        f"{live_server.url}/banker/table/{table.pk}/",
        f"{live_server.url}/banker/table/{table.pk}/main/",
        f"{live_server.url}/static/js/console.js",
        f"{live_server.url}/static/js/console/queue.js",
        f"{live_server.url}/static/js/console/actions.js",
        f"{live_server.url}/static/js/console/conflict.js",
        f"{live_server.url}/static/js/htmx.min.js",
        f"{live_server.url}/static/css/console.css",
    ]
    deadline = time.monotonic() + 10
    while not all(kept(page, url) for url in urls):
        assert time.monotonic() < deadline, [url for url in urls if not kept(page, url)]
        page.wait_for_timeout(100)
