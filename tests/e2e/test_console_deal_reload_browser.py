"""The deal's ticks through a reload (seen in a browser walk: the ticks lived only in the page, so
a phone that discarded the tab, or a pull to refresh, before "Confirm the deal" dropped them all
without a word; the banker had to tick 12 deeds again and could miss some). The unbooked ticks
are kept in the tab's sessionStorage per table and game: a reload shows the same picks (the
player on screen, the other players' marks, the "+n" chips, the start sheet's count), drops a
deed booked meanwhile, books every tick once, and keeps none once the deal is booked or over."""

from __future__ import annotations

import re

from browsing import PHONE, login
from console_browsing import (
    CONSOLE_BROWSER,
    DEALS,
    answer_ok,
    game_of,
    pick,
    players,
    settle,
    wait_for_events,
)
from factories import UserFactory, seated_table
from playwright.sync_api import expect

from referee import services
from referee.models import GameEvent

pytestmark = CONSOLE_BROWSER

KEPT = "() => Object.keys(sessionStorage).filter((k) => k.startsWith('monopoly-console:deal:'))"


def _console(page, live_server, username: str):
    banker = UserFactory(username=username)
    table = seated_table(banker=banker)
    login(page, live_server, banker)
    page.set_viewport_size(PHONE)
    page.goto(f"/banker/table/{table.pk}/")
    _ready(page, "setup")
    return table, players(table)


def _ready(page, mode: str) -> None:
    page.wait_for_selector(f'#console-main[data-mode="{mode}"][data-ready]', state="attached")


def _reload(page, mode: str = "setup") -> None:
    page.reload()
    _ready(page, mode)


def _tick(deal, keys, picks: dict[str, list[str]]) -> None:
    for name, deeds in picks.items():
        pick(deal, "player", keys[name])
        for key in deeds:
            pick(deal, "deed", key)


def _dealt(table) -> list[tuple[str, str]]:
    return [(e.data["player"], e.data["deed"])
            for e in GameEvent.objects.filter(game__table=table).order_by("seq")]


def test_a_reload_shows_the_same_ticks_and_the_deal_books_each_once(page, live_server):
    table, keys = _console(page, live_server, "deal-reload-banker")
    deal = page.locator(".deal-form")
    deed = lambda key: deal.locator(f'input[name="deed"][value="{key}"]')  # noqa: E731
    chip = lambda name: deal.locator(  # noqa: E731
        f'label:has(input[name="player"][value="{keys[name]}"]) [data-ticked]'
    )
    _tick(deal, keys, {"Anna": DEALS["Anna"], "Ben": DEALS["Ben"]})

    # the tab discarded (or pulled to refresh) before confirming: the same picks again
    _reload(page)
    expect(deal.locator(f'input[name="player"][value="{keys["Ben"]}"]')).to_be_checked()
    for key in DEALS["Ben"]:
        expect(deed(key)).to_be_checked()
    for key in DEALS["Anna"]:
        expect(deed(key)).not_to_be_checked()
        expect(deed(key)).to_be_disabled()
        expect(deed(key)).to_have_attribute("data-ticked-for", keys["Anna"])
        mark = deal.locator(f'label:has(input[value="{key}"]) .deed-for')
        expect(mark).to_contain_text("Anna")
        expect(mark.locator(".owner-badge")).to_have_text("1")
    expect(chip("Anna")).to_have_text("+2")
    expect(chip("Ben")).to_have_text("+2")
    expect(chip("Carla")).to_be_hidden()
    expect(deal.locator("input[name=deed]:checked, [data-ticked-for]")).to_have_count(4)
    answer_ok(deal)
    expect(deal.locator(".answer li")).to_have_count(4)
    page.locator('[data-testid="start"]').click()
    start = page.locator("#sheet-start")
    expect(start.locator("[data-deal-missing]")).to_have_attribute("data-deal-missing", "0/12")
    expect(start.locator("[data-deal-unbooked]")).to_contain_text("4")
    start.locator("[data-close]").click()

    # one confirmation books them all, in seat order, each once
    deal.locator(".btn-confirm").click()
    wait_for_events(table, 4)
    settle(page, table)
    booked = [(keys[name], key) for name in ("Anna", "Ben") for key in DEALS[name]]
    assert _dealt(table) == booked
    assert page.evaluate(KEPT) == []

    # a reload after confirming: no leftover tick, nothing booked again
    _reload(page)
    expect(deal.locator("input[name=deed]:checked, [data-ticked-for]")).to_have_count(0)
    expect(deal.locator("[data-ticked]:visible")).to_have_count(0)
    expect(deal.locator(f'input[name="player"][value="{keys["Carla"]}"]')).to_be_checked()
    for key in DEALS["Anna"] + DEALS["Ben"]:
        expect(deed(key)).to_have_attribute("data-owned", "")
    page.locator('[data-testid="start"]').click()
    expect(start.locator("[data-deal-missing]")).to_have_attribute("data-deal-missing", "4/12")
    expect(start.locator("[data-deal-unbooked]")).to_be_hidden()
    start.locator("[data-close]").click()
    settle(page, table)
    assert _dealt(table) == booked


