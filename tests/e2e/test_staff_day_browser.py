"""The desk's and the head referee's day from their own login (issue 28), the companion of the
organizer's whole day (test_whole_day_browser.py), each on a 360-px phone of their own.

Round 1 runs at three full tables. The desk volunteer logs in and lands on the check-in desk,
renews a lost player card (the old code opens nothing, the new card carries the new one) and
records a drop-out. The head referee logs in and lands on the round desk, swaps two players at
full tables with a reason (the swap form, once opened, stays open through the desk's poll), then
records a point deduction: sent without its points, the form comes back with the typed note kept
and the error at the points field, in words; with the points it is recorded. No script error on
either phone.
"""

from __future__ import annotations

import re

import pytest
from browsing import PHONE, db, watched_page
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round
from pdfs import text as pdf_text
from playwright.sync_api import expect

from tournament.models import Incident, Player, Round, Seat, StaffRole, Tournament
from tournament.players.services import pass_code_display

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Karlsruhe-2026!"


def log_in(page, username: str, *, lands_on: str) -> None:
    """The site's own login form, without ``next``: it leads to the role's landing page."""
    page.goto("/login/")
    page.wait_for_load_state()
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("form button.primary").click()
    page.wait_for_url(re.compile(lands_on))
    page.wait_for_load_state()


@pytest.fixture
def day():
    """Round 1 running at three full tables of four; a desk volunteer and a head referee."""
    tournament = TournamentFactory(name="Stadtmeisterschaft", slug="ka-tag", table_size=4,
                                   status=Tournament.Status.RUNNING)
    names = ["Käthe Weiß", "Jonas Früh"] + [f"Spieler {n:02d}" for n in range(10)]
    people = [PlayerFactory(tournament=tournament, name=name) for name in names]
    make_round(tournament, 1, [people[0:4], people[4:8], people[8:12]],
               status=Round.Status.RUNNING)
    desk = appoint(UserFactory(username="anmeldung", password=PASSWORD), StaffRole.Role.DESK,
                   tournament)
    judge = appoint(UserFactory(username="oberschiri", password=PASSWORD),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    return tournament, people, desk, judge


@pytest.mark.slow
def test_the_desk_and_the_head_referees_day_from_their_own_login(browser, live_server, day):
    tournament, people, _desk, _judge = day
    errors: list[str] = []
    kathe, jonas = people[0], people[1]

    # --- the desk volunteer's phone: the login leads to the check-in desk
    phone = watched_page(browser, live_server, errors, viewport=PHONE)
    phone.on("dialog", lambda dialog: dialog.accept())  # each action asks first
    log_in(phone, "anmeldung", lands_on=r"/manage/ka-tag/check-in/$")
    expect(phone.locator('.site-nav a[href="/manage/ka-tag/check-in/"]')).to_be_visible()

    # a lost card: the desk renews it; the old code opens nothing, the new card has the new one
    old_code = kathe.pass_code
    phone.fill("#desk-q", "weiss")
    expect(phone.locator(".desk-row")).to_have_count(1)  # the umlaut search answered
    with phone.expect_navigation():
        phone.locator(f'#desk-player-{kathe.pk} [data-action="new-code"]').click()
    phone.wait_for_load_state()
    expect(phone.locator(".messages .message").first).to_contain_text("Käthe Weiß")
    new_code = db(lambda: Player.objects.get(pk=kathe.pk).pass_code)
    assert new_code != old_code
    card = phone.request.get(f"/manage/ka-tag/print/players/{kathe.pk}/card.pdf")
    assert card.ok
    printed = pdf_text(card.body())
    assert pass_code_display(new_code) in printed and pass_code_display(old_code) not in printed
    assert phone.request.get(f"/p/{old_code}/").status == 404
    assert phone.request.get(f"/p/{new_code}/").ok

    # a drop-out told at the desk: Jonas leaves during round 1, kept in it, seated no more
    phone.fill("#desk-q", "Jonas")
    expect(phone.locator(".desk-row")).to_have_count(1)
    with phone.expect_navigation():
        phone.locator(f'#desk-player-{jonas.pk} [data-action="drop-out"]').click()
    phone.wait_for_load_state()
    phone.locator(f"#desk-player-{jonas.pk}.dropped").wait_for()
    assert db(lambda: Player.objects.get(pk=jonas.pk).dropped_out)
    phone.context.close()

    # --- the head referee's phone: the login leads to the round desk
    phone = watched_page(browser, live_server, errors, viewport=PHONE)
    log_in(phone, "oberschiri", lands_on=r"/manage/ka-tag/desk/$")
    expect(phone.locator('.site-nav a[href="/manage/ka-tag/desk/"]')).to_be_visible()

    # a swap at full tables: opened, it stays open through the desk's next poll (every 5 s) ...
    swap = phone.locator('[data-form="swap-players"]')
    swap.locator("summary").click()
    phone.evaluate("document.querySelector('#desk-live > *').dataset.beforePoll = '1'")
    phone.wait_for_function("() => !document.querySelector('#desk-live [data-before-poll]')",
                            timeout=20_000)
    expect(swap).to_have_attribute("open", "")
    # ... and two players trade seats, with a reason
    swap.locator('input[name="reason"]').fill("Vereinskollegen getrennt")  # the poll waits
    swap.locator('select[name="a"]').select_option(str(people[2].pk))
    swap.locator('select[name="b"]').select_option(str(people[6].pk))
    swap.locator("#swap-preview [data-repeats-after]").wait_for()
    expect(phone.locator("#swap-save")).to_be_enabled()
    with phone.expect_navigation():
        phone.locator("#swap-save").click()
    phone.wait_for_url(re.compile(r"/manage/ka-tag/desk/$"))
    phone.wait_for_load_state()
    seats = db(lambda: dict(Seat.objects.filter(round__tournament=tournament)
                            .values_list("player_id", "table__number")))
    assert (seats[people[2].pk], seats[people[6].pk]) == (2, 1)
    assert sorted(seats.values()) == [1] * 4 + [2] * 4 + [3] * 4  # still full tables

    # a point deduction sent without its points comes back on its form, the error at the field
    player = people[3]
    phone.goto(f"/manage/ka-tag/players/{player.pk}/incidents/")
    phone.wait_for_load_state()
    phone.select_option('select[name="level"]', "deduction")
    phone.fill('textarea[name="note"]', "Mietabsprache nach Verwarnung")
    with phone.expect_navigation():
        phone.locator('[data-form="incident"] button[type="submit"]').click()
    phone.wait_for_load_state()
    points = phone.locator("#id_points")
    expect(points).to_have_attribute("aria-invalid", "true")
    expect(points).to_have_attribute("aria-describedby", re.compile(r"\bid_points_error\b"))
    expect(phone.locator("#id_points_error")).to_have_text("Bitte die Punkte angeben.")
    expect(phone.locator('textarea[name="note"]')).to_have_value("Mietabsprache nach Verwarnung")
    expect(phone.locator('select[name="level"]')).to_have_value("deduction")
    assert db(lambda: Incident.objects.filter(player=player).count()) == 0
    points.fill("2")
    with phone.expect_navigation():
        phone.locator('[data-form="incident"] button[type="submit"]').click()
    phone.wait_for_load_state()
    phone.locator('[data-testid="earlier-incidents"] [data-level="deduction"]').wait_for()
    expect(phone.locator('[data-testid="earlier-incidents"] [data-level="deduction"]')) \
        .to_contain_text("−2")
    assert db(lambda: Incident.objects.get(player=player).points) == 2
    phone.context.close()
    assert errors == []
