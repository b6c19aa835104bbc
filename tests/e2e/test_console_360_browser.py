"""Issue 24, finding 7: the console on a 360-px phone with every chip and badge the day can
produce — extra time from the head referee, the head referee's banner, offline, strict cash,
the last round of turns, a long tournament name — never scrolls sideways, and every sheet's
confirm and close buttons are on screen. In German and in English, from the head referee's
+5 minutes to the result confirmed with the table's code.

The time limit is the server's deadline, driven by the test (``enforce_deadlines`` after the
game time has passed 90 + 5 minutes; time_machine moves the live server's clock too)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from browsing import PHONE, db, login_as
from django.utils import timezone
from factories import UserFactory, appoint, seated_table

from referee import engine_cache, rules
from referee import services as referee
from referee.models import Game, GameResult
from tournament.models import StaffRole

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG_NAME = ("1. Offene Monopoly-Stadtmeisterschaft Karlsruhe-Durlach und Umgebung "
             "der Spielfreunde Grötzingen e. V.")
LOCALES = {"de": "de-DE", "en": "en-GB"}


def phone_for(browser, live_server, user, lang: str, errors: list[str]):
    context = browser.new_context(base_url=live_server.url, locale=LOCALES[lang],
                                  viewport=PHONE, extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    login_as(context, live_server, user)
    return page


def no_sideways_scroll(page, step: str) -> None:
    width = page.evaluate("() => Math.max(document.documentElement.scrollWidth, "
                          "document.body.scrollWidth)")
    if width > PHONE["width"]:
        page.screenshot(path=f"/tmp/console360-fail-{step}.png")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' +
                                    Math.round(e.getBoundingClientRect().right))""")
        raise AssertionError(f"{step}: the page is {width} px wide: {wide}")


def on_screen(page, locator, step: str) -> None:
    """Wholly inside the phone's viewport: tapped without scrolling sideways (a sheet is a
    fixed dialog, so not without scrolling at all either)."""
    box = locator.bounding_box()
    assert box is not None, step
    inside = (box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
              and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"])
    if not inside:
        page.screenshot(path=f"/tmp/console360-fail-{step}.png")
    assert inside, (step, box)


def within_width(page, locator, step: str) -> None:
    """A button of the page (not of a sheet): reachable by scrolling down only."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (
        step, box)
    on_screen(page, locator, step)


def use_sheet(page, sheet_id: str, step: str, shot: str | None = None) -> None:
    """Both of the sheet's buttons on screen and the page still 360 px wide; then confirm."""
    sheet = page.locator(f"#{sheet_id}")
    sheet.locator('.answer [data-ok="1"], .answer .offline-note').first.wait_for()
    button = sheet.locator(".btn-confirm")
    page.wait_for_function(f"() => !document.querySelector('#{sheet_id} .btn-confirm').disabled")
    no_sideways_scroll(page, step)
    on_screen(page, sheet.locator(".btn-close"), f"{step}-close")
    on_screen(page, button, f"{step}-confirm")
    if shot:
        page.screenshot(path=f"/tmp/console360-{shot}.png")
    button.click()


def wait_sent(page) -> None:
    """The queue is empty and the fragment's refresh after the send has landed (a refresh still
    under way when the test goes offline or taps the next player races the test's next step)."""
    page.wait_for_function(
        "() => window.MCS && MCS.bankerConsole && MCS.bankerConsole.queue().length === 0")
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def select_player(page, key: str) -> None:
    page.locator(f'[data-select-player="{key}"]').click()
    page.locator(f'[data-player-panel="{key}"]').wait_for(state="visible")


@pytest.fixture
def table():
    """Karlsruhe rules (auction stop and limit chips) with strict cash tracking and the last
    round of turns at the time limit, tables of 4; the game runs for 80 minutes."""
    banker = UserFactory(username="bank-360")
    table = seated_table(players=4, banker=banker, tournament_kwargs={
        "name": LONG_NAME, "slug": "stadtmeisterschaft-360", "strict_cash": True,
        "ruleset": "karlsruhe", "table_size": 4, "time_limit_mode": "finish_round",
        "time_limit_minutes": 90,
    })
    first = table.seats.order_by("position").first().player
    first.name = "Maximiliane Müller-Lüdenscheidt-Wolfenbüttel"
    first.save(update_fields=["name"])
    game = referee.ensure_game(table=table)
    assert game.ledger
    started = timezone.now() - dt.timedelta(minutes=80)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=started)
    deeds = ["badstrasse", "turmstrasse", "chausseestrasse", "elisenstrasse", "poststrasse",
             "seestrasse", "hafenstrasse", "neue-strasse"]
    for index, deed in enumerate(deeds):
        referee.post_event(game_id=game.pk, author=None, now=started,
                           event={"type": "deal", "player": list(game.players)[index % 4],
                                  "deed": deed})
    # the auction stop at 45:00 passed: every bank deed went unsold (auctions without a bid)
    stop = started + dt.timedelta(minutes=46)
    referee.enforce_deadlines(game_id=game.pk, now=stop)
    game.refresh_from_db()
    for deed in rules.unowned_deeds(engine_cache.engine_for(game)):
        referee.post_event(game_id=game.pk, author=None, now=stop,
                           event={"type": "auction", "deed": deed, "winner": None, "price": 0})
    appoint(UserFactory(username="oberschiri"), StaffRole.Role.HEAD_REFEREE, table.round.tournament)
    return table