def test_a_deed_booked_meanwhile_is_not_offered_again_after_a_reload(page, live_server):
    table, keys = _console(page, live_server, "deal-meanwhile-banker")
    deal = page.locator(".deal-form")
    deed = lambda key: deal.locator(f'input[name="deed"][value="{key}"]')  # noqa: E731
    _tick(deal, keys, {"Anna": DEALS["Anna"], "Ben": DEALS["Ben"]})
    # nothing booked yet: the game has no row, the ticks are kept under the table's "new" key
    assert page.evaluate(KEPT) == [f"monopoly-console:deal:{table.pk}:new"]

    # another device deals one of Ben's ticked deeds to him (the game's first row)
    game = services.ensure_game(table=table)
    parkstrasse, schlossallee = DEALS["Ben"]
    services.post_event(game_id=game.pk, author=None,
                        event={"type": "deal", "player": keys["Ben"], "deed": parkstrasse})

    _reload(page)
    expect(deed(parkstrasse)).to_have_attribute("data-owned", "")
    expect(deed(parkstrasse)).not_to_be_checked()
    expect(deed(schlossallee)).to_be_checked()
    for key in DEALS["Anna"]:
        expect(deed(key)).to_have_attribute("data-ticked-for", keys["Anna"])
    expect(deal.locator(
        f'label:has(input[name="player"][value="{keys["Ben"]}"]) [data-ticked]'
    )).to_have_text("+1")
    assert page.evaluate(KEPT) == [f"monopoly-console:deal:{table.pk}:{game.pk}"]

    answer_ok(deal)
    expect(deal.locator(".answer li")).to_have_count(3)
    deal.locator(".btn-confirm").click()
    wait_for_events(table, 4)
    settle(page, table)
    assert _dealt(table) == [
        (keys["Ben"], parkstrasse),
        *((keys["Anna"], key) for key in DEALS["Anna"]),
        (keys["Ben"], schlossallee),
    ]
    assert page.evaluate(KEPT) == []


def test_ticks_are_dropped_once_the_deal_is_over(page, live_server):
    banker = UserFactory(username="deal-over-banker")
    table = seated_table(banker=banker)
    keys = players(table)
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, author=None, event={"type": "start"})
    login(page, live_server, banker)
    page.set_viewport_size(PHONE)
    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector("#console-main[data-ready] .deal-form", state="attached")
    deal = page.locator(".deal-form")
    _tick(deal, keys, {"Anna": DEALS["Anna"]})
    assert page.evaluate(KEPT) == [f"monopoly-console:deal:{table.pk}:{game.pk}"]

    # another device plays on (the clock runs): the deal phase is over
    services.post_event(game_id=game.pk, author=None,
                        event={"type": "pay", "from": keys["Anna"], "to": "bank", "amount": 10})
    assert game_of(table).status != "setup"

    _reload(page, "play")
    expect(page.locator(".deal-form")).to_have_count(0)
    assert page.evaluate(KEPT) == []


def test_a_deed_waiting_in_the_queue_is_not_ticked_again_after_a_reload(page, live_server):
    """A booked deal still waiting to be sent (no answer from the server) takes no tick back
    on a reload, even where a tab still keeps its ticks (a duplicated tab copies its
    sessionStorage): every deed is booked once."""
    table, keys = _console(page, live_server, "deal-queued-banker")
    deal = page.locator(".deal-form")
    _tick(deal, keys, {"Anna": DEALS["Anna"], "Ben": DEALS["Ben"]})
    (key,) = page.evaluate(KEPT)
    copy = page.evaluate("(key) => sessionStorage.getItem(key)", key)
    events_url = page.evaluate(
        "JSON.parse(document.getElementById('console-config').textContent).urls.events"
    )
    page.route(f"**{events_url}*", lambda route: route.abort())
    answer_ok(deal)
    deal.locator(".btn-confirm").click()
    page.wait_for_function("() => MCS.bankerConsole.queue().length === 4")
    assert page.evaluate(KEPT) == []

    page.evaluate("([key, copy]) => sessionStorage.setItem(key, copy)", [key, copy])
    _reload(page)
    page.wait_for_function("() => MCS.bankerConsole.queue().length === 4")
    expect(deal.locator("input[name=deed]:checked, [data-ticked-for]")).to_have_count(0)
    expect(deal.locator("[data-ticked]:visible")).to_have_count(0)
    for key in DEALS["Anna"] + DEALS["Ben"]:
        expect(deal.locator(f'label:has(input[value="{key}"])')).to_have_class(
            re.compile(r"\bis-queued\b")
        )
    assert page.evaluate(KEPT) == []

    page.unroute(f"**{events_url}*")
    page.evaluate("MCS.bankerConsole.flush()")
    wait_for_events(table, 4)
    settle(page, table)
    assert _dealt(table) == [(keys[name], key) for name in ("Anna", "Ben") for key in DEALS[name]]
