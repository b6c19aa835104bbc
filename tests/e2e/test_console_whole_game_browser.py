"""The banker's console in a real browser on a 360-px phone: a whole Karlsruhe game from the
deal to the confirmed result (purchases, a refused uneven build, rent, a correction, a trade,
jail, a mortgage, a break, the auction stop at 45:00, two bankruptcies, the count, the code).

The server's clock is driven by the test (time_machine moves the live server's time too, it runs
in this process); nothing waits real minutes.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from browsing import PHONE, login
from console_browsing import (
    CONSOLE_BROWSER,
    DEALS,
    answer_ok,
    confirm,
    game_of,
    last,
    no_horizontal_scroll,
    open_action,
    pick,
    players,
    settle,
    shot,
    wait_for_events,
)
from factories import UserFactory, seated_table
from playwright.sync_api import expect

from referee.models import GameResult
from referee.rules import get_board

pytestmark = CONSOLE_BROWSER


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
        assert "1.234" in anna_row.inner_text()  # grouped as every figure
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
