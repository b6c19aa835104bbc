"""Issue 28 "Refusals" in a real browser: the move preview that refuses (7 at a table)
disables "Save the move"; the refusal page's link leads back to the form under the CSP."""

from __future__ import annotations

import pytest
from browsing import login
from factories import OrganizerFactory, PlayerFactory, TournamentFactory
from gameplay import make_round
from playwright.sync_api import expect

from tournament.models import Round, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_script_errors")]


def test_a_refused_move_preview_disables_save_and_the_refusal_leads_back(page, live_server):
    tournament = TournamentFactory(slug="umsetzen", status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {n:02d}") for n in range(12)]
    make_round(tournament, 1, [players[0:6], players[6:12]], status=Round.Status.SEATED)
    login(page, live_server, OrganizerFactory())
    form_page = f"{live_server.url}/manage/umsetzen/rounds/1/"
    page.goto(form_page)
    save = page.locator("#move-save")
    expect(save).to_be_enabled()
    page.select_option("#move-player", str(players[0].pk))
    page.select_option("#move-table", "2")  # 7 at table 2
    expect(page.locator('#move-preview [data-code="table_size"]')).to_be_visible()
    expect(page.locator("#move-save")).to_be_disabled()
    page.select_option("#move-table", "1")  # back to its own table: not refused by size
    expect(page.locator('#move-preview [data-code="table_size"]')).to_have_count(0)
    # the swap form's save stays usable throughout
    expect(page.locator("#swap-save")).to_be_enabled()
    # A refusal page (the move sent anyway, without htmx) links back to the form.
    page.evaluate("document.querySelector('#move-table').value = '2'")
    page.evaluate("document.querySelector('#move-save').disabled = false")
    page.click("#move-save")
    expect(page.locator('[data-code="table_size"]')).to_be_visible()
    page.click("[data-back]")
    expect(page).to_have_url(form_page)
