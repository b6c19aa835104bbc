"""Issue 28 in a real browser (Playwright, Debian's chromium): the desk volunteer renews a lost
player card and records a drop-out from the check-in desk (each asked first); the head referee
swaps two players at full tables on the round desk, the preview refusing a swap within one
table (its save button disabled) before the right one is saved with a reason."""

from __future__ import annotations

import pytest
from browsing import PHONE, db, login
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round
from playwright.sync_api import expect

from tournament.models import Player, Round, Seat, StaffRole, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_script_errors")]


def test_the_desk_renews_a_card_and_records_a_drop_out(page, live_server):
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    player = PlayerFactory(tournament=tournament, name="Käthe Weiß", checked_in=True)
    old_code = player.pass_code
    desk = appoint(UserFactory(username="anmeldung"), StaffRole.Role.DESK, tournament)
    page.set_viewport_size(PHONE)
    login(page, live_server, desk)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto("/manage/ka/check-in/?q=weiss")
    row = page.locator(f"#desk-player-{player.pk}")
    row.locator('[data-action="new-code"]').click()
    expect(page.locator(".message, .messages").first).to_be_visible()
    assert db(lambda: Player.objects.get(pk=player.pk).pass_code) != old_code
    page.locator(f'#desk-player-{player.pk} [data-action="drop-out"]').click()
    expect(page.locator(f"#desk-player-{player.pk}.dropped")).to_be_visible()
    assert db(lambda: Player.objects.get(pk=player.pk).dropped_out)
    page.locator(f'#desk-player-{player.pk} [data-action="undo-drop-out"]').click()
    expect(page.locator(f"#desk-player-{player.pk}.checked")).to_be_visible()


def test_the_head_referee_swaps_two_players_at_full_tables(page, live_server):
    tournament = TournamentFactory(slug="voll", status=Tournament.Status.RUNNING, table_size=4)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(12)]
    round_, (one, two, _three) = make_round(tournament, 1, [people[:4], people[4:8], people[8:]],
                                            status=Round.Status.RUNNING)
    judge = appoint(UserFactory(username="oberschiri"), StaffRole.Role.HEAD_REFEREE, tournament)
    login(page, live_server, judge)
    page.goto("/manage/voll/desk/")
    swap = page.locator('[data-form="swap-players"]')
    swap.locator("summary").click()
    swap.locator('input[name="reason"]').fill("Vereinskollegen getrennt")  # the poll waits
    swap.locator('select[name="a"]').select_option(str(people[0].pk))
    swap.locator('select[name="b"]').select_option(str(people[1].pk))  # the same table
    expect(swap.locator("#swap-preview [data-code]")).to_be_visible()
    expect(page.locator("#swap-save")).to_be_disabled()
    swap.locator('select[name="b"]').select_option(str(people[4].pk))
    expect(swap.locator("#swap-preview [data-repeats-after]")).to_be_visible()
    expect(page.locator("#swap-save")).to_be_enabled()
    page.locator("#swap-save").click()
    page.wait_for_url("**/manage/voll/desk/")
    seats = db(lambda: dict(Seat.objects.filter(round=round_).values_list("player_id",
                                                                         "table_id")))
    assert seats[people[0].pk] == two.pk and seats[people[4].pk] == one.pk
