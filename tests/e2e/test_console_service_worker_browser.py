"""The banker's console kept by its service worker: a reload without network opens the kept
console and syncs the queued actions in order; logging out drops what was kept."""

from __future__ import annotations

import pytest
from browsing import login
from console_browsing import (
    CONSOLE_BROWSER,
    confirm,
    confirm_offline,
    game_of,
    open_action,
    open_dealt_console,
    settle,
    shot,
    wait_for_events,
    wait_until_kept,
)
from factories import UserFactory, seated_table

pytestmark = CONSOLE_BROWSER


def test_a_reload_without_network_opens_the_kept_console_and_syncs_in_order(page, live_server):
    banker, table, keys = open_dealt_console(page, live_server, "reload-banker",
                                              ready='[data-source="network"]')
    # The first visit is not controlled yet: the worker takes over at once (clients.claim) and
    # the console fetches the page, its fragment and its files once through it.
    wait_until_kept(page, live_server, table)
    # One more action online: the kept fragment is now newer than the kept page.
    confirm(page, open_action(page, keys["Carla"], "jail"), table)
    assert game_of(table).event_count == 14

    page.context.set_offline(True)
    sheet = open_action(page, keys["Anna"], "buy")
    confirm_offline(sheet, "neue-strasse")
    page.wait_for_selector('#net-status[data-queued="1"][data-state="offline"][data-stale="0"]')

    # While it reloads, the page being left gets a spurious "online" event from Chromium's
    # offline emulation, and its flush then really reaches the server (about one run in four).
    # A real outage has no such moment: the page being left gets no network at all.
    page.evaluate("() => { window.fetch = () => Promise.reject(new TypeError('offline')); }")
    page.reload()  # without the worker: "no internet" and no console
    # the kept page (13 events) shows the kept fragment (14 events), as the banker left it
    page.wait_for_selector(
        '#console-main[data-source="cache"][data-seq="14"][data-ready]', state="attached"
    )
    status = page.locator('#net-status[data-state="offline"][data-queued="1"][data-stale="1"]')
    status.wait_for()
    text = status.inner_text()
    assert "Offline" in text and "Stand von" in text and "1 Aktion wartet" in text, text
    assert status.locator(".queue-list li").count() == 1  # Anna's purchase, still waiting
    shot(page, "10-offline-reload")

    sheet = open_action(page, keys["Ben"], "buy")
    # the deed of Anna's purchase (queued before the reload) cannot be picked again
    assert sheet.locator('input[name="deed"][value="neue-strasse"]').is_disabled()
    confirm_offline(sheet, "wasserwerk")
    page.wait_for_selector('#net-status[data-queued="2"][data-stale="1"]')
    assert "2 Aktionen warten" in page.locator("#net-status").inner_text()
    assert game_of(table).event_count == 14  # nothing reached the server

    page.context.set_offline(False)
    page.wait_for_selector(
        '#net-status[data-queued="0"][data-stale="0"]', state="attached", timeout=15_000
    )
    events = wait_for_events(table, 16)
    assert len(events) == 16
    assert [(e.type, e.data["player"], e.data["deed"]) for e in events[14:]] == [
        ("buy", keys["Anna"], "neue-strasse"), ("buy", keys["Ben"], "wasserwerk"),
    ]
    assert all(e.author_id == banker.pk for e in events[13:])
    settle(page, table)
    # the server's own state again: no note, nothing waiting
    page.wait_for_selector('#console-main[data-source="network"]', state="attached")
    assert not page.locator("#net-status").is_visible()


def test_logging_out_drops_the_kept_console(page, live_server):
    from playwright.sync_api import Error as PlaywrightError

    banker = UserFactory(username="shared-phone")
    table = seated_table(banker=banker)
    login(page, live_server, banker)
    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector("#console-main[data-ready]", state="attached")
    wait_until_kept(page, live_server, table)

    page.locator("form[data-logout] button").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.evaluate(
        "async () => (await caches.keys()).filter((n) => n.startsWith('banker-console-'))"
    ) == []
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError):  # nothing left to show the next person
        page.goto(f"/banker/table/{table.pk}/")
