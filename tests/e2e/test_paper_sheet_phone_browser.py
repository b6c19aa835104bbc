"""The paper sheet on a 390-px phone (walk 2, shot p1): the form's table scrolled sideways
without a hint after "Kar…", the total (net worth) out of sight. Every field of every line,
the total included, now lies on the screen with its label, German and English."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from factories import UserFactory, appoint, seated_table

from tournament.models import StaffRole

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Every input of the sheet that is not wholly on the screen, or that a box clips.
FIELDS_OFF = """() => [...document.querySelectorAll('form[data-form="paper"] table input')].filter((input) => {
  const b = input.getBoundingClientRect();
  if (b.left < -1 || b.right > window.innerWidth + 1 || b.width < 40) return true;
  for (let box = input.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== 'visible') {
      const r = box.getBoundingClientRect();
      if (b.right > r.right + 1 || b.left < r.left - 1) return true;
    }
  }
  return false;
}).map((input) => input.name)"""


@pytest.mark.parametrize("locale, total", [("de-DE", "Summe (Vermögen)"),
                                           ("en-US", "Total (net worth)")])
def test_the_paper_sheet_fits_a_phone_with_every_field_labelled(browser, live_server, locale,
                                                                 total, tmp_path):
    table = seated_table(players=6)
    judge = appoint(UserFactory(username="mrmonopoly"), StaffRole.Role.HEAD_REFEREE,
                    table.round.tournament)
    client = Client()
    client.force_login(judge)
    context = browser.new_context(base_url=live_server.url, locale=locale,
                                  viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": live_server.url}])
    page = context.new_page()
    try:
        slug = table.round.tournament.slug
        assert page.goto(f"/manage/{slug}/rounds/1/tables/1/paper/").ok
        assert page.evaluate(FIELDS_OFF) == []
        page.screenshot(path=str(tmp_path / "paper.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        seat = table.seats.order_by("position").first()
        field = page.locator(f'input[name="net_worth-{seat.player_id}"]')
        assert field.is_visible()
        label = page.locator(f'tr[data-player="{seat.player_id}"] td.paper-net_worth '
                             ".paper-label")
        assert label.is_visible() and label.inner_text().strip() == total
    finally:
        context.close()
