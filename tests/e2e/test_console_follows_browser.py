"""Issue 28, "the console follows": two phones at one table. The second sees the first's action
within 2 s (it polled the state every 20 s and showed it after ~19 s), extra time given at the
desk reaches its countdown and its chip without a reload, and Back then Forward shows the table
as it is now, not as it was when the page was left; and an action held back because the session
expired is sent once the banker has logged in again.

Every wait is for a condition; the 2-s bound is the wait's own timeout, counted from the moment
the acting phone has its answer (the state poll runs every second, the fragment follows)."""

from __future__ import annotations

import time
from urllib.parse import unquote

import pytest
from browsing import PHONE, db, login_as, watched_page
from consoles import dealt_game, ended_table, keys
from django.conf import settings
from factories import UserFactory, seated_table

from referee import rulings, services
from referee.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FOLLOW_MS = 2000  # the bound: an action on one phone shows on the other within 2 s


@pytest.fixture
def phones_browser(browser, chromium_path):
    """Chromium as a phone runs it: Back/Forward may show a page kept in memory (bfcache),
    which Playwright turns off by default (the issue's page ~20 s out of date was one)."""
    other = browser.browser_type.launch(
        executable_path=chromium_path, headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        ignore_default_args=["--disable-back-forward-cache"])
    yield other
    other.close()


def dealt_table(username: str):
    """A table whose set-up deal is done (13 events), its banker and its players' keys."""
    banker = UserFactory(username=username)
    table = seated_table(banker=banker)
    dealt_game(services.ensure_game(table=table), table)
    return banker, table, keys(table)


def phone(browser, live_server, banker, errors: list[str], *, start: str = ""):
    """A German phone logged in as ``banker`` (no service worker: its first visit fetches the
    page once more); ``start``: a page opened before the console (Back leads there)."""
    page = watched_page(browser, live_server, errors, viewport=PHONE, service_workers="block")
    login_as(page.context, live_server, banker)
    # Whether Back/Forward showed the page from the browser's memory (bfcache) or loaded it.
    page.context.add_init_script(
        "addEventListener('pageshow', (e) => { window.__restored = e.persisted; });")
    if start:
        page.goto(start)
    return page


def open_console(page, table, seq: int) -> None:
    page.goto(f"/banker/table/{table.pk}/")
    shows(page, seq)


def shows(page, seq: int, *, timeout: float | None = None) -> None:
    page.wait_for_selector(f'#console-main[data-seq="{seq}"][data-ready]', state="attached",
                           timeout=timeout)


def jail(page, player: str) -> float:
    """Sends ``player`` to jail from the player's sheet; the moment its answer came back."""
    page.locator(f'[data-select-player="{player}"]').click()
    page.locator(f'[data-open="sheet-jail"][data-player="{player}"]').click()
    sheet = page.locator("#sheet-jail")
    sheet.locator('.answer [data-ok="1"]').wait_for()
    with page.expect_response(lambda r: "/events" in r.url and r.request.method == "POST") as post:
        sheet.locator(".btn-confirm").click()
    assert post.value.status == 201, post.value.text()
    return time.monotonic()


def followed(page, seq: int, answered: float, latencies: list[float]) -> None:
    """``page`` shows ``seq`` within 2 s of the other phone's answer."""
    shows(page, seq, timeout=FOLLOW_MS)
    latencies.append(time.monotonic() - answered)


def limit_seconds(page) -> int:
    """The seconds the time limit's chip shows as left ("Limit in 94:58")."""
    return page.evaluate("""() => {
        const m = /(\\d+):(\\d\\d)/.exec(document.getElementById('clock-limit').textContent);
        return m ? Number(m[1]) * 60 + Number(m[2]) : -1;
    }""")


