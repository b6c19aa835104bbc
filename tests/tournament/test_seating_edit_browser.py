"""In a real browser: the htmx preview of a swap shows the new counts before saving; the banker
link opens the table console. Playwright with Debian's chromium against the live server."""

from __future__ import annotations

import os
import re
import shutil
import threading

import pytest
from factories import (
    OrganizerFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    checked_in_players,
)
from require import missing as _missing

import config.urls
from tournament import banker_links, selectors
from tournament.models import Round, Seat, Tournament
from tournament.rounds import services
from tournament.urls import banker_link_urlpatterns

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

urlpatterns = [*banker_link_urlpatterns, *config.urls.urlpatterns]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.urls(__name__)]


def _in_browser(live_server, steps):
    """Run ``steps(page)`` in a thread of its own with a fresh chromium and return its result.

    Playwright's sync API refuses to run where an asyncio loop runs; a thread of its own never
    meets one (nor another module's Playwright session). The test body meanwhile waits, so
    the database is only touched by one thread at a time.
    """
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    if not path:
        _missing("needs Debian's chromium: apt-get install chromium")
    outcome: dict = {}

    def work():
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=path, headless=True, args=["--no-sandbox", "--disable-gpu"]
                )
                context = browser.new_context(base_url=live_server.url, locale="en-GB")
                page = context.new_page()
                page.set_default_timeout(10_000)
                try:
                    outcome["value"] = steps(page)
                finally:
                    browser.close()
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(120)
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def _seated_round():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="browser-cup")
    players = checked_in_players(tournament, 12, clubs=2)
    first = RoundFactory(tournament=tournament, number=1, status=Round.Status.COMPLETE)
    second = RoundFactory(tournament=tournament, number=2, status=Round.Status.SEATED)
    for round_, layout in (
        (first, [players[:6], players[6:]]),
        (second, [players[:3] + players[6:9], players[3:6] + players[9:]]),
    ):
        for number, members in enumerate(layout, start=1):
            table = TableFactory(round=round_, number=number)
            for position, player in enumerate(members, start=1):
                SeatFactory(table=table, round=round_, player=player, position=position)
    return tournament, second, players


def _log_in(tab):
    tab.goto("/login/")
    tab.get_by_label("Username").fill("orga-browser")
    tab.get_by_label("Password").fill("secret-pass-123")
    tab.get_by_role("button", name="Log in").click()
    tab.wait_for_url("**/")


def test_swap_preview_then_save(live_server):
    tournament, round_, players = _seated_round()
    OrganizerFactory(username="orga-browser")
    a, b = players[0], players[3]
    expected = selectors.preview_swap(selectors.seating_overview(round_), a=a.pk, b=b.pk)

    def preview(tab):
        _log_in(tab)
        tab.goto(f"/manage/{tournament.slug}/rounds/2/")
        tab.select_option("#swap-a", str(a.pk))
        tab.select_option("#swap-b", str(b.pk))
        after = tab.locator("#swap-preview [data-repeats-after]")
        after.wait_for()
        club_after = tab.locator("#swap-preview [data-same-club-after]")
        shown = (
            after.get_attribute("data-repeats-after"),
            club_after.get_attribute("data-same-club-after"),
        )
        tab.get_by_role("button", name="Save the swap").click()
        tab.wait_for_url(re.compile(r".*/rounds/2/$"))
        saved_message = tab.get_by_text("Seats swapped.").is_visible()
        total = tab.locator("[data-total-repeats]").get_attribute("data-total-repeats")
        return shown, saved_message, total

    shown, saved_message, total = _in_browser(live_server, preview)
    assert shown == (str(expected.repeats_after), str(expected.same_club_after))
    assert saved_message
    assert total == str(expected.repeats_after)
    assert Seat.objects.get(round=round_, player=a).table.number == 2


def test_banker_link_opens_the_console_in_a_fresh_browser(live_server):
    _, round_, _ = _seated_round()
    table = round_.tables.get(number=2)
    link = services.issue_link(table=table)
    console = f"/banker/table/{table.pk}/"

    def open_link(tab):
        response = tab.goto(banker_links.link_path(link))
        return response.status, response.url

    status, url = _in_browser(live_server, open_link)
    assert status == 200 and url.endswith(console)  # after the redirect: the console itself

    def revoked_then_console(tab):
        first = tab.goto(banker_links.link_path(link)).status
        return first, tab.goto(console).status

    services.revoke_link(table=table)
    assert _in_browser(live_server, revoked_then_console) == (403, 403)
