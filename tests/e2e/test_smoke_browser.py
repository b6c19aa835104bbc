"""A person's first minute: the start page, the language switch, an organizer's login, the
check-in desk on a phone."""

from __future__ import annotations

import pytest
from browsing import PHONE, login
from factories import ClubFactory, OrganizerFactory, PlayerFactory, TournamentFactory
from playwright.sync_api import expect

from tournament.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_language_switch_and_organizer_login(page):
    TournamentFactory(name="Stadtmeisterschaft Karlsruhe", slug="ka")
    OrganizerFactory(username="orga")

    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("link", name="Anmelden").is_visible()
    page.get_by_role("link", name="Stadtmeisterschaft Karlsruhe").is_visible()

    page.get_by_role("button", name="EN").click()
    page.wait_for_url("**/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("link", name="Log in").click()

    page.get_by_label("Username").fill("orga")
    page.get_by_label("Password").fill("secret-pass-123")
    page.get_by_role("button", name="Log in").click()
    page.goto("/manage/")
    assert page.get_by_role("heading", name="Tournaments").is_visible()
    assert page.get_by_role("link", name="Stadtmeisterschaft Karlsruhe").is_visible()


def test_phone_layout_has_no_horizontal_scroll(page):
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto("/")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_the_check_in_desk_fits_a_phone(browser, live_server, locale):
    """A desk volunteer's phone: a checked-in row (state, player card, undo, new code, drop-out)
    and a waiting row (state, check-in) stay within the screen; nothing scrolls sideways."""
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.REGISTRATION)
    PlayerFactory(tournament=tournament, name="Anna-Katharina Müller-Lüdenscheidt",
                  club=ClubFactory(name="Brettspieltreff Mühlburg"), checked_in=True)
    PlayerFactory(tournament=tournament, name="Ben Schmidt", checked_in=False)
    context = browser.new_context(base_url=live_server.url, locale=locale, viewport=PHONE)
    page = context.new_page()
    login(page, live_server, OrganizerFactory())
    page.goto("/manage/ka/check-in/")
    expect(page.locator('.desk-row.checked [data-action="undo-check-in"]')).to_be_visible()
    expect(page.locator('.desk-row.checked [data-action="new-code"]')).to_be_visible()
    expect(page.locator(".desk-row:not(.checked) button.primary")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    for button in page.locator(".desk-row button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