@pytest.mark.parametrize("lang", ["de", "en"])
def test_extra_time_then_end_count_and_confirm_on_a_360_px_phone(browser, live_server, table,
                                                                  lang):
    errors: list[str] = []
    tournament = table.round.tournament
    game = db(Game.objects.get, table=table)
    judge = db(lambda: tournament.staff.get(role=StaffRole.Role.HEAD_REFEREE).user)
    keys = list(game.players)

    # --- the head referee, on a phone too: +5 minutes for table 1 at the desk
    referee_phone = phone_for(browser, live_server, judge, lang, errors)
    referee_phone.goto(f"/manage/{tournament.slug}/desk/")
    card = referee_phone.locator('section[data-table="1"]')
    card.locator('input[name="minutes"]').fill("5")
    card.locator('input[name="reason"]').fill("Spielbrett neu aufgebaut")
    card.locator('[data-form="extra-time"] button').click()
    referee_phone.locator('section[data-table="1"] [data-extra-minutes="5"]').wait_for()
    no_sideways_scroll(referee_phone, f"{lang}-desk")
    assert db(lambda: Game.objects.get(pk=game.pk).extra_minutes) == 5
    # ... and opens the table's console: their banner and the extra-time chip
    referee_phone.goto(f"/banker/table/{table.pk}/")
    referee_phone.locator('[data-testid="head-referee-banner"]').wait_for()
    referee_phone.locator('#clockbar [data-extra-minutes="5"]').wait_for()
    no_sideways_scroll(referee_phone, f"{lang}-head-referee")
    referee_phone.screenshot(path=f"/tmp/console360-{lang}-head-referee.png")
    referee_phone.context.close()

    # --- the banker's phone: the chip, a payment (strict cash), then offline
    phone = phone_for(browser, live_server, table.banker, lang, errors)
    phone.goto(f"/banker/table/{table.pk}/")
    phone.locator('#clockbar [data-extra-minutes="5"]').wait_for()
    phone.wait_for_function("() => !document.getElementById('clock-limit').hidden")
    no_sideways_scroll(phone, f"{lang}-console")
    phone.screenshot(path=f"/tmp/console360-{lang}-console.png")
    phone.locator(f'[data-select-player="{keys[0]}"]').click()
    # every sheet of a player's panel: opened, both buttons on screen, closed again
    openers = phone.locator(f'[data-open^="sheet-"][data-player="{keys[0]}"]:visible')
    sheets = [openers.nth(i).get_attribute("data-open") for i in range(openers.count())]
    assert {"sheet-pay", "sheet-rent", "sheet-bankrupt"} <= set(sheets), sheets
    for sheet_id in sheets:
        phone.locator(f'[data-open="{sheet_id}"][data-player="{keys[0]}"]').click()
        sheet = phone.locator(f"#{sheet_id}")
        sheet.locator(".btn-confirm").wait_for()
        no_sideways_scroll(phone, f"{lang}-{sheet_id}")
        on_screen(phone, sheet.locator(".btn-close"), f"{lang}-{sheet_id}-close")
        on_screen(phone, sheet.locator(".btn-confirm"), f"{lang}-{sheet_id}-confirm")
        sheet.locator(".btn-close").click()
        sheet.wait_for(state="hidden")
    phone.locator(f'[data-open="sheet-pay"][data-player="{keys[0]}"]').click()
    phone.locator('#sheet-pay input[name="amount"]').fill("60")
    use_sheet(phone, "sheet-pay", f"{lang}-pay", shot=f"{lang}-sheet-pay")
    wait_sent(phone)

    phone.context.set_offline(True)
    phone.locator('#net-status[data-state="offline"]').wait_for()
    select_player(phone, keys[1])
    phone.locator(f'[data-open="sheet-pay"][data-player="{keys[1]}"]').click()
    phone.locator('#sheet-pay input[name="amount"]').fill("40")
    use_sheet(phone, "sheet-pay", f"{lang}-pay-offline")
    phone.locator('#net-status[data-queued="1"]').wait_for()
    no_sideways_scroll(phone, f"{lang}-offline")
    phone.screenshot(path=f"/tmp/console360-{lang}-offline.png")
    phone.context.set_offline(False)
    wait_sent(phone)
    phone.goto("about:blank")

    # --- 80 + 15 minutes: past the limit of 90 + 5, the last round of turns
    traveller = time_machine.travel(timezone.now() + dt.timedelta(minutes=15, seconds=5),
                                    tick=True)
    traveller.start()
    try:
        db(referee.enforce_deadlines, game_id=game.pk, now=timezone.now())
        assert db(lambda: Game.objects.get(pk=game.pk).status) == "final_round"
        phone.goto(f"/banker/table/{table.pk}/")
        phone.locator('[data-testid="final-round"]').wait_for()
        no_sideways_scroll(phone, f"{lang}-final-round")
        phone.screenshot(path=f"/tmp/console360-{lang}-final-round.png")
        # the banker ends the game
        phone.locator('[data-open="sheet-end"]').click()
        use_sheet(phone, "sheet-end", f"{lang}-end", shot=f"{lang}-sheet-end")
        wait_sent(phone)
        phone.reload()
        phone.wait_for_selector('#console-main[data-mode="count"]')
        assert db(lambda: Game.objects.get(pk=game.pk).status) == "finished"

        # --- counts: one player's banknotes differ from the tracked cash
        no_sideways_scroll(phone, f"{lang}-count")
        field = phone.locator(f'input[name="cash-{keys[2]}"]')
        field.fill(str(int(field.input_value()) - 10))
        count = phone.locator(".count-form")
        count.locator('.answer [data-ok="1"]').wait_for()
        within_width(phone, count.locator(".btn-confirm"), f"{lang}-count-save")
        phone.screenshot(path=f"/tmp/console360-{lang}-count.png")
        count.locator(".btn-confirm").click()
        wait_sent(phone)
        phone.reload()
        phone.wait_for_selector('#console-main[data-mode="count"]')
        finished = phone.locator('[data-testid="count-finished"]')
        within_width(phone, finished, f"{lang}-count-finished")
        finished.click()
        phone.wait_for_selector('[data-result="counted"]')

        # --- confirmed with the table's code
        no_sideways_scroll(phone, f"{lang}-code")
        code = db(lambda: Game.objects.get(pk=game.pk).confirmation_code)
        phone.locator("#confirm-code").fill(code)
        confirm = phone.locator('[data-result="counted"] .result-form .btn-go')
        within_width(phone, confirm, f"{lang}-confirm")
        phone.screenshot(path=f"/tmp/console360-{lang}-code.png")
        confirm.click()
        phone.wait_for_selector('[data-result="confirmed"]')
        no_sideways_scroll(phone, f"{lang}-confirmed")
        phone.screenshot(path=f"/tmp/console360-{lang}-confirmed.png", full_page=True)
    finally:
        traveller.stop()
    assert db(lambda: GameResult.objects.get(game=game).status) == "confirmed"
    assert errors == []
