"""Browser walk 2, c10/c13: a console open at set-up when the desk enters the table's result
from the paper sheet (the banker's phone died) followed the sheet nowhere: it kept the set-up
screen and "Uhr starten". It now follows to the result of record: the sheet's places, who
entered it, the clock over, no play."""

from __future__ import annotations

import pytest
from browsing import PHONE, db, login_as, watched_page
from factories import UserFactory, appoint, seated_table

from referee import paper, services
from tournament.models import StaffRole

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _table_and_judge():
    table = seated_table(banker=UserFactory(username="bank-paper"), players=4)
    services.ensure_game(table=table)
    judge = appoint(UserFactory(username="oberschiri"), StaffRole.Role.HEAD_REFEREE,
                    table.round.tournament)
    return table, judge


def _enter_sheet(table, judge):
    lines = [paper.PaperLine(player_id=s.player_id, net_worth=3000 - 100 * s.position)
             for s in table.seats.order_by("position")]
    paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit", ended_at=None,
                             by=judge, note="Akku leer")


def test_an_open_console_follows_a_paper_result_to_the_result_of_record(browser, live_server):
    table, judge = db(_table_and_judge)
    errors: list[str] = []
    phone = watched_page(browser, live_server, errors, viewport=PHONE, service_workers="block")
    login_as(phone.context, live_server, table.banker)
    phone.goto(f"/banker/table/{table.pk}/")
    phone.wait_for_selector('#console-main[data-mode="setup"]')
    db(_enter_sheet, table, judge)
    phone.wait_for_selector('#console-main[data-mode="count"] [data-paper-record]',
                            timeout=10_000)
    main = phone.locator("#console-main")
    assert "Ergebnis vom Papierbogen" in main.inner_text()
    assert "eingetragen von oberschiri" in main.inner_text()
    assert phone.locator("#clockbar.is-over").count() == 1
    # never started, but over: not "Nicht gestartet" above a result
    assert phone.locator("#clock-label").text_content() == "Spiel beendet"
    assert phone.get_by_role("button", name="Uhr starten").count() == 0
    assert errors == []
