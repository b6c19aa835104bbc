"""The organizer's whole day in one browser test (issue 16), in German, then spot-checked in
English with axe-core on every page type.

Create a tournament, import players (a broken file, then a good Windows CSV), check in with
umlaut search, a late entry who plays from round 2, seat round 1, bankers, prints, start, six
consoles on a phone through to results (one by the time limit, driven server-side; one with
the negative-cash warning; one confirmed with the code from the players' slip), close, round 2
(the bankers carried over to the same table numbers), the final, the crown, certificates.

What the phones do goes through the pages; what only fills time (the deal of five tables, the
games of round 2 and the final) is posted through the services, as the consoles would.
"""

from __future__ import annotations

import datetime as dt
import os
import re

import pytest
from browsing import PHONE, banker_phone, db, login_as, wait_for_message_below, watched_page
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from organizer_day import (
    DOCS,
    axe_check,
    confirm_by_service,
    console_count_and_confirm,
    pdf_text,
    play_to_the_end,
    windows_csv,
)
from playwright.sync_api import expect

from referee import services as referee
from referee.models import Game, GameResult
from tournament.models import Player, Round, StaffRole, Tournament
from tournament.players import services as player_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.slow
def test_the_organizers_whole_day(browser, live_server):
    errors: list[str] = []
    page = watched_page(browser, live_server, errors)
    context = page.context
    User.objects.create_user("orga", password="Karlsruhe-2026!", is_staff=True)

    # --- 1. /manage/ logged out: the site's own login, then back
    page.goto("/manage/")
    assert page.url.endswith("/login/?next=%2Fmanage%2F") or "/login/" in page.url
    assert page.locator("link[rel=icon]").count() == 1
    page.fill("#id_username", "orga")
    page.fill("#id_password", "Karlsruhe-2026!")
    page.locator("form button.primary").click()
    page.wait_for_url(re.compile(r"/manage/$"))

    # --- 2. a new tournament; a tie-break chosen once is not offered again
    page.goto("/manage/new/")
    page.fill("#id_name", "Stadtmeisterschaft Karlsruhe 2026")
    page.fill("#id_slug", "ka-2026")
    page.fill("#id_date", "2026-11-28")
    page.fill("#id_venue", "Stadthalle")
    page.fill("#id_preliminary_rounds", "2")
    for slot in (3, 4, 5):  # the defaults fill every slot: empty the last three first
        page.select_option(f"#id_tie_break_{slot}", "")
    page.select_option("#id_tie_break_1", "points")
    page.select_option("#id_tie_break_2", "net_worth_sum")
    assert page.locator('#id_tie_break_2 option[value="points"]').is_disabled()
    assert page.locator('#id_tie_break_3 option[value="net_worth_sum"]').is_disabled()
    page.select_option("#id_tie_break_3", "lot")
    for viewport in ({"width": 1280, "height": 720}, PHONE):  # the slots never overlap
        page.set_viewport_size(viewport)
        boxes = [page.locator(f"#id_tie_break_{slot}").bounding_box() for slot in range(1, 6)]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                         or a["y"] + a["height"] <= b["y"] + 0.5
                         or b["y"] + b["height"] <= a["y"] + 0.5)
                assert apart, (viewport, a, b)
    page.set_viewport_size({"width": 1280, "height": 720})
    axe_check(page, "new tournament de")
    page.locator("form button.primary[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/manage/ka-2026/$"))
    tournament = Tournament.objects.get(slug="ka-2026")
    assert tournament.tie_breaks[:3] == ["points", "net_worth_sum", "lot"]

    # --- 3. registration; import: a broken file is refused whole, then the good one
    page.locator('button[data-to="registration"]').click()
    page.wait_for_load_state()
    page.goto("/manage/ka-2026/players/import/")
    page.set_input_files("#id_file", files=[{"name": "anmeldungen.csv", "mimeType": "text/csv",
                                              "buffer": windows_csv(broken=True)}])
    page.locator("form button.primary").click()
    page.wait_for_selector(".error-box .line-errors li[data-line]")
    assert Player.objects.filter(tournament=tournament).count() == 0
    page.set_input_files("#id_file", files=[{"name": "anmeldungen.csv", "mimeType": "text/csv",
                                              "buffer": windows_csv()}])
    page.locator("form button.primary").click()
    page.wait_for_url(re.compile(r"/players/$"))
    assert Player.objects.filter(tournament=tournament).count() == 35
    assert Player.objects.filter(name="Jörg Weiß").exists()
    names = page.locator("table.grid tbody tr td:first-child a").all_inner_texts()
    assert names.index("Olga Spieler14") < names.index("Özlem Ärger") < names.index("Paul Spieler15")  # Ö sorts with O

    # --- 4. check-in desk: umlaut search finds Weiß, Käthe and Müller
    page.goto("/manage/ka-2026/check-in/")
    for query, name in (("weiss", "Jörg Weiß"), ("Kathe", "Käthe Lange"),
                        ("Mueller", "Anna Müller")):
        page.fill("#desk-q", query)
        expect(page.locator(".desk-row")).to_have_count(1)  # the search answered
        row = page.locator(".desk-row", has_text=name)
        row.wait_for()
        row.locator("button.primary").click()
        page.locator(".desk-row.checked", has_text=name).wait_for()
    axe_check(page, "check-in desk de")
    for player in Player.objects.filter(tournament=tournament, checked_in=False):
        db(player_services.check_in, player=player)
    page.goto("/manage/ka-2026/")
    page.locator('button[data-to="running"]').click()
    page.wait_for_load_state()
    db(tournament.refresh_from_db)
    assert tournament.status == Tournament.Status.RUNNING

    def create_and_seat(number: int) -> Round:
        page.goto("/manage/ka-2026/rounds/")
        page.locator("form button.primary", has_text="Runde").first.click()
        page.wait_for_url(re.compile(rf"/rounds/{number}/$"))
        page.locator('form[action$="/seat/"] button.primary').click()
        page.wait_for_load_state()
        return db(Round.objects.get, tournament=tournament, number=number)

    def lock_and_start(number: int) -> None:
        page.goto(f"/manage/ka-2026/rounds/{number}/")
        page.locator('form[action$="/lock/"] button.primary').click()
        page.wait_for_load_state()
        page.locator('form[action$="/start/"] button.primary').click()
        page.wait_for_load_state()

    def close_at_desk() -> None:
        page.goto("/manage/ka-2026/desk/")
        axe_check(page, "desk de")
        page.once("dialog", lambda dialog: dialog.accept())  # "Runde abschließen?" asks first
        page.locator('button[data-action="close-round"]').click()
        page.wait_for_load_state()

    # --- 5. round 1: create, seat, bankers, prints, lock, start
    round_1 = create_and_seat(1)
    assert round_1.status == Round.Status.SEATED
    axe_check(page, "round seated de")
    tables = list(round_1.tables.order_by("number"))
    assert len(tables) == 6 and sum(t.seats.count() for t in tables) == 35

    # the tournament's banker candidates (assigning by name finds no account outside them)
    bankers = [db(User.objects.create_user, f"bank{n}", password="x") for n in range(1, 7)]
    for banker in bankers:
        db(StaffRole.objects.get_or_create, tournament=round_1.tournament, user=banker,
           role=StaffRole.Role.BANKER)

    def assign_bankers(number: int, tables: int = 6) -> None:
        page.goto(f"/manage/ka-2026/rounds/{number}/bankers/")
        for table_number, banker in enumerate(bankers[:tables], start=1):
            page.fill(f"#new-banker-{table_number}", banker.username)
            page.locator(f'form:has(#new-banker-{table_number}) button.primary').click()
            page.wait_for_load_state()

    assign_bankers(1)
    assert [t.banker_id for t in round_1.tables.order_by("number")] == [b.pk for b in bankers]
    axe_check(page, "bankers de")

    # prints: the QR address warning (opened on 127.0.0.1), entrance list, code slips
    page.goto("/manage/ka-2026/print/1/")
    assert page.locator("[data-loopback-warning]").count() == 1
    axe_check(page, "prints de")
    entrance = page.request.get("/manage/ka-2026/print/1/seating-names.pdf")
    assert entrance.ok and entrance.body().startswith(b"%PDF")
    entrance_text = pdf_text(entrance.body())
    assert entrance_text.index("Ärger") < entrance_text.index("Lange")  # by last name
    slips = page.request.get("/manage/ka-2026/print/1/slips.pdf")
    assert slips.ok
    slip_text = pdf_text(slips.body())
    sheets = page.request.get("/manage/ka-2026/print/1/scoresheets.pdf")
    assert sheets.ok
    lock_and_start(1)
    db(round_1.refresh_from_db)
    assert round_1.status == Round.Status.RUNNING

    # --- 6. a late entry at the desk: checked in at once, plays from round 2
    page.goto("/manage/ka-2026/check-in/")
    page.locator('a[href$="/players/add/?from=desk"]').first.click()
    page.fill("#id_name", "Lena Spät")
    page.locator("form button.primary[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/check-in/\?q="))
    page.locator('.desk-row [data-seated-from="2"]').wait_for()
    assert "spielt ab Runde 2" in page.content()
    late = Player.objects.get(name="Lena Spät")
    assert late.checked_in and not late.seats.exists()

    # --- 7. six phones: every banker opens their console and starts the clock
    page.goto("about:blank")  # the organizer's pages poll; the phones take over
    phones = []
    for banker, table in zip(bankers, tables, strict=True):
        phone = banker_phone(browser, live_server, banker, table, errors)
        if not phones:
            axe_check(phone, "console: setup")
        phone.locator('[data-testid="start"]').click()
        phone.locator('#sheet-start .answer [data-ok="1"]').wait_for()
        phone.locator("#sheet-start .btn-confirm").click()
        # one phone after the other: the test's in-memory SQLite (shared cache) refuses a
        # second writer at once instead of waiting as the event's SQLite file does
        phone.wait_for_function(
            "() => window.MCS && MCS.bankerConsole && MCS.bankerConsole.queue().length === 0")
        phones.append(phone)
    for table in tables:
        game = db(Game.objects.get, table=table)
        for _attempt in range(100):
            db(game.refresh_from_db)
            if game.started_at:
                break
            phones[0].wait_for_timeout(100)
        assert game.started_at, table.number

    # table 1: the deal on the phone, answered in the browser; then a payment typo
    phone, table = phones[0], tables[0]
    phone.reload()
    deal = phone.locator(".deal-form")
    deal.locator('label:has(input[name="deed"][value="badstrasse"])').click()
    deal.locator('.answer [data-local="1"]').wait_for()
    assert "60" in deal.locator(".answer").inner_text()
    deal.locator(".btn-confirm").click()
    game = db(Game.objects.get, table=table)
    keys = list(game.players)
    phone.wait_for_function("() => document.querySelector('#console-main')?.dataset.seq >= '2'")
    axe_check(phone, "console: play")
    phone.locator(f'[data-select-player="{keys[0]}"]').click()
    phone.locator(f'[data-open="sheet-pay"][data-player="{keys[0]}"]').click()
    sheet = phone.locator("#sheet-pay")
    sheet.wait_for()
    sheet.locator('input[name="amount"]').fill("5000")
    warning = sheet.locator(".answer [data-negative]")
    warning.wait_for()
    button = sheet.locator(".btn-confirm")
    assert button.inner_text().startswith("Trotzdem buchen: Kontostand −")
    assert "is-negative" in button.get_attribute("class")
    # an unmissable step: nothing is booked until the banker ticks "amount checked"
    assert button.is_disabled()
    sheet.locator('input[name="amount"]').press("Enter")
    ack = sheet.locator("[data-negative-ack]")
    ack.check()
    expect(button).to_be_enabled()
    ack.uncheck()
    expect(button).to_be_disabled()
    ack.check()
    expect(button).to_be_enabled()
    axe_check(phone, "console: negative-cash warning")
    # the warning is not covered by the sticky button
    box = warning.bounding_box()
    top_of_button = button.bounding_box()["y"]
    assert box["y"] + box["height"] <= top_of_button + 1, (box, top_of_button)
    phone.screenshot(path=str(DOCS / "phone-console.png"))
    # a second phone at table 1 (the banker's tablet): it follows the first within 2 s
    second = watched_page(browser, live_server, errors, viewport=PHONE)
    login_as(second.context, live_server, bankers[0])
    second.goto(f"/banker/table/{table.pk}/")
    seq_before = int(phone.locator("#console-main").get_attribute("data-seq"))
    second.wait_for_function(
        "(seq) => Number(document.querySelector('#console-main')?.dataset.seq) === seq",
        arg=seq_before)
    button.click()
    phone.wait_for_function("() => window.MCS && MCS.bankerConsole && MCS.bankerConsole.queue().length === 0")
    second.wait_for_function(  # the bound, counted from the first phone's answer
        "(seq) => Number(document.querySelector('#console-main')?.dataset.seq) > seq",
        arg=seq_before, timeout=2000)
    second.context.close()
    paid = db(lambda: list(game.events.filter(type="pay").values_list("data", flat=True)))
    assert [event["amount"] for event in paid] == [5000]  # booked once, as acknowledged

    # every game ends: table 2 by the time limit (the server's deadline, driven here)
    for index, table in enumerate(tables):
        if index == 1:
            game = db(Game.objects.get, table=table)
            db(referee.enforce_deadlines, game_id=game.pk,
               now=timezone.now() + dt.timedelta(minutes=91))
            db(game.refresh_from_db)
            assert game.status == "finished" and game.end_reason == "time_limit"
        else:
            play_to_the_end(table)
    # table 1: confirmed by a second person, the player with the slip
    game_1 = Game.objects.get(table=tables[0])
    assert game_1.confirmation_code in slip_text
    wrong = "0000" if game_1.confirmation_code != "0000" else "1111"
    phone = phones[0]
    phone.reload()
    phone.wait_for_selector('#console-main[data-mode="count"]')
    axe_check(phone, "console: count")
    phone.locator('[data-testid="count-finished"]').click()
    phone.wait_for_selector('[data-result="counted"]')
    phone.locator('input[name="code"]').fill(wrong)
    phone.locator('input[name="code"]').press("Enter")
    error = phone.locator('[data-field-error="code"]')
    error.wait_for()
    assert "Code" in error.inner_text()
    # brought into view right below the field once htmx has settled the swap (~20 ms later)
    wait_for_message_below(phone, 'input[name="code"]', '[data-field-error="code"]')
    axe_check(phone, "console: wrong code")
    phone.locator('input[name="code"]').fill(game_1.confirmation_code)
    phone.locator('input[name="code"]').press("Enter")
    phone.wait_for_selector('[data-result="confirmed"]')
    assert not phones[0].locator("#clock-stop").is_visible()  # no auction stop after the end
    for phone, table in zip(phones[1:], tables[1:], strict=True):
        game = db(Game.objects.get, table=table)
        console_count_and_confirm(phone, game, game.confirmation_code)
    assert db(lambda: GameResult.objects.filter(game__table__round=round_1,
                                                status="confirmed").count()) == 6

    # --- 8. the desk closes round 1
    close_at_desk()
    db(round_1.refresh_from_db)
    assert round_1.status == Round.Status.COMPLETE

    # --- 9. round 2: the late entry is seated; each banker keeps their table number
    round_2 = create_and_seat(2)
    assert late.seats.filter(round=round_2).exists()
    bankers_of = {t.number: t.banker_id for t in round_1.tables.all()}
    assert {t.number: t.banker_id for t in round_2.tables.all()} == bankers_of
    page.goto("/manage/ka-2026/rounds/2/bankers/")
    for banker in bankers:
        assert banker.username in page.content()
    lock_and_start(2)
    # the head referee's page for a result from the paper sheet (a page type of its own)
    answer = page.goto("/manage/ka-2026/rounds/2/tables/1/paper/")
    assert answer.ok
    axe_check(page, "paper result de")
    for table in round_2.tables.order_by("number"):
        confirm_by_service(play_to_the_end(table))
    close_at_desk()

    # --- 10. the final, the crown, certificates
    page.goto("/manage/ka-2026/desk/")
    page.locator('button[data-action="seat-final"]').click()
    page.wait_for_load_state()
    final = Round.objects.get(tournament=tournament, kind=Round.Kind.FINAL)
    assert final.tables.get().banker_id == bankers[0].pk  # carried over: table 1's banker
    lock_and_start(final.number)
    (final_table,) = final.tables.all()
    confirm_by_service(play_to_the_end(final_table, cash={0: 9000}))
    close_at_desk()
    db(tournament.refresh_from_db)
    assert tournament.winner_id is not None
    page.goto("/manage/ka-2026/desk/")
    assert page.locator("[data-champion]").count() == 1
    certificates = page.request.get(f"/manage/ka-2026/print/{final.number}/certificates.pdf")
    assert certificates.ok and tournament.winner.name in pdf_text(certificates.body())

    # --- 11. the public leaderboard on a phone
    public = browser.new_context(base_url=live_server.url, locale="de-DE", viewport=PHONE)
    spectator = public.new_page()
    spectator.goto("/t/ka-2026/")
    spectator.wait_for_selector(".pub-standings")
    # place, name and points without swiping (the rounds are on each player's page)
    assert spectator.locator(".pub-scroll").evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    spectator.screenshot(path=str(DOCS / "phone-leaderboard.png"))
    axe_check(spectator, "leaderboard de")
    # "find me": an umlaut-folded search on the phone, then the other public page types in German
    kathe = tournament.players.get(name="Käthe Lange")  # consented: her name is public
    spectator.fill("input[name=q]", "Kathe")
    spectator.locator("input[name=q]").press("Enter")
    spectator.wait_for_load_state("networkidle")
    spectator.locator(f'[data-player="{kathe.pk}"]').first.wait_for()
    axe_check(spectator, "find me de")
    for url in ("/t/ka-2026/tables/", "/t/ka-2026/tables/1/", f"/t/ka-2026/players/{kathe.pk}/",
                "/t/ka-2026/screen"):
        spectator.goto(url)
        spectator.wait_for_load_state("networkidle")
        assert spectator.locator("html").get_attribute("lang") == "de", url
        axe_check(spectator, url + " de")

    # --- 12. the same pages in English, axe-core on every page type
    for ctx in (context, public):
        ctx.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en",
                          "url": live_server.url}])
    spectator.goto("/t/ka-2026/")
    assert "Standings" in spectator.content()
    assert spectator.locator("html").get_attribute("lang") == "en"
    first_player = tournament.players.order_by("pk").first()
    for url in ("/t/ka-2026/", "/t/ka-2026/tables/", "/t/ka-2026/tables/1/",
                f"/t/ka-2026/players/{first_player.pk}/", "/t/ka-2026/screen", "/",
                "/login/"):
        spectator.goto(url)
        spectator.wait_for_load_state("networkidle")
        axe_check(spectator, url)
    missing = spectator.goto("/t/no-such-tournament/")
    assert missing.status == 404
    axe_check(spectator, "404")
    newcomer = db(User.objects.create_user, "new-desk")
    newcomer.set_unusable_password()
    db(newcomer.save)
    from tournament.staff import set_password_path

    assert spectator.goto(set_password_path(newcomer)).ok
    spectator.wait_for_selector("input[type=password]")
    axe_check(spectator, "set password")
    result_1 = GameResult.objects.get(game=game_1)
    for url in ("/manage/", "/manage/ka-2026/", "/manage/ka-2026/players/",
                "/manage/ka-2026/players/add/", f"/manage/ka-2026/players/{late.pk}/edit/",
                f"/manage/ka-2026/players/{late.pk}/incidents/",
                "/manage/ka-2026/check-in/", "/manage/ka-2026/players/import/",
                "/manage/ka-2026/settings/", "/manage/ka-2026/staff/", "/manage/ka-2026/audit/",
                "/manage/new/", "/manage/tournaments/import/", "/manage/ka-2026/rounds/",
                "/manage/ka-2026/rounds/1/", "/manage/ka-2026/rounds/1/bankers/",
                "/manage/ka-2026/desk/", f"/manage/ka-2026/results/{result_1.game_id}/",
                "/manage/ka-2026/print/", "/manage/ka-2026/print/1/",
                f"/banker/table/{tables[0].pk}/", "/banker/"):
        answer = page.goto(url)
        assert answer.ok, (url, answer.status)
        page.wait_for_load_state("networkidle")
        assert page.locator("h1").count() >= 1, url
        assert page.locator("html").get_attribute("lang") == "en", url
        axe_check(page, url)
    # a print made in the background: its job page
    page.goto("/manage/ka-2026/print/1/")
    page.locator('form[action$="/job/"] button').first.click()
    page.wait_for_url(re.compile(r"/print/jobs/"))
    page.wait_for_load_state("load")
    assert page.locator("h1").count() >= 1
    axe_check(page, "print job")
    phones[0].context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en",
                                    "url": live_server.url}])
    phones[0].reload()
    phones[0].wait_for_selector("#console-main")
    assert "Confirmed" in phones[0].content() or "confirmed" in phones[0].content()
    axe_check(phones[0], "console en")
    for phone in phones:
        phone.context.close()
    public.close()
    context.close()
    assert errors == []
    assert os.path.getsize(DOCS / "phone-console.png") > 10_000
