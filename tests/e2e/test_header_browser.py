"""The header on a phone for someone who staffs several tournaments (seen in a walk: six links
with tournament names took a third of a 360-px first screen). Their desks sit in one menu: the
header stays one or two lines, the menu opens inside the screen, and closes on a tap elsewhere
or Escape. German and English."""

from __future__ import annotations

import pytest
from browsing import PHONE, login_as, watched_page
from django.conf import settings
from factories import OrganizerFactory, TournamentFactory, UserFactory, appoint

from tournament.models import StaffRole, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["de", "en"])
def test_several_tournaments_fit_a_phones_header(browser, live_server, language):
    names = ["Karlsruher Stadtmeisterschaft 2026", "Badische Landesmeisterschaft", "Pfalz-Cup"]
    tournaments = [TournamentFactory(slug=f"t{n}", name=name, status=Tournament.Status.RUNNING)
                   for n, name in enumerate(names)]
    organizer = OrganizerFactory(username="orga", tournaments=tournaments)
    for tournament in tournaments:
        appoint(organizer, StaffRole.Role.DESK, tournament)
    appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournaments[0])
    errors: list[str] = []
    page = watched_page(browser, live_server, errors, viewport=PHONE)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                               "url": live_server.url}])
    login_as(page.context, live_server, organizer)
    page.goto("/manage/")
    summary = {"de": "Meine Turniere", "en": "My tournaments"}[language]
    assert page.locator("details[data-nav-menu] summary").inner_text() == summary

    header = page.locator("header.site-header").bounding_box()
    # it was a third of the screen; now the brand and the language on one line, the links below
    assert header["height"] <= PHONE["height"] * 0.17, header
    assert page.locator("header.site-header a[href$='/desk/']:visible").count() == 0  # in the menu
    menu = page.locator("details[data-nav-menu]")
    menu.locator("summary").click()
    panel = menu.locator(".nav-menu-panel")
    assert panel.is_visible()
    box = panel.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    for n, name in enumerate(names):
        assert panel.get_by_text(name).is_visible()
        assert panel.locator(f'a[href="/manage/t{n}/desk/"]').is_visible()
        assert panel.locator(f'a[href="/manage/t{n}/check-in/"]').is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.keyboard.press("Escape")
    assert not panel.is_visible()
    menu.locator("summary").click()
    page.mouse.click(PHONE["width"] / 2, PHONE["height"] - 10)  # a tap elsewhere
    assert not panel.is_visible()

    menu.locator("summary").click()
    panel.locator('a[href="/manage/t1/check-in/"]').click()
    page.wait_for_url("**/manage/t1/check-in/")
    assert errors == []
