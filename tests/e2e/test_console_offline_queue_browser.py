"""The banker's console without network: actions are queued and sync in order without loss
once it is back; an action the server refuses stops the flush and is shown."""

from __future__ import annotations

import re

from console_browsing import (
    CONSOLE_BROWSER,
    confirm_offline,
    game_of,
    open_action,
    open_dealt_console,
    settle,
    shot,
    wait_for_events,
)

pytestmark = CONSOLE_BROWSER


def test_offline_actions_queue_and_sync_in_order_without_loss(page, live_server):
    banker, table, keys = open_dealt_console(page, live_server, "offline-banker")

    page.context.set_offline(True)
    clock_before = page.locator("#clock-game").inner_text()
    # Nothing waiting yet: "Offline", not "Offline – 0 in der Warteschlange" (issue 28)
    page.wait_for_selector('#net-status[data-state="offline"][data-queued="0"]')
    assert page.locator("#net-status").inner_text().strip() == "Offline"

    sheet = open_action(page, keys["Anna"], "buy")
    confirm_offline(sheet, "neue-strasse")
    status = page.locator("#net-status")
    page.wait_for_selector('#net-status[data-queued="1"][data-state="offline"]')

    sheet = open_action(page, keys["Ben"], "buy")
    # the deed Anna's queued purchase takes cannot be picked again
    assert sheet.locator('input[name="deed"][value="neue-strasse"]').is_disabled()
    confirm_offline(sheet, "wasserwerk")
    page.wait_for_selector('#net-status[data-queued="2"]')
    assert "2" in status.inner_text()
    assert status.is_visible()
    shot(page, "08-offline-queued")
    page.wait_for_timeout(1500)
    assert page.locator("#clock-game").inner_text() != clock_before  # the clock runs on
    assert game_of(table).event_count == 13  # nothing reached the server

    page.context.set_offline(False)
    page.wait_for_selector('#net-status[data-queued="0"]', state="attached", timeout=15_000)
    events = wait_for_events(table, 15)
    assert len(events) == 15
    assert [(e.type, e.data["player"], e.data["deed"]) for e in events[13:]] == [
        ("buy", keys["Anna"], "neue-strasse"), ("buy", keys["Ben"], "wasserwerk"),
    ]
    assert len({e.idempotency_key for e in events[13:]}) == 2
    assert all(e.author_id == banker.pk for e in events[13:])
    settle(page, table)
    assert page.locator('#clockbar').is_visible()


def test_a_refused_queued_action_stops_the_flush_and_is_shown(page, live_server):
    banker, table, keys = open_dealt_console(page, live_server, "conflict-banker")

    page.context.set_offline(True)
    # The panel is stale while offline: Anna can be sent to jail twice, and Ben buys after.
    for _ in range(2):
        confirm_offline(open_action(page, keys["Anna"], "jail"))
    sheet = open_action(page, keys["Ben"], "buy")
    confirm_offline(sheet, "wasserwerk")
    page.wait_for_selector('#net-status[data-queued="3"]')

    page.context.set_offline(False)
    conflict = page.locator("#conflict")
    conflict.wait_for(state="visible", timeout=15_000)
    conflict.locator('[data-rule="already_in_jail"]').wait_for()  # named by the console's check
    assert "Anna Test" in conflict.inner_text()
    assert wait_for_events(table, 14)[13].type == "jail"
    assert game_of(table).event_count == 14  # the flush stopped: Ben's purchase waits
    assert page.locator('#net-status[data-queued="2"]').count() == 1
    shot(page, "09-conflict")

    conflict.locator('[data-conflict="drop"]').click()
    conflict.wait_for(state="hidden")
    events = wait_for_events(table, 15)
    assert [e.type for e in events[13:]] == ["jail", "buy"]
    assert events[14].data["player"] == keys["Ben"]
    settle(page, table)
    assert game_of(table).event_count == 15  # the dropped second jail was never recorded


def test_an_answer_that_arrives_after_the_network_went_away_does_not_say_online(page, live_server):
    """A poll sent just before the phone lost its network may still be answered: that late
    answer must not turn "Offline" back into online while the browser says it has no network
    (the banker would trust that an action is sent when it is only queued)."""
    open_dealt_console(page, live_server, "late-answer-banker")
    held = []
    state = re.compile(r"/api/v1/tables/\d+/state(\?|$)")
    page.route(state, lambda route: held.append(route))  # the next poll waits
    for _ in range(150):  # a poll a second; a busy machine may be slower
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the console did not poll its table's state"

    page.context.set_offline(True)
    page.wait_for_selector('#net-status[data-state="offline"]')
    held[0].fulfill(status=304)  # the server's answer to the poll sent before
    page.wait_for_timeout(500)
    status = page.locator("#net-status")
    assert status.get_attribute("data-state") == "offline"
    assert status.inner_text().strip() == "Offline"
    page.unroute(state)