def test_a_second_phone_follows_the_first_within_two_seconds(phones_browser, live_server):
    banker, table, players = dealt_table("follow-banker")
    carla, dieter, eva = players[2], players[3], players[4]
    errors: list[str] = []
    first = phone(phones_browser, live_server, banker, errors)
    second = phone(phones_browser, live_server, banker, errors, start="/banker/")
    open_console(first, table, 13)
    open_console(second, table, 13)
    second.evaluate("window.__samePage = true")  # a reload would lose it
    latencies: list[float] = []

    # --- an action on the first phone shows on the second
    answered = jail(first, carla)
    followed(second, 14, answered, latencies)
    assert second.locator(
        f'[data-open="sheet-release"][data-player="{carla}"]').count() == 1

    # --- extra time given elsewhere (the head referee at the desk): countdown and chip
    second.wait_for_function("() => !document.getElementById('clock-limit').hidden")
    before = limit_seconds(second)
    assert second.locator("#clock-extra").is_hidden()
    game = db(Game.objects.get, table=table)
    db(rulings.extra_time, game_id=game.pk, minutes=5, reason="Spielbrett neu aufgebaut", by=None)
    given = time.monotonic()
    second.wait_for_selector('#clock-extra[data-extra-minutes="5"]:not([hidden])',
                             timeout=FOLLOW_MS)
    latencies.append(time.monotonic() - given)
    assert second.locator("#clock-extra").inner_text().startswith("+5 Min.")
    # the countdown moved by the five minutes (less the seconds that passed meanwhile)
    second.wait_for_function(
        "(before) => { const m = /(\\d+):(\\d\\d)/.exec("
        "document.getElementById('clock-limit').textContent);"
        " return m && Number(m[1]) * 60 + Number(m[2]) > before + 240; }",
        arg=before, timeout=FOLLOW_MS)
    assert second.evaluate("window.__samePage") is True  # no reload
    first.wait_for_selector('#clock-extra[data-extra-minutes="5"]:not([hidden])',
                            timeout=FOLLOW_MS)

    # --- Back, an action meanwhile, then Forward: the console as the table is now
    # (a page shown from the bfcache fires no "load": wait for the navigation itself)
    second.go_back(wait_until="commit")
    second.wait_for_url("**/banker/", wait_until="commit")
    answered = jail(first, dieter)
    second.go_forward(wait_until="commit")
    followed(second, 15, answered, latencies)
    assert second.locator(
        f'[data-open="sheet-release"][data-player="{dieter}"]').count() == 1
    restored = second.evaluate("window.__restored")

    # --- and once more while a sheet is open on the second phone: the sheet stays as it is
    second.locator(f'[data-select-player="{eva}"]').click()
    second.locator(f'[data-open="sheet-jail"][data-player="{eva}"]').click()
    known = second.evaluate("MCS.bankerConsole.state()")
    jail(first, players[0])
    # the second phone has seen the change, but does not redraw under the banker's sheet
    second.wait_for_function("(known) => MCS.bankerConsole.state() !== known", arg=known)
    assert second.locator("#sheet-jail").is_visible()
    assert second.locator('#console-main[data-seq="15"]').count() == 1
    second.locator("#sheet-jail [data-close]").first.click()
    shows(second, 16, timeout=FOLLOW_MS)  # drawn once it closed

    print(f"\nfollow latencies (s): {[round(x, 2) for x in latencies]}; "
          f"Forward from bfcache: {restored}")
    assert errors == []


def expire_session(page, live_server) -> None:
    """The session on the phone is no longer valid (expired, or its banker link revoked)."""
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": "expired",
                               "url": live_server.url}])


def hold_offline(page, player: str) -> None:
    """Sends ``player`` to jail without network, then the network comes back."""
    page.context.set_offline(True)
    page.locator(f'[data-select-player="{player}"]').click()
    page.locator(f'[data-open="sheet-jail"][data-player="{player}"]').click()
    sheet = page.locator("#sheet-jail")
    sheet.locator(".offline-note").wait_for()
    sheet.locator(".btn-confirm").click()
    page.wait_for_selector('#net-status[data-queued="1"]')
    page.context.set_offline(False)


def held_for_the_session(page) -> None:
    box = page.locator("#conflict")
    box.locator('[data-testid="session-kept"]').wait_for()
    assert box.locator('[data-conflict="retry"]').is_visible()
    login = box.locator("a.btn").get_attribute("href")  # the login, back to this console
    assert "next=" in login and "/banker/table/" in unquote(login)
    assert page.evaluate("MCS.bankerConsole.queue().length") == 1


def events(table) -> int:
    return db(lambda: Game.objects.get(table=table).event_count)


def test_an_action_held_back_by_an_expired_session_is_sent_after_logging_in_again(browser,
                                                                                   live_server):
    banker, table, players = dealt_table("relogin-banker")
    errors: list[str] = []
    page = phone(browser, live_server, banker, errors)
    open_console(page, table, 13)

    # --- queued offline; back online the session has expired: held, not lost, not dropped
    expire_session(page, live_server)
    hold_offline(page, players[2])
    held_for_the_session(page)
    page.locator('#conflict [data-conflict="retry"]').click()  # still logged out: held again
    held_for_the_session(page)
    assert events(table) == 13

    # --- logged in again (another tab): "Send again" sends it as it was
    login_as(page.context, live_server, banker)
    page.locator('#conflict [data-conflict="retry"]').click()
    shows(page, 14)
    page.wait_for_function("() => MCS.bankerConsole.queue().length === 0")
    assert page.locator("#conflict").is_hidden()
    assert events(table) == 14

    # --- held again; the banker logs in and comes back to the console: sent by itself
    expire_session(page, live_server)
    hold_offline(page, players[3])
    held_for_the_session(page)
    login_as(page.context, live_server, banker)
    page.reload()
    shows(page, 15)
    page.wait_for_function("() => MCS.bankerConsole.queue().length === 0")
    assert page.locator("#conflict").is_hidden()
    assert events(table) == 15
    assert errors == []


