"""The banker's console in a real browser on a 360-px phone: a whole Karlsruhe game, a game
that goes offline for a while and syncs without loss, and a reload without network (the console
kept by its service worker).

The server's clock is driven by the test (time_machine moves the live server's time too, it runs
in this process); nothing waits real minutes.
"""

from __future__ import annotations

import datetime as dt
import os
import time

import pytest
import time_machine
from browsing import login
from django.db import OperationalError
from factories import UserFactory, seated_table
from playwright.sync_api import expect

from referee import engine_cache, services
from referee.models import Game, GameEvent, GameResult
from referee.rules import get_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_script_errors")]

PHONE = {"width": 360, "height": 740}
SHOTS = os.environ.get("CONSOLE_SHOTS", "/tmp")
DEALS = {
    "Anna": ["badstrasse", "turmstrasse"],
    "Ben": ["parkstrasse", "schlossallee"],
    "Carla": ["seestrasse", "hafenstrasse"],
    "Dieter": ["suedbahnhof", "muenchner-strasse"],
    "Eva": ["chausseestrasse", "elisenstrasse"],
    "Frank": ["poststrasse", "westbahnhof"],
}


# --------------------------------------------------------------------------- helpers


@pytest.fixture(autouse=True)
def _fresh_engine_cache():
    """Primary keys are reused after a test's rollback; the process-wide engine cache is keyed by
    the game's pk and would hand a new game the engine of an old one with as many events."""
    engine_cache.clear()






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


# --------------------------------------------------------------------------- a whole game


