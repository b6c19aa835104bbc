"""The deal on the banker's phone (seen in a walk of the demo: ticking cards for the next player
unticked the previous player's, and "Confirm the deal" booked only the last player's two, with
no word). The form keeps every player's ticks while the banker switches between players, shows
them on the deeds and the players, keeps them through a new fragment, books them all on
confirming (one deal event per deed, in seat order), and the start sheet's "only 0 of 12 dealt"
says that ticked deeds wait to be booked."""

from __future__ import annotations

from browsing import PHONE, login
from console_browsing import (
    CONSOLE_BROWSER,
    DEALS,
    answer_ok,
    pick,
    players,
    settle,
    shot,
    wait_for_events,
)
from factories import UserFactory, seated_table
from playwright.sync_api import expect

pytestmark = CONSOLE_BROWSER


def test_switching_players_keeps_the_ticks_and_the_deal_books_them_all(page, live_server):
    banker = UserFactory(username="deal-banker")
    table = seated_table(banker=banker)
    keys = players(table)
    login(page, live_server, banker)
    page.set_viewport_size(PHONE)
    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector('#console-main[data-mode="setup"][data-ready]', state="attached")
    deal = page.locator(".deal-form")
    deed = lambda key: deal.locator(f'input[name="deed"][value="{key}"]')  # noqa: E731
    dealers = ["Anna", "Ben", "Carla"]

    # Anna's two, then Ben: Anna's stay ticked for her (marked with her name, not tappable)
    expect(deal.locator(f'input[name="player"][value="{keys["Anna"]}"]')).to_be_checked()
    for key in DEALS["Anna"]:
        pick(deal, "deed", key)
    pick(deal, "player", keys["Ben"])
    for key in DEALS["Anna"]:
        expect(deed(key)).not_to_be_checked()
        expect(deed(key)).to_be_disabled()
        expect(deed(key)).to_have_attribute("data-ticked-for", keys["Anna"])
        expect(deal.locator(f'label:has(input[value="{key}"]) .deed-for')).to_contain_text("Anna")
    anna_chip = deal.locator(f'label:has(input[name="player"][value="{keys["Anna"]}"])')
    expect(anna_chip.locator("[data-ticked]")).to_have_text("+2")
    for key in DEALS["Ben"]:
        pick(deal, "deed", key)

    # back to Anna: her ticks are hers again; then Carla's
    pick(deal, "player", keys["Anna"])
    for key in DEALS["Anna"]:
        expect(deed(key)).to_be_checked()
    pick(deal, "player", keys["Carla"])
    for key in DEALS["Carla"]:
        pick(deal, "deed", key)

    # a new fragment (a follow, another device) keeps them and the player on screen
    page.evaluate("document.getElementById('console-main').dataset.old = '1'")
    page.evaluate("MCS.bankerConsole.refresh()")
    page.wait_for_selector("#console-main[data-ready]:not([data-old])", state="attached")
    expect(deal.locator(f'input[name="player"][value="{keys["Carla"]}"]')).to_be_checked()
    expect(deed(DEALS["Ben"][0])).to_have_attribute("data-ticked-for", keys["Ben"])

    # the answer names all six deeds; the start sheet says they are ticked but not booked
    answer_ok(deal)
    expect(deal.locator(".answer li")).to_have_count(6)
    shot(page, "deal-kept-ticks")
    page.locator('[data-testid="start"]').click()
    start = page.locator("#sheet-start")
    expect(start.locator("[data-deal-missing]")).to_have_attribute("data-deal-missing", "0/12")
    expect(start.locator("[data-deal-unbooked]")).to_be_visible()
    expect(start.locator("[data-deal-unbooked]")).to_contain_text("6")
    shot(page, "deal-start-unbooked")
    start.locator("[data-close]").click()

    # one confirmation books every player's deeds, in seat order
    deal.locator(".btn-confirm").click()
    events = wait_for_events(table, 6)
    assert [(e.data["player"], e.data["deed"]) for e in events] == [
        (keys[name], key) for name in dealers for key in DEALS[name]
    ]
    settle(page, table)
    expect(deal.locator("[data-ticked-for]")).to_have_count(0)
    expect(deal.locator(f'input[name="player"][value="{keys["Dieter"]}"]')).to_be_checked()
    for name in dealers:
        expect(deal.locator(f'input[name="player"][value="{keys[name]}"]')).to_be_disabled()
    page.locator('[data-testid="start"]').click()
    expect(start.locator("[data-deal-missing]")).to_have_attribute("data-deal-missing", "6/12")
    expect(start.locator("[data-deal-unbooked]")).to_be_hidden()
