"""Nothing cut off, nothing sideways, on the demo (a browser walk found these):

- the hall screen's seating list at 1920 × 1080 and 1280 × 720: its three columns of names grew
  to the longest name (2334 px in an 1843-px box with overflow hidden) and the third column was
  cut off at the right edge: a player could not find their table;
- the organizer's pages on a 390-px phone, German and English: a visually hidden "Actions"
  header (position: absolute) hung off its table's scroll box (rounds 526 px, sign-ups 820,
  screens 619), the CSV example (pre) ran off the import page (524 px);
- at 1280 px in German the players' and sign-ups' tables were wider than their scroll box and
  their last buttons ("Check-in zurücknehmen", "Nachrücken lassen") out of sight.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from demo.build import DEMO_SLUG, OPEN_SLUG, build_demo
from scoring import cache, screens
from scoring.models import HallScreen
from tournament.models import Player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE_PAGES = [f"/manage/{DEMO_SLUG}/rounds/", f"/manage/{OPEN_SLUG}/signups/",
               f"/manage/{DEMO_SLUG}/screens/", f"/manage/{DEMO_SLUG}/players/import/"]
DESKTOP_PAGES = [f"/manage/{DEMO_SLUG}/players/", f"/manage/{OPEN_SLUG}/signups/"]

#: Every seat line of the hall's seating list that lies (partly) outside the screen's content
#: box, or whose name is cut (wider than its own box).
SEATS_OUTSIDE = """() => {
  const box = document.querySelector('.hall-main').getBoundingClientRect();
  return [...document.querySelectorAll('.hall-seat')].filter((seat) => {
    const b = seat.getBoundingClientRect(); const name = seat.querySelector('.n');
    return b.left < box.left - 1 || b.right > box.right + 1
      || name.scrollWidth > name.clientWidth + 1;
  }).map((seat) => seat.textContent.trim());
}"""

#: Every button of a table that lies (partly) outside the nearest box that clips it.
BUTTONS_CUT = """() => [...document.querySelectorAll('table button')].filter((button) => {
  const b = button.getBoundingClientRect();
  for (let box = button.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== 'visible') {
      const r = box.getBoundingClientRect();
      return b.right > r.right + 1 || b.left < r.left - 1;
    }
  }
  return b.right > window.innerWidth + 1;
}).map((button) => button.textContent.trim())"""


@pytest.fixture
def demo():
    return build_demo(players=36, now=timezone.now())


def _organizer(browser, live_server, locale: str, width: int, height: int):
    client = Client()
    client.force_login(User.objects.get(username="organizer"))
    context = browser.new_context(base_url=live_server.url, locale=locale,
                                  viewport={"width": width, "height": height})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": live_server.url}])
    return context


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_the_organizers_pages_never_scroll_sideways_on_a_phone(browser, live_server, demo,
                                                               locale):
    context = _organizer(browser, live_server, locale, 390, 844)
    page = context.new_page()
    widths = {}
    for path in PHONE_PAGES:
        answer = page.goto(path)
        assert answer.ok, path
        widths[path] = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert widths == dict.fromkeys(PHONE_PAGES, 390)


def test_the_organizers_tables_show_every_button_at_1280(browser, live_server, demo):
    context = _organizer(browser, live_server, "de-DE", 1280, 800)
    page = context.new_page()
    cut = {}
    for path in DESKTOP_PAGES:
        page.goto(path)
        assert page.locator("table button").count() > 0, path
        cut[path] = page.evaluate(BUTTONS_CUT)
    context.close()
    assert cut == dict.fromkeys(DESKTOP_PAGES, [])


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_every_name_of_the_hall_seating_list_lies_inside_the_screen(page, demo, size):
    screen = HallScreen.objects.get(key=demo.hall_screen)
    screens.set_mode(screen=screen, mode=HallScreen.Mode.SEATING)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"/t/{DEMO_SLUG}/hall/{screen.key}/")
    page.wait_for_selector(".hall-seat")
    assert page.locator(".hall-seat").count() == 36
    assert page.evaluate(SEATS_OUTSIDE) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


#: The scroll position and the names shown whole on the seating list's current page.
SHOWN_WHOLE = """() => {
  const box = document.querySelector('[data-autoscroll]'); const r = box.getBoundingClientRect();
  return [box.scrollTop, [...document.querySelectorAll('.hall-seat')].filter((seat) => {
    const b = seat.getBoundingClientRect(); return b.top >= r.top - 1 && b.bottom <= r.bottom + 1;
  }).map((seat) => seat.textContent.trim())];
}"""


def test_a_seating_list_longer_than_the_screen_turns_page_by_page(page, demo):
    """A list longer than the screen holds still page by page (read from 10 m; before, it
    crept up a pixel at a time), and its pages together show every name whole."""
    screen = HallScreen.objects.get(key=demo.hall_screen)
    screens.set_mode(screen=screen, mode=HallScreen.Mode.SEATING)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/t/{DEMO_SLUG}/hall/{screen.key}/")
    page.wait_for_selector(".hall-seat")
    everyone = set(page.locator(".hall-seat").all_text_contents())
    seen, tops = set(), []
    while True:
        top, names = page.evaluate(SHOWN_WHOLE)
        page.wait_for_timeout(1500)
        assert page.evaluate(SHOWN_WHOLE) == [top, names]  # the page holds still
        tops.append(top)
        seen.update(" ".join(name.split()) for name in names)
        page.wait_for_function(
            f"() => document.querySelector('[data-autoscroll]').scrollTop !== {top}",
            timeout=12_000)
        if page.evaluate("document.querySelector('[data-autoscroll]').scrollTop") == 0:
            break
    assert len(tops) >= 2, tops  # more than one page
    assert {" ".join(name.split()) for name in everyone} <= seen


def test_a_new_content_of_the_same_list_keeps_the_page_it_was_on(page, demo):
    """The screen polls: a seat moved or a name corrected makes the list's content new. The
    same list stays on the page it was on (before, every new content started it over at its
    first page)."""
    screen = HallScreen.objects.get(key=demo.hall_screen)
    screens.set_mode(screen=screen, mode=HallScreen.Mode.SEATING)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/t/{DEMO_SLUG}/hall/{screen.key}/")
    page.wait_for_selector(".hall-seat")
    page.wait_for_function("() => document.querySelector('[data-autoscroll]').scrollTop > 0",
                           timeout=12_000)
    top = page.evaluate("document.querySelector('[data-autoscroll]').scrollTop")
    page.evaluate("document.querySelector('[data-autoscroll]').dataset.old = '1'")
    # a name corrected at the desk: the list's content is new (an identical content is a 304)
    player = Player.objects.filter(tournament__slug=DEMO_SLUG, public_name_consent=True).last()
    player.name = "Zacharias Zuletzt"
    player.save(update_fields=["name"])
    cache.invalidate(DEMO_SLUG, cache.STANDINGS, cache.TABLES)
    page.wait_for_function("() => !document.querySelector('[data-autoscroll]').dataset.old",
                           timeout=10_000)  # the screen took the new content
    assert page.evaluate("document.querySelector('[data-autoscroll]').scrollTop") == top