@pytest.mark.slow
def test_a_karlsruhe_game_from_the_deal_to_the_confirmed_result(page, live_server):
    banker = UserFactory(username="bankerin")
    table = seated_table(banker=banker)
    keys = players(table)
    login(page, live_server, banker)
    page.set_viewport_size(PHONE)
    page.goto(f"/banker/table/{table.pk}/")
    assert page.locator("html").get_attribute("lang") == "de"
    page.wait_for_selector('#console-main[data-mode="setup"]')
    shot(page, "01-setup")
    no_horizontal_scroll(page)

    # --- start the clock
    page.locator('[data-testid="start"]').click()
    confirm(page, page.locator("#sheet-start"), table)
    assert wait_for_events(table, 1)[0].type == "start"

    # --- the deal: tap two deeds per player (Karlsruhe: paid)
    deal = page.locator(".deal-form")
    for name, deeds in DEALS.items():
        deal = page.locator(".deal-form")
        assert deal.locator(f'input[name="player"][value="{keys[name]}"]').is_checked()
        for deed in deeds:
            pick(deal, "deed", deed)
        answer_ok(deal)
        # Karlsruhe deals are paid: the answer shows the player's cash going down by the prices
        paid = sum(get_board(table.round.tournament.board).deed(deed).price for deed in deeds)
        # (the answer to the first tapped deed may still be on screen: wait for the latest)
        row = deal.locator(".cash-after tbody tr", has_text=name)
        expect(row.locator("td").nth(2)).to_have_text(f"-{paid}")
        deal.locator(".btn-confirm").click()
        settle(page, table)
    events = wait_for_events(table, 13)
    assert [(e.data["player"], e.data["deed"]) for e in events[1:]] == [
        (keys[name], deed) for name, deeds in DEALS.items() for deed in deeds
    ]
    page.wait_for_selector('#console-main[data-mode="play"]')
    shot(page, "02-play", top=True)
    no_horizontal_scroll(page)
    page.set_viewport_size({"width": 800, "height": 1100})
    shot(page, "02-play-tablet", top=True)
    no_horizontal_scroll(page)
    page.set_viewport_size(PHONE)

    # --- purchases
    sheet = open_action(page, keys["Carla"], "buy")
    pick(sheet, "deed", "neue-strasse")
    answer_ok(sheet)
    assert "160" in sheet.locator(".answer").inner_text()
    confirm(page, sheet, table)
    sheet = open_action(page, keys["Dieter"], "buy")
    pick(sheet, "deed", "wasserwerk")
    confirm(page, sheet, table)
    assert [e.type for e in wait_for_events(table, 15)[13:]] == ["buy", "buy"]

    # --- an uneven build is refused with the engine's reason, in German; then built evenly
    sheet = open_action(page, keys["Anna"], "buildings")
    plus_bad = sheet.locator('[data-step="1"][data-target="level-badstrasse"]')
    plus_turm = sheet.locator('[data-step="1"][data-target="level-turmstrasse"]')
    plus_bad.click()
    plus_bad.click()
    refusal = sheet.locator('.answer [data-rule="uneven_building"]')
    refusal.wait_for()
    assert "Turmstraße" in refusal.locator(".error").inner_text()
    assert "kein Haus" in refusal.locator(".error").inner_text()  # German first
    assert "no house" in refusal.locator(".other-lang").inner_text()  # English small
    assert sheet.locator(".btn-confirm").is_disabled()
    shot(page, "03-build-refused")
    plus_turm.click()
    plus_turm.click()
    answer_ok(sheet)
    assert "50" in sheet.locator(".answer").inner_text()
    confirm(page, sheet, table)
    events = wait_for_events(table, 19)
    assert [(e.type, e.data["deed"]) for e in events[15:]] == [
        ("build", "badstrasse"), ("build", "turmstrasse"),
        ("build", "badstrasse"), ("build", "turmstrasse"),
    ]

    # --- rent computed by the console: Eva lands on Badstraße with 2 houses
    sheet = open_action(page, keys["Eva"], "rent")
    pick(sheet, "deed", "badstrasse")
    answer_ok(sheet)
    assert "30" in sheet.locator(".answer").inner_text()
    confirm(page, sheet, table)
    rent = wait_for_events(table, 20)[19].data
    assert rent["type"] == "pay" and rent["amount"] == 30 and rent["to"] == keys["Anna"]

    # --- a correction: the rent is cancelled with a reason (the record keeps both)
    page.locator("details.feed > summary").click()
    page.locator('.feed-item[data-index="19"] [data-open="sheet-void"]').click()
    sheet = page.locator("#sheet-void")
    sheet.locator("[data-reason-text]").nth(2).click()  # "wrong amount"
    confirm(page, sheet, table)
    (void,) = last(table)
    assert void.type == "void" and void.data["event"] == 19 and void.data["reason"]
    page.wait_for_selector('.feed-item.is-voided[data-index="19"]')

    # --- a trade: Dieter gives Südbahnhof to Frank, who pays 150
    sheet = open_action(page, keys["Dieter"], "trade")
    pick(sheet, "partner", keys["Frank"])
    pick(sheet, "give", "suedbahnhof")
    sheet.locator('input[name="cash"]').fill("150")
    answer_ok(sheet)
    assert "150" in sheet.locator(".answer").inner_text()
    shot(page, "03b-trade")
    confirm(page, sheet, table)
    (trade,) = last(table)
    assert trade.data == {**trade.data, "type": "trade", "from": keys["Dieter"],
                          "to": keys["Frank"], "deeds": ["suedbahnhof"], "cash": 150}

    # --- jail and out again, paying the fine
    sheet = open_action(page, keys["Carla"], "jail")
    confirm(page, sheet, table)
    sheet = open_action(page, keys["Carla"], "release")
    answer_ok(sheet)
    assert "50" in sheet.locator(".answer").inner_text()
    confirm(page, sheet, table)
    jail, release = last(table, 2)
    assert (jail.type, release.type, release.data["fine"]) == ("jail", "release", True)

    # --- a mortgage
    sheet = open_action(page, keys["Frank"], "mortgage")
    pick(sheet, "mortgage", "westbahnhof")
    answer_ok(sheet)
    assert "100" in sheet.locator(".answer").inner_text()
    confirm(page, sheet, table)
    assert last(table)[0].data["deed"] == "westbahnhof"

    # --- a table-wide break with its reason
    page.locator("#btn-pause").click()
    confirm(page, page.locator("#sheet-pause"), table)
    (pause,) = last(table)
    assert pause.type == "pause" and pause.data["reason"] == "toilet_break"
    page.wait_for_selector("#clockbar.is-paused")
    frozen = page.locator("#clock-game").inner_text()
    page.wait_for_timeout(1200)
    assert page.locator("#clock-game").inner_text() == frozen
    shot(page, "04-paused")
    page.locator("#btn-resume").click()
    settle(page, table)
    assert last(table)[0].type == "resume"

    # --- 45:00: the server's clock jumps to 44:57 game time; the console's own clock runs on,
    #     passes 45:00 and asks the server, which records the stop: auction mode.
    game = game_of(table)
    target = game.started_at + dt.timedelta(seconds=game.paused_seconds + 44 * 60 + 57)
    with time_machine.travel(target, tick=True):
        page.reload()
        page.wait_for_selector('#clock-stop[data-level="danger"]')
        page.wait_for_selector('#console-main[data-mode="auction"]', timeout=15_000)
        game = game_of(table)
        assert game.auction_stop_done
        assert game.events.filter(type="auction_stop", author=None).count() == 1
        shot(page, "05-auction-stop", top=True)
        no_horizontal_scroll(page)
        assert page.locator('[data-open="sheet-buy"]').count() == 0

        # every deed still with the bank, in board order: Ben wins the first, no bid for the rest
        first = True
        auctioned = []
        while page.locator('#console-main[data-mode="auction"]').count():
            form = page.locator(".auction-form")
            deed = form.locator('input[name="deed"]').input_value()
            auctioned.append(deed)
            if first:
                pick(form, "winner", keys["Ben"])
                form.locator('input[name="price"]').fill("160")
                first = False
            else:
                pick(form, "winner", "none")
            confirm(page, form, table)
        from referee import rules

        board = [d.key for d in rules.get_board("classic-de").deeds]
        dealt_or_bought = {d for ds in DEALS.values() for d in ds} | {"neue-strasse", "wasserwerk"}
        assert auctioned == [k for k in board if k not in dealt_or_bought]
        page.wait_for_selector('#console-main[data-mode="play"]')

        # --- Frank goes bankrupt to the bank mid-game: his deeds come back and are auctioned
        sheet = open_action(page, keys["Frank"], "bankrupt")
        pick(sheet, "creditor", "bank")
        answer_ok(sheet)
        shot(page, "05b-bankrupt")
        assert "Poststraße" in sheet.locator(".answer").inner_text()
        assert "Südbahnhof" in sheet.locator(".answer").inner_text()  # traded to Frank
        confirm(page, sheet, table)
        page.wait_for_selector('#console-main[data-mode="auction"]')
        for deed in ("suedbahnhof", "poststrasse"):  # board order
            form = page.locator(".auction-form")
            assert form.locator('input[name="deed"]').input_value() == deed
            pick(form, "winner", "none")
            confirm(page, form, table)
        form = page.locator(".auction-form")
        assert form.locator('input[name="deed"]').input_value() == "westbahnhof"
        pick(form, "winner", keys["Carla"])
        form.locator('input[name="price"]').fill("120")
        confirm(page, form, table)
        page.wait_for_selector('#console-main[data-mode="play"]')
        westbahnhof = game_of(table).events.filter(type="auction").last().data
        assert westbahnhof == {**westbahnhof, "winner": keys["Carla"], "price": 120}

        # --- Eva goes bankrupt to Anna: the second bankruptcy ends the game
        sheet = open_action(page, keys["Eva"], "bankrupt")
        pick(sheet, "creditor", keys["Anna"])
        answer_ok(sheet)
        assert sheet.locator(".answer .note").count() == 1  # "the game ends"
        confirm(page, sheet, table)
        page.wait_for_selector('#console-main[data-mode="count"]')
        game = game_of(table)
        assert game.status == "finished" and game.end_reason == "second_bankruptcy"

        # --- the count: the banker enters the counted cash, the rest comes from the game
        form = page.locator(".count-form")
        form.locator(f'input[data-cash-for="{keys["Anna"]}"]').fill("1234")
        answer_ok(form)
        form.locator(".btn-confirm").click()
        settle(page, table)
        cash = game_of(table).events.filter(type="cash").get().data
        assert cash["player"] == keys["Anna"] and cash["amount"] == 1234
        anna_row = page.locator(f'tr[data-standing="{keys["Anna"]}"]')
        assert "1234" in anna_row.inner_text()
        shot(page, "06-count")
        no_horizontal_scroll(page)
        page.locator('[data-testid="count-finished"]').click()
        page.wait_for_selector('[data-result="counted"]')
        assert GameResult.objects.get(game__table=table).status == "counted"

        # --- a player of the table types the code from the players' slip
        code = game_of(table).confirmation_code
        wrong = "0000" if code != "0000" else "1111"
        page.locator('input[name="code"]').fill(wrong)
        page.locator('input[name="code"]').press("Enter")
        # the message stands next to the field, not scrolled away at the top
        page.wait_for_selector('[data-field-error="code"][data-code="wrong_confirmation_code"]')
        page.locator('input[name="code"]').fill(code)
        page.locator('input[name="code"]').press("Enter")
        page.wait_for_selector('[data-result="confirmed"]')
        shot(page, "07-confirmed")
    result = GameResult.objects.get(game__table=table)
    assert result.status == "confirmed" and result.confirmed_via == "player_code"
    assert result.placements.count() == 6
    assert result.placements.get(place=1).player_id in {int(keys["Anna"]), int(keys["Ben"])}


# --------------------------------------------------------------------------- offline


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


def _open_dealt_console(page, live_server, username: str, *, ready: str = "") -> tuple:
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


def test_offline_actions_queue_and_sync_in_order_without_loss(page, live_server):
    banker, table, keys = _open_dealt_console(page, live_server, "offline-banker")

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
    banker, table, keys = _open_dealt_console(page, live_server, "conflict-banker")

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


# --------------------------------------------------------------------------- reload without network


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


def test_a_reload_without_network_opens_the_kept_console_and_syncs_in_order(page, live_server):
    banker, table, keys = _open_dealt_console(page, live_server, "reload-banker",
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
