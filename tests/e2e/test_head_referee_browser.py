"""The head referee's day in a real browser (Playwright, Debian's chromium): a dispute amended
and ruled, +5 minutes for one table, a paper result entered and shown, a warning then a point
deduction visible in the standings, a reopened result confirmed again — every step in the audit
log — and an organizer refused on a tournament that is not theirs."""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import pytest
from browsing import login
from django.utils import timezone
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import finish_recent
from playwright.sync_api import expect

from referee import results as referee_results
from referee import services as referee
from referee.models import Game, GameResult
from referee.results import revision_of
from tournament.models import (
    Round,
    StaffRole,
    Table,
    Tournament,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_script_errors")]

SHOTS = Path("/tmp/staff")


finish = functools.partial(finish_recent, confirm=False)


@pytest.fixture
def hall():
    """Four tables of four: 1 disputed, 2 running, 3 never started (console broke), 4 confirmed."""
    tournament = TournamentFactory(name="Stadtmeisterschaft", slug="ka-day",
                                   status=Tournament.Status.RUNNING)
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.RUNNING,
                                  started_at=timezone.now() - dt.timedelta(minutes=100))
    tables = []
    for number in range(1, 5):
        banker = UserFactory(username=f"bank{number}")
        table = Table.objects.create(round=round_, number=number, banker=banker)
        for position in range(1, 5):
            player = PlayerFactory(tournament=tournament, name=f"Spieler {number}-{position}")
            table.seats.create(round=round_, player=player, position=position)
        tables.append(table)
    disputed = finish(tables[0])
    referee_results.dispute_result(game_id=disputed.pk, revision=revision_of(disputed.pk),
                                   note="Hotel vergessen", by=tables[0].banker)
    running = referee.ensure_game(table=tables[1])
    referee.post_event(game_id=running.pk, event={"type": "start"}, author=tables[1].banker,
                       now=timezone.now() - dt.timedelta(minutes=20))
    finish(tables[3], confirm=True)
    judge = appoint(UserFactory(username="mrmonopoly"), StaffRole.Role.HEAD_REFEREE, tournament)
    return tournament, tables, judge


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_the_head_referees_day(page, live_server, hall):
    tournament, tables, judge = hall
    login(page, live_server, judge)
    page.set_viewport_size({"width": 1280, "height": 900})
    desk = f"/manage/{tournament.slug}/desk/"

    # 1. The dispute at table 1: amend the count with a reason, then rule.
    page.goto(desk)
    page.locator('section[data-table="1"] [data-action="open-result"]').click()
    expect(page.locator("[data-result-status]")).to_have_attribute(
        "data-result-status", "disputed")
    first = tables[0].seats.order_by("position").first().player_id
    page.fill(f'input[name="net_worth-{first}"]', "4242")
    page.fill("#amend-reason", "Hotel auf der Schlossallee nicht gezählt")
    page.click('[data-action="amend"]')
    # four eyes: who amended the figures does not rule on them; a second head referee does
    expect(page.locator("[data-second-person]")).to_contain_text("zweite Person")
    expect(page.locator('[data-action="confirm"]')).to_have_count(0)
    deputy = appoint(UserFactory(username="stellvertreter"), StaffRole.Role.HEAD_REFEREE,
                     tournament)
    page.context.clear_cookies()
    login(page, live_server, deputy)
    page.goto(f"/manage/{tournament.slug}/results/{Game.objects.get(table=tables[0]).pk}/")
    page.fill("#ruling", "Nachgezählt mit beiden Spielern")
    page.click('[data-action="confirm"]')
    page.context.clear_cookies()
    login(page, live_server, judge)
    game_one = Game.objects.get(table=tables[0])
    assert game_one.result.status == GameResult.Status.CONFIRMED
    assert game_one.result.placements.get(player_id=first).net_worth == 4242

    # 2. +5 minutes for table 2; its console opens with the head referee's banner.
    page.goto(desk)
    card = page.locator('section[data-table="2"]')
    card.locator('input[name="minutes"]').fill("5")
    card.locator('input[name="reason"]').fill("Spielbrett neu aufgebaut")
    card.locator('[data-form="extra-time"] button').click()
    expect(page.locator('section[data-table="2"] [data-extra-minutes="5"]')).to_be_visible()
    page.goto(f"/t/{tournament.slug}/tables/2/")
    expect(page.locator('[data-extra-minutes="5"]').first).to_be_visible()
    page.goto(f"/banker/table/{tables[1].pk}/")
    expect(page.locator('[data-testid="head-referee-banner"]')).to_be_visible()
    shot(page, "console-as-head-referee")

    # 3. Table 3's console broke: its result comes from the paper sheet.
    page.goto(desk)
    page.locator('section[data-table="3"] [data-action="paper"]').click()
    seats = list(tables[2].seats.order_by("position"))
    for index, seat in enumerate(seats[:3]):
        page.fill(f'input[name="net_worth-{seat.player_id}"]', str(3000 - 500 * index))
    page.fill(f'input[name="bankrupt-{seats[3].player_id}"]', "1")
    page.select_option('select[name="end_reason"]', "time_limit")
    page.fill('input[name="ended_at"]', timezone.localtime().strftime("%H:%M"))  # not to come
    page.fill("#paper-note", "Tablet ausgefallen")
    shot(page, "paper-result-form")
    page.click('[data-action="store-paper"]')
    expect(page.locator("[data-from-paper]")).to_be_visible()
    game_three = Game.objects.get(table=tables[2])
    # four eyes: who entered the sheet does not confirm it, not even with the table's code —
    # the page says so instead of offering the code field
    expect(page.locator("[data-second-person]")).to_contain_text(
        "auch nicht mit dem Code des Tisches")
    expect(page.locator("#code")).to_have_count(0)
    assert GameResult.objects.get(game=game_three).status == GameResult.Status.COUNTED
    # … a second head referee does
    page.context.clear_cookies()
    login(page, live_server, deputy)
    page.goto(f"/manage/{tournament.slug}/results/{game_three.pk}/")
    page.fill("#code", game_three.confirmation_code)
    page.click('[data-action="confirm-code"]')
    assert GameResult.objects.get(game=game_three).status == GameResult.Status.CONFIRMED
    page.context.clear_cookies()
    login(page, live_server, judge)
    page.goto(f"/t/{tournament.slug}/tables/3/")
    expect(page.locator("[data-from-paper]").first).to_be_visible()

    # 4. A warning, then a point deduction for table 3's winner: visible in the standings.
    winner = seats[0].player
    page.goto(f"/manage/{tournament.slug}/players/{winner.pk}/incidents/")
    page.select_option('select[name="level"]', "warning")
    page.fill('textarea[name="note"]', "Geld verliehen")
    page.click('[data-form="incident"] button')
    expect(page.locator('[data-testid="earlier-incidents"] [data-level="warning"]')).to_be_visible()
    page.select_option('select[name="level"]', "deduction")
    page.fill('input[name="points"]', "2")
    page.fill('textarea[name="note"]', "Mietabsprache nach Verwarnung")
    page.click('[data-form="incident"] button')
    expect(page.locator('[data-testid="earlier-incidents"] li')).to_have_count(2)
    page.goto(f"/t/{tournament.slug}/")
    expect(page.locator('[data-deducted="2"]').first).to_be_visible()
    shot(page, "standings-with-deduction")

    # 5. Table 4's confirmed result is reopened with a reason and confirmed again.
    game_four = Game.objects.get(table=tables[3])
    page.goto(f"/manage/{tournament.slug}/results/{game_four.pk}/")
    page.fill("#reopen-reason", "Spieler meldet Zählfehler")
    page.click('[data-action="reopen"]')
    expect(page.locator("[data-result-status]")).to_have_attribute("data-result-status", "counted")
    page.fill("#code", game_four.confirmation_code)
    page.click('[data-action="confirm-code"]')
    assert GameResult.objects.get(game=game_four).status == GameResult.Status.CONFIRMED

    # 6. The audit log shows each of these actions, with who and why.
    page.goto(f"/manage/{tournament.slug}/audit/")
    for action, reason in [
        ("result.amend", "Hotel auf der Schlossallee nicht gezählt"),
        ("result.resolve", "Nachgezählt mit beiden Spielern"),
        ("time.extra", "Spielbrett neu aufgebaut"),
        ("result.paper", "Tablet ausgefallen"),
        ("incident.record", "Mietabsprache nach Verwarnung"),
        ("result.reopen", "Spieler meldet Zählfehler"),
        ("incident.record", "Geld verliehen"),
        ("result.confirm", "Tisch 4"),  # confirmed again after the reopening
    ]:
        row = page.locator(f'tr[data-action="{action}"]', has_text=reason).first
        expect(row).to_be_visible()
        # the amended dispute is ruled by the second head referee (four eyes)
        expect(row).to_contain_text("stellvertreter" if action == "result.resolve"
                                    else "mrmonopoly")
    shot(page, "audit-log")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(desk)
    shot(page, "desk-phone")


def test_an_organizer_is_refused_on_a_tournament_not_theirs(page, live_server, hall):
    tournament, tables, _judge = hall
    other = TournamentFactory(slug="anderer-pokal", name="Pokal der Spielfreunde")
    login(page, live_server, OrganizerFactory(tournaments=[other]))
    for path in (f"/manage/{tournament.slug}/", f"/manage/{tournament.slug}/export/",
                 f"/manage/{tournament.slug}/rounds/1/bankers/",
                 f"/banker/table/{tables[0].pk}/"):
        response = page.goto(path)
        assert response.status == 403, path
    expect(page.locator("body")).to_contain_text("Turnier")
    page.goto("/manage/")
    expect(page.locator("body")).not_to_contain_text(tournament.name)
    expect(page.locator("body")).to_contain_text(other.name)
