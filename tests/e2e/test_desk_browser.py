"""The organizer at the round desk in a real browser (Playwright, Debian's chromium): round 1 of
36 players is running; results come in and get confirmed (by services, as the bankers'
consoles would); the desk follows by itself, the organizer closes the round, creates round 2
and seats it — without a single repeated pair. Also: the head referee rules on a dispute.

German comes from ``locale/glossary-de-desk.json`` compiled into a temporary catalogue (as in
test_public_browser.py), so this runs before the .po files are merged.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from pathlib import Path

import pytest
from browsing import login
from catalogues import write_mo
from django.utils import timezone
from factories import OrganizerFactory, TournamentFactory, UserFactory, appoint, checked_in_players
from gameplay import finish_recent
from playwright.sync_api import expect

from referee import results as referee_results
from referee import services as referee
from referee.models import GameResult
from referee.results import revision_of
from tournament import selectors
from tournament.models import Round, Tournament
from tournament.rounds import bankers, services
from tournament.seating import count_repeats

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_script_errors")]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp")




@pytest.fixture(autouse=True)
def german_glossary(settings, tmp_path):
    glossary = json.loads((ROOT / "locale" / "glossary-de-desk.json").read_text("utf-8"))
    target = tmp_path / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    write_mo(target / "django.mo", glossary)
    settings.LOCALE_PATHS = [str(tmp_path), *settings.LOCALE_PATHS]






finish = functools.partial(finish_recent, step=37)


@pytest.fixture
def running_round():
    """36 checked-in players in 6 clubs, round 1 seated, bankers assigned, locked, started."""
    tournament = TournamentFactory(name="Stadtmeisterschaft Karlsruhe", slug="ka-desk",
                                   status=Tournament.Status.RUNNING, preliminary_rounds=3)
    checked_in_players(tournament, 36, clubs=6)
    round_ = services.create_round(tournament=tournament)
    tables = services.seat_round(round_=round_, seed=7, seconds=1.0).tables
    for table in tables:
        banker = bankers.get_or_create_banker(username=f"bank{table.number}",
                                               tournament=tournament)
        services.assign_banker(table=table, banker=banker)
    services.lock_round(round_=round_)
    services.start_round(round_=round_)
    return tournament, round_, list(round_.tables.order_by("number"))


def test_the_organizer_closes_round_1_and_seats_round_2_without_repeats(
    page, live_server, running_round
):
    tournament, round_, tables = running_round
    assert len(tables) == 6
    for table in tables[:5]:
        finish(table)
    last = finish(tables[5], confirm=False)  # counted, not yet confirmed

    login(page, live_server, OrganizerFactory())
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/manage/ka-desk/desk/")
    expect(page.locator("h1")).to_have_text("Rundenleitstand")
    cards = page.locator("section.desk-card")
    expect(cards).to_have_count(6)
    expect(page.locator('section.desk-card[data-state="confirmed"]')).to_have_count(5)
    expect(page.locator('[data-table="6"][data-state="counted"]')).to_be_visible()
    close = page.locator('[data-action="close-round"]')
    expect(close).to_be_disabled()
    expect(page.locator("[data-missing]")).to_contain_text("Tisch 6")

    # the last result is confirmed at the table: the desk notices within one poll
    referee_results.confirm_result(game_id=last.pk, revision=revision_of(last.pk),
                                   code=last.confirmation_code, by=None)
    expect(page.locator('section.desk-card[data-state="confirmed"]')).to_have_count(6,
                                                                                  timeout=8000)
    expect(close).to_be_enabled(timeout=8000)
    expect(close).to_have_text("Runde 1 abschließen")
    page.screenshot(path=str(SHOTS / "desk-all-confirmed.png"), full_page=True)
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    close.click()
    expect(page.locator(".messages")).to_contain_text("Runde 1 ist abgeschlossen")
    assert asked and "wieder öffnen" in asked[0]  # closing asks first, in German
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE

    create = page.locator('[data-action="create-round"]')
    expect(create).to_have_text("Runde 2 anlegen")
    create.click()
    page.wait_for_url("**/manage/ka-desk/rounds/2/")
    page.locator('form[action$="/rounds/2/seat/"] button[type="submit"]').click()
    expect(page.locator("[data-total-repeats]")).to_have_attribute("data-total-repeats", "0")

    second = tournament.rounds.get(number=2)
    assert second.status == Round.Status.SEATED
    history = selectors.history_tables(tournament, before=3)
    assert len(history) == 2 and sum(len(t) for t in history[1]) == 36
    assert count_repeats(rounds=[history[1]], history=[history[0]]) == 0

    # back at the desk: round 2 is seated, waiting to be locked and started
    page.goto("/manage/ka-desk/desk/")
    expect(page.locator("h2[data-round]")).to_have_attribute("data-round", "2")
    expect(page.locator('section.desk-card[data-state="not_started"]')).to_have_count(6)
    page.screenshot(path=str(SHOTS / "desk-round-2.png"), full_page=True)


def test_the_head_referee_rules_on_a_dispute_and_sees_alerts(page, live_server, running_round):
    tournament, round_, tables = running_round
    disputed = finish(tables[0], confirm=False)
    referee_results.dispute_result(game_id=disputed.pk, revision=revision_of(disputed.pk),
                                   note="Die Parkstraße war verpfändet.", by=None)
    finish(tables[1], confirm=False)
    game = referee.ensure_game(table=tables[2])
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=tables[2].banker,
                       now=timezone.now() - dt.timedelta(minutes=20))
    judge = UserFactory(username="mrmonopoly")
    appoint(judge, "head_referee", tables[2].round.tournament)

    login(page, live_server, judge)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/manage/ka-desk/desk/")
    alerts = page.locator("[data-alert]")
    expect(page.locator('[data-alert="disputed"][data-table="1"]')).to_contain_text(
        "Die Parkstraße war verpfändet.")
    expect(page.locator('[data-alert="banker_offline"][data-table="3"]')).to_contain_text(
        "seit 20 Minuten nicht aktiv")
    assert alerts.count() == 2
    # the clock of table 3 runs in the browser
    clock = page.locator('[data-table="3"] [data-desk-clock]')
    first = clock.inner_text()
    page.wait_for_timeout(1500)
    assert clock.inner_text() != first and clock.inner_text().startswith("20:")
    expect(page.locator('[data-action="close-round"]')).to_have_count(0)  # not an organizer

    ruling = page.locator(f"#ruling-{disputed.pk}")
    ruling.fill("Verpfändung war im Protokoll; die Zählung gilt.")
    page.wait_for_timeout(6000)  # a poll would have replaced the form: typing pauses it
    expect(ruling).to_have_value("Verpfändung war im Protokoll; die Zählung gilt.")
    page.screenshot(path=str(SHOTS / "desk-dispute.png"), full_page=True)
    page.locator('form[data-form="resolve"] button[type="submit"]').click()
    expect(page.locator(".messages")).to_contain_text("vom Oberschiedsrichter bestätigt")
    expect(page.locator('[data-table="1"][data-state="confirmed"]')).to_be_visible()
    expect(page.locator('[data-alert="disputed"]')).to_have_count(0)
    result = GameResult.objects.get(game=disputed)
    assert result.status == GameResult.Status.CONFIRMED
    assert result.resolved_note == "Verpfändung war im Protokoll; die Zählung gilt."
    assert result.confirmed_by == judge
