"""The console's layout on a 360-px phone (issue 16): deed names are never cut in the deal grid,
the sticky confirm button is opaque (a disabled one too), the deal is answered at once in the
browser, and after the end no auction-stop countdown is left in the header."""

from __future__ import annotations

import pytest
from browsing import wait_for_message_below
from django.conf import settings
from django.test import Client
from factories import UserFactory, seated_table

from referee import services as referee

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 740}


def open_console(page, live_server, table, banker):
    client = Client()
    client.force_login(banker)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                               "url": live_server.url}])
    page.set_viewport_size(PHONE)
    page.goto(f"/banker/table/{table.pk}/")


def test_deed_names_fit_and_the_confirm_button_is_opaque(page, live_server):
    banker = UserFactory(username="layout-banker")
    table = seated_table(banker=banker)
    open_console(page, live_server, table, banker)
    page.wait_for_selector('#console-main[data-mode="setup"]')
    cut = page.evaluate("""() => [...document.querySelectorAll('.deal-form .deed-name')]
        .filter(el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
                      || el.getBoundingClientRect().right > el.closest('.deed').getBoundingClientRect().right)
        .map(el => el.textContent)""")
    assert cut == []
    names = page.locator(".deal-form .deed-name").all_inner_texts()
    assert any("Chaussee" in name for name in names) and any("Elektrizit" in name for name in names)
    button = page.locator(".deal-form .btn-confirm")
    assert button.is_disabled()
    style = page.evaluate("""() => { const b = document.querySelector('.deal-form .btn-confirm');
        const s = getComputedStyle(b); return [s.opacity, s.backgroundColor]; }""")
    assert style[0] == "1" and "rgba" not in style[1]
    # the deal's answer comes from the page itself: no request to the server
    checks = []
    page.on("request", lambda request: checks.append(request.url) if "/check/" in request.url
            else None)
    page.locator('.deal-form label:has(input[name="deed"][value="badstrasse"])').click()
    page.locator('.deal-form .answer [data-local="1"]').wait_for()
    assert checks == []


def test_no_auction_stop_countdown_after_the_end(page, live_server):
    banker = UserFactory(username="ended-banker")
    table = seated_table(banker=banker)
    game = referee.ensure_game(table=table)
    keys = list(game.players)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    referee.post_event(game_id=game.pk, event={"type": "bankrupt", "player": keys[5],
                                               "creditor": "bank"}, author=None)
    referee.post_event(game_id=game.pk, event={"type": "bankrupt", "player": keys[4],
                                               "creditor": keys[0]}, author=None)
    open_console(page, live_server, table, banker)
    page.wait_for_selector('#console-main[data-mode="count"]')
    page.wait_for_function("() => document.getElementById('clock-stop').hidden")
    assert page.locator("h1").count() == 1


def test_a_wrong_code_is_explained_in_view_below_the_field(page, live_server):
    banker = UserFactory(username="code-banker")
    table = seated_table(banker=banker)
    game = referee.ensure_game(table=table)
    keys = list(game.players)
    for event in ({"type": "start"}, {"type": "bankrupt", "player": keys[5], "creditor": "bank"},
                  {"type": "bankrupt", "player": keys[4], "creditor": keys[0]}):
        referee.post_event(game_id=game.pk, event=event, author=None)
    open_console(page, live_server, table, banker)
    page.wait_for_selector('#console-main[data-mode="count"]')
    page.locator('[data-testid="count-finished"]').click()
    page.wait_for_selector('[data-result="counted"]')
    game.refresh_from_db()
    wrong = "0000" if game.confirmation_code != "0000" else "1111"
    page.locator('input[name="code"]').fill(wrong)
    page.locator('input[name="code"]').press("Enter")
    page.locator('[data-field-error="code"]').wait_for()
    # brought into view right below the field once htmx has settled the swap; waited for
    wait_for_message_below(page, "#confirm-code", '[data-field-error="code"]')
    assert page.evaluate("document.activeElement.id") == "confirm-code"


def test_the_sticky_button_covers_neither_the_refusal_nor_the_cash_table(page, live_server):
    """Strict cash tracking (ledger mode): the typo is refused, and the refusal is readable."""
    banker = UserFactory(username="strict-banker")
    table = seated_table(banker=banker, tournament_kwargs={"strict_cash": True})
    game = referee.ensure_game(table=table)
    assert game.ledger
    keys = list(game.players)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    open_console(page, live_server, table, banker)
    page.wait_for_selector('#console-main[data-mode]')
    page.locator(f'[data-select-player="{keys[0]}"]').click()
    page.locator(f'[data-open="sheet-pay"][data-player="{keys[0]}"]').click()
    sheet = page.locator("#sheet-pay")
    sheet.locator('input[name="amount"]').fill("5000")
    refusal = sheet.locator(".answer .error-box")
    refusal.wait_for()
    assert sheet.locator(".btn-confirm").is_disabled()
    assert sheet.locator("[data-negative-ack]").count() == 0  # refused, not a warning
    page.wait_for_timeout(300)
    box = refusal.bounding_box()
    button = sheet.locator(".btn-confirm").bounding_box()
    assert box["y"] + box["height"] <= button["y"] + 1, (box, button)
    sheet.locator('input[name="amount"]').fill("50")
    table_after = sheet.locator(".answer table.cash-after")
    table_after.wait_for()
    page.wait_for_timeout(300)
    box = table_after.bounding_box()
    button = sheet.locator(".btn-confirm").bounding_box()
    assert box["y"] + box["height"] <= button["y"] + 1, (box, button)
