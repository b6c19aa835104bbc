"""Issue 18 end to end: an official-format tournament with 22 players, round 1 seated as two
tables of 5 and three of 4, one table played to the time limit with the last round of turns
(the banker marks whose turn it is; the console lists who still plays and ends the game after
the last of them), and the standings.

The time limit is the server's deadline, driven here (``enforce_deadlines`` 91 minutes on).
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from browsing import banker_phone, db, login_as, watched_page
from django.contrib.auth.models import User
from django.utils import timezone

from referee import services as referee
from referee.models import Game, GameResult
from scoring.models import StandingRow
from tournament.models import Player, Round, Tournament
from tournament.players import services as player_services
from tournament.rounds import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]



def confirm_sheet(phone, sheet_id: str) -> None:
    sheet = phone.locator(f"#{sheet_id}")
    try:
        sheet.locator('.answer [data-ok="1"]').wait_for()
    except Exception:
        phone.screenshot(path="/tmp/official-fail.png")
        html = phone.content()
        at = html.find(sheet_id)
        raise AssertionError(html[max(0, at - 300):at + 3000]) from None
    sheet.locator(".btn-confirm").click()
    phone.wait_for_function(
        "() => window.MCS && MCS.bankerConsole && MCS.bankerConsole.queue().length === 0"
    )


def test_official_tournament_with_22_players_and_the_last_round_of_turns(browser, live_server):
    errors: list[str] = []
    page = watched_page(browser, live_server, errors)
    context = page.context
    organizer = User.objects.create_user("orga", password="x", is_staff=True)
    login_as(context, live_server, organizer)

    # --- the format preset on the create form
    page.goto("/manage/new/")
    page.fill("#id_name", "Offizielles Turnier 2026")
    page.fill("#id_slug", "offiziell")
    page.fill("#id_date", "2026-05-01")
    page.select_option("#id_preset", "official")
    page.locator("form button.primary[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/manage/offiziell/$"))
    tournament = db(Tournament.objects.get, slug="offiziell")
    assert (tournament.ruleset, tournament.table_size, tournament.larger_tables) == (
        "time-limit", 4, True)
    assert tournament.time_limit_mode == "finish_round"

    # --- 22 players (the desk's work, done through the service), then running
    page.locator('button[data-to="registration"]').click()
    page.wait_for_load_state()
    for number in range(1, 23):
        db(player_services.add_player, tournament=tournament, name=f"Spielerin {number:02d}",
           public_name_consent=True, checked_in=True)
    page.locator('button[data-to="running"]').click()
    page.wait_for_load_state()

    # --- round 1 seated as 2 x 5 + 3 x 4
    page.goto("/manage/offiziell/rounds/")
    page.locator("form button.primary", has_text="Runde").first.click()
    page.wait_for_url(re.compile(r"/rounds/1/$"))
    page.locator('form[action$="/seat/"] button.primary').click()
    page.wait_for_load_state()
    round_1 = db(Round.objects.get, tournament=tournament, number=1)
    sizes = sorted(db(lambda: [t.seats.count() for t in round_1.tables.all()]))
    assert sizes == [4, 4, 4, 5, 5]
    table = db(lambda: next(t for t in round_1.tables.order_by("number")
                            if t.seats.count() == 5))
    banker = db(User.objects.create_user, "bank1", password="x")
    db(services.assign_banker, table=table, banker=banker)
    page.goto("/manage/offiziell/rounds/1/")
    page.locator('form[action$="/lock/"] button.primary').click()
    page.wait_for_load_state()
    page.locator('form[action$="/start/"] button.primary').click()
    page.wait_for_load_state()

    # --- the banker's phone: start the clock
    phone = banker_phone(browser, live_server, banker, table, errors)
    phone.locator('[data-testid="start"]').click()
    confirm_sheet(phone, "sheet-start")
    game = db(Game.objects.get, table=table)
    for _attempt in range(100):
        db(game.refresh_from_db)
        if game.started_at:
            break
        phone.wait_for_timeout(100)
    keys = list(game.players)  # seat order
    assert len(keys) == 5
    # the game itself, as the console would post it: everyone's cash differs at the end. The
    # pages stop polling meanwhile: on SQLite the live server shares this thread's connection,
    # and a request interleaved with these transactions breaks their savepoints.
    phone.goto("about:blank")
    page.goto("about:blank")
    for index, key in enumerate(keys):
        db(referee.post_event, game_id=game.pk, author=None,
           event={"type": "cash", "player": key, "amount": 900 + 150 * index})

    # --- 90 minutes: the server records the time limit; the last round of turns begins
    # (time_machine moves the live server's clock too: it runs in this process)
    traveller = time_machine.travel(game.started_at + dt.timedelta(minutes=90, seconds=5),
                                    tick=True)
    traveller.start()
    db(referee.enforce_deadlines, game_id=game.pk, now=timezone.now())
    db(game.refresh_from_db)
    assert game.status == "final_round"
    phone.goto(f"/banker/table/{table.pk}/")
    banner = phone.locator('[data-testid="final-round"]')
    banner.wait_for()
    phone.locator('[data-open="sheet-on-turn"]').click()
    sheet = phone.locator("#sheet-on-turn")
    sheet.wait_for()
    sheet.locator(f'label:has(input[name="player"][value="{keys[2]}"])').click()
    confirm_sheet(phone, "sheet-on-turn")

    # the console lists, in seat order, who still plays: the third seat and everyone after
    phone.reload()
    names = {key: db(Player.objects.get, pk=int(key)).name for key in keys}
    listed = phone.locator('[data-testid="final-turns"] li').all_inner_texts()
    assert listed == [names[key] for key in keys[2:]]
    for key in keys[2:]:
        opener = phone.locator('[data-open="sheet-turn-played"]')
        assert opener.get_attribute("data-player") == key
        opener.click()
        confirm_sheet(phone, "sheet-turn-played")
        phone.reload()
    db(game.refresh_from_db)
    assert game.status == "finished" and game.end_reason == "time_limit"

    # --- counted on the phone and confirmed with the players' code
    phone.wait_for_selector('#console-main[data-mode="count"]')
    phone.locator('[data-testid="count-finished"]').click()
    phone.wait_for_selector('[data-result="counted"]')
    phone.locator('input[name="code"]').fill(game.confirmation_code)
    phone.locator('input[name="code"]').press("Enter")
    phone.wait_for_selector('[data-result="confirmed"]')
    assert db(lambda: GameResult.objects.get(game=game).status) == "confirmed"

    # --- the standings: placement points 5-4-3-2-1 at the table of 5
    for _attempt in range(100):
        rows = db(lambda: {row.player_id: row.points for row in StandingRow.objects.filter(
            tournament=tournament, player_id__in=[int(key) for key in keys])})
        if len(rows) == 5:
            break
        page.wait_for_timeout(100)
    assert sorted(rows.values()) == [1, 2, 3, 4, 5]
    page.goto("/t/offiziell/")
    standings = page.locator("body").inner_text()
    winner = names[str(max(rows, key=rows.get))]
    assert winner in standings
    page.screenshot(path="/tmp/official-standings.png", full_page=True)
    traveller.stop()
    assert errors == []
