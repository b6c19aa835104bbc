"""The settings page's tie-break drop-downs show their whole text (a browser walk of the demo at
1280 px in German: "Los (protokollierte Zieh…", "Bestes Einzelvermöger": five selects squeezed
into grid columns of 12rem)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from demo.build import DEMO_SLUG, build_demo

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Each tie-break select narrower than it would be at its own width (the width Chromium gives a
#: select to show its longest option whole), as "label: shown px < needed px".
CUT = """() => [...document.querySelectorAll('.tie-breaks select')].map((select) => {
  const shown = select.getBoundingClientRect().width;
  const before = select.style.width;
  select.style.width = 'max-content'; select.style.maxWidth = 'none';
  const needed = select.getBoundingClientRect().width;
  select.style.width = before; select.style.maxWidth = '';
  return shown + 1 < needed ? `${select.id}: ${shown} < ${needed}` : null;
}).filter(Boolean)"""


@pytest.fixture
def demo():
    return build_demo(players=36, now=timezone.now())


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize("width", [1280, 390])
def test_every_tie_break_shows_its_whole_text(browser, live_server, demo, locale, width):
    client = Client()
    client.force_login(User.objects.get(username="organizer"))
    context = browser.new_context(base_url=live_server.url, locale=locale,
                                  viewport={"width": width, "height": 800})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": live_server.url}])
    page = context.new_page()
    assert page.goto(f"/manage/{DEMO_SLUG}/settings/").ok
    assert page.locator(".tie-breaks select").count() == 5
    assert page.evaluate(CUT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
