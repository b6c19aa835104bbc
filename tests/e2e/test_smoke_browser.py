"""A person's first minute: the start page, the language switch, an organizer's login."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, TournamentFactory

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
