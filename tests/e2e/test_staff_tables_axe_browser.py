"""axe on the staff pages whose tables and headings it flagged (issue 28): no violation of any
impact — an action column's header is named for screen readers, the bankers page's headings
go one level at a time."""

from __future__ import annotations

import pytest
from browsing import db, login_as
from factories import OrganizerFactory, appoint, seated_table

from scoring import screens
from tournament.models import StaffRole

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_staff_rounds_screens_and_bankers_pages_have_no_axe_violation(browser, live_server):
    from axe_playwright_python.sync_playwright import Axe

    table = db(seated_table)
    tournament = table.round.tournament
    organizer = db(OrganizerFactory, tournaments=[tournament])
    db(appoint, db(OrganizerFactory), StaffRole.Role.DESK, tournament)
    db(screens.add_screen, tournament=tournament, name="Eingang")
    context = browser.new_context(base_url=live_server.url, locale="de-DE")
    login_as(context, live_server, organizer)
    page = context.new_page()
    slug, number = tournament.slug, table.round.number
    for path in (f"/manage/{slug}/staff/", f"/manage/{slug}/rounds/",
                 f"/manage/{slug}/screens/", f"/manage/{slug}/rounds/{number}/bankers/"):
        page.goto(path)
        violations = Axe().run(page).response["violations"]
        found = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
                 for v in violations]
        assert found == [], (path, found)
    context.close()