def test_a_follow_answered_after_a_sheet_opened_leaves_the_sheet_open(browser, live_server):
    """The race CI met: the poll saw a change and asked for the fragment; before it came, the
    banker opened a sheet. The sheets live in the fragment: swapping it closed the sheet under
    the banker's finger (and the answer the sheet waited for never showed)."""
    banker, table, players = dealt_table("race-banker")
    errors: list[str] = []
    page = phone(browser, live_server, banker, errors)
    open_console(page, table, 13)
    held: list = []

    def fragment(url: str) -> bool:
        return "/main/" in url

    page.route(fragment, lambda route: held.append(route))  # the fragment waits for the test

    game = db(Game.objects.get, table=table)
    db(rulings.extra_time, game_id=game.pk, minutes=5, reason="Spielbrett neu aufgebaut", by=None)
    page.wait_for_selector('#clock-extra[data-extra-minutes="5"]:not([hidden])')
    deadline = time.monotonic() + 5
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the follow's fragment request is on its way
    assert held, "the follow never asked for the fragment"

    page.locator(f'[data-select-player="{players[2]}"]').click()
    page.locator(f'[data-open="sheet-jail"][data-player="{players[2]}"]').click()
    sheet = page.locator("#sheet-jail")
    sheet.locator('.answer [data-ok="1"]').wait_for()
    with page.expect_response(lambda r: "/main/" in r.url):
        held.pop(0).continue_()
    page.unroute(fragment)  # (the routes it still holds go on to the server)
    page.wait_for_timeout(300)  # a swap would have happened by now
    assert sheet.is_visible()
    assert sheet.locator('.answer [data-ok="1"]').is_visible()

    # the banker books it; the console then shows the newest state (the extra time, the jail)
    with page.expect_response(lambda r: "/events" in r.url and r.request.method == "POST") as post:
        sheet.locator(".btn-confirm").click()
    assert post.value.status == 201, post.value.text()
    shows(page, 14)
    assert page.locator(
        f'[data-open="sheet-release"][data-player="{players[2]}"]').count() == 1
    assert errors == []


def counted_console(page, table) -> None:
    """The ended game's console: one cash counted, "Count finished": the code's form."""
    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector('#console-main[data-mode="count"]')
    form = page.locator(".count-form")
    form.locator(f'input[data-cash-for="{db(keys, table)[0]}"]').fill("1234")
    form.locator('.answer [data-ok="1"]').wait_for()
    form.locator(".btn-confirm").click()
    page.wait_for_function("() => MCS.bankerConsole.queue().length === 0")
    page.locator('[data-testid="count-finished"]').click()
    page.wait_for_selector('[data-result="counted"]')


def test_a_follow_answered_late_keeps_the_typed_code_and_the_refusal(browser, live_server):
    """CI met this too: a follow's fragment that arrived while the banker typed the code
    emptied the field, so Enter sent nothing (the field is required) and the refusal never
    came. The typed digits and the cursor now stay. And a follow answered after the code's
    refusal leaves the refusal (htmx drops an answer whose target was replaced meanwhile)."""
    table = db(ended_table)
    errors: list[str] = []
    page = phone(browser, live_server, table.banker, errors)
    counted_console(page, table)
    held: list = []

    def fragment(url: str) -> bool:
        return "/main/" in url

    page.route(fragment, lambda route: held.append(route))

    def follow_asked() -> None:
        page.evaluate("() => { MCS.bankerConsole.refresh(); }")  # what a follow does on a change
        # Held once the route saw it: the page's ``.htmx-request`` class comes before the route
        # reaches this process (CI under load: the class was there, the route not yet).
        deadline = time.monotonic() + 10
        while not held and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert held, "the fragment was not asked for"

    # --- typed while a follow's fragment comes: the typed digits and the cursor stay
    follow_asked()
    code = page.locator('input[name="code"]')
    code.fill("12")
    page.evaluate("() => { document.getElementById('console-main').dataset.old = '1'; }")
    with page.expect_response(lambda r: fragment(r.url)):
        held.pop(0).continue_()
    page.wait_for_selector("#console-main[data-ready]:not([data-old])", state="attached")
    assert code.input_value() == "12"
    assert page.evaluate("document.activeElement && document.activeElement.name") == "code"

    # --- the code refused while an older follow is on its way: the refusal stays (a guard)
    follow_asked()
    wrong = "0000" if db(lambda: table.game.confirmation_code) != "0000" else "1111"
    code.fill(wrong)
    code.press("Enter")
    page.wait_for_selector('[data-field-error="code"]')
    with page.expect_response(lambda r: fragment(r.url)):
        held.pop(0).continue_()
    page.unroute(fragment)
    page.wait_for_timeout(300)  # a swap would have happened by now
    assert page.locator('[data-field-error="code"]').is_visible()
    assert errors == []
