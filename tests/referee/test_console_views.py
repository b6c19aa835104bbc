"""The banker's console pages: access, the mode shown, legal actions only, the engine's answer."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from consoles import check, dealt_game, keys, main, play_events, result_revision
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import OrganizerFactory, UserFactory, appoint, seated_table

from referee import engine_cache, services
from referee.models import Game, GameResult
from tournament import banker_links

# fixtures: tests/referee/conftest.py (this module's own banker)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def banker():
    return UserFactory(username="bank-console")


def buttons(html, player):
    """The action buttons in one player's panel."""
    panel = re.search(
        rf'data-player-panel="{player}".*?<div class="actions"(.*?)</div>', html, re.S
    )
    assert panel, f"no panel for {player}"
    return re.findall(r'data-open="sheet-([a-z]+)"', panel.group(1))


# --------------------------------------------------------------------------- access


def test_the_console_renders_for_the_tables_banker(console, table):
    response = console.get(f"/banker/table/{table.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="clock-game"' in html and 'id="console-main"' in html
    assert 'data-mode="setup"' in html
    assert "Anna Test" in html and "Frank Test" in html
    config = json.loads(re.search(r'id="console-config"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert config["urls"]["events"] == f"/api/v1/tables/{table.pk}/events"
    assert config["csrf"]
    i18n = json.loads(re.search(r'id="console-i18n"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert "%(n)s" in i18n["offline_queued"]


def test_organizer_and_head_referee_may_open_it(client, table):
    client.force_login(OrganizerFactory())
    assert client.get(f"/banker/table/{table.pk}/").status_code == 200
    referee = UserFactory(username="mr-monopoly")
    appoint(referee, "head_referee", table.round.tournament)
    client.force_login(referee)
    assert client.get(f"/banker/table/{table.pk}/").status_code == 200


def test_others_get_403_everywhere(client, table):
    urls = [f"/banker/table/{table.pk}/", f"/banker/table/{table.pk}/main/"]
    for url in urls:
        assert client.get(url).status_code == 403  # anonymous
    client.force_login(UserFactory(username="another-banker"))
    for url in urls:
        assert client.get(url).status_code == 403
    assert check(client, table, [{"type": "start"}]).status_code == 403
    assert client.post(f"/banker/table/{table.pk}/count/").status_code == 403


def test_the_console_without_a_session_says_how_to_open_the_table(client, table):
    """Issue 28: a link holder has no account, so "log in with the right account" helps
    nobody; the refusal explains the table card's link and QR code and offers a login that
    comes back here. ``/banker/`` itself still leads to the login."""
    url = f"/banker/table/{table.pk}/"
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    page = response.content.decode()
    assert "QR code on the table card" in page and "private banker link" in page
    assert f'href="/login/?next=%2Fbanker%2Ftable%2F{table.pk}%2F"' in page
    assert "Log in with the right account" not in page
    client.force_login(UserFactory(username="another-banker"))
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "another-banker" in page and "Log in with another account" in page
    client.logout()
    assert client.get("/banker/")["Location"].startswith("/login/?next=")


def test_the_how_to_open_page_reads_the_table_once(client, table):
    """The refusal is decided on the table the console read: the page that explains how the
    table opens is rendered from it, not from a second read."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/banker/table/{table.pk}/")
    assert response.status_code == 403
    reads = [q["sql"] for q in ctx.captured_queries if 'FROM "tournament_table"' in q["sql"]]
    assert len(reads) == 1, "\n".join(reads)


def test_a_banker_link_session_may_run_the_console(client, table):
    link = banker_links.issue_link(table=table)
    session = client.session
    banker_links.grant(session, link)
    session.save()
    assert client.get(f"/banker/table/{table.pk}/").status_code == 200


# --------------------------------------------------------------------------- modes and actions


def test_setup_shows_seat_order_start_and_the_deal_grid(console, table, game):
    html = main(console, table).content.decode()
    assert 'data-testid="start"' in html
    assert 'data-action="deal"' in html
    seats = re.findall(r'<span class="pname">(.*?)</span>', html)
    assert seats[:6] == [f"{n} Test" for n in ("Anna", "Ben", "Carla", "Dieter", "Eva", "Frank")]
    assert 'data-action="buy"' not in html  # not started: nothing to play yet


def test_panels_offer_only_legal_actions(console, table, game):
    anna, ben, *_ = keys(table)
    dealt_game(game, table)
    html = main(console, table, player=anna).content.decode()
    assert 'data-mode="play"' in html
    assert 'data-action="deal"' not in html  # every deal done
    anna_buttons = buttons(html, anna)
    # Anna holds the whole brown group: she may build; Ben's group is complete too.
    assert "buildings" in anna_buttons and "buy" in anna_buttons and "jail" in anna_buttons
    assert "release" not in anna_buttons
    assert "rent" in anna_buttons and "mortgage" in anna_buttons and "trade" in anna_buttons
    assert "bankrupt" in anna_buttons
    play_events(game, {"type": "jail", "player": anna})
    html = main(console, table, player=anna).content.decode()
    anna_buttons = buttons(html, anna)
    assert "release" in anna_buttons and "jail" not in anna_buttons
    # Karlsruhe: an owner in jail may not build (selling is allowed, but there is nothing).
    assert "buildings" not in anna_buttons
    # the selected player's panel is shown, the others are hidden
    assert re.search(rf'data-player-panel="{anna}"\s*\n?\s*aria-label', html)
    assert re.search(rf'data-player-panel="{ben}" hidden', html)


def test_building_sheet_lists_streets_of_complete_groups(console, table, game):
    anna, ben, *_ = keys(table)
    dealt_game(game, table)
    html = main(console, table, player=anna).content.decode()
    sheet = re.search(r'id="sheet-buildings".*?</dialog>', html, re.S).group(0)
    assert 'name="level-badstrasse"' in sheet and 'name="level-turmstrasse"' in sheet
    assert f'data-for="{anna}"' in sheet and f'data-for="{ben}"' in sheet
    assert 'name="level-seestrasse"' not in sheet  # Carla lacks Neue Straße


def test_auction_mode_after_the_stop_walks_through_unowned_deeds_only(
    console, table, game, clock
):
    anna, *_ = keys(table)
    dealt_game(game, table)
    clock.shift(dt.timedelta(minutes=46))
    play_events(game, {"type": "auction", "deed": "elektrizitaetswerk", "winner": None, "price": 0})
    html = main(console, table, player=anna).content.decode()
    assert 'data-mode="auction"' in html
    steps = re.findall(r'data-step-deed="([a-z-]+)"', html)
    # board order; dealt deeds and the utility already auctioned since the stop are not in it
    assert steps[0] == "muenchner-strasse"
    assert "badstrasse" not in steps and "elektrizitaetswerk" not in steps
    assert 'data-open="sheet-buy"' not in html  # no other action until it is done
    assert 'data-open="sheet-void"' in html  # corrections stay possible


def test_auction_mode_order_is_board_order(console, table, game, clock):
    dealt_game(game, table)
    clock.shift(dt.timedelta(minutes=45))
    html = main(console, table).content.decode()  # the console's request records the stop
    game.refresh_from_db()
    assert game.auction_stop_done
    steps = re.findall(r'data-step-deed="([a-z-]+)"', html)
    from referee import rules

    board = [d.key for d in rules.get_board("classic-de").deeds]
    assert steps == [k for k in board if k in steps]
    assert steps[0] == "elektrizitaetswerk"  # the first deed nobody was dealt
    assert len(steps) == 28 - 12


def test_bankruptcy_to_the_bank_mid_game_asks_for_the_auction_of_its_deeds(console, table, game):
    *_, frank = keys(table)
    dealt_game(game, table)
    play_events(game, {"type": "bankrupt", "player": frank, "creditor": "bank"})
    html = main(console, table).content.decode()
    assert 'data-mode="auction"' in html
    assert re.findall(r'data-step-deed="([a-z-]+)"', html) == ["poststrasse", "westbahnhof"]


def test_final_round_shows_the_last_turn_button(console, table, clock):
    table.round.tournament.time_limit_mode = "finish_round"
    table.round.tournament.save()
    game = services.ensure_game(table=table)
    dealt_game(game, table)
    clock.shift(dt.timedelta(minutes=91))
    html = main(console, table).content.decode()
    game.refresh_from_db()
    assert game.status == "final_round"
    assert 'data-open="sheet-end"' in html and 'data-action="end"' in html


def test_finished_game_opens_the_count(console, table, game):
    anna, ben, carla, *_ = keys(table)
    dealt_game(game, table)
    play_events(game, {"type": "bankrupt", "player": ben, "creditor": anna},
         {"type": "bankrupt", "player": carla, "creditor": "bank"})
    html = main(console, table).content.decode()
    assert 'data-mode="count"' in html
    assert 'data-action="count"' in html and 'data-testid="count-finished"' in html
    assert 'data-open="sheet-buy"' not in html
    assert html.count("data-cash-for=") == 4  # the remaining players


# --------------------------------------------------------------------------- the engine's answer


def test_a_refused_build_shows_the_engines_reason_in_german_with_names(console, table, game):
    anna, *_ = keys(table)
    dealt_game(game, table)
    response = check(console, table, [
        {"type": "build", "deed": "badstrasse"}, {"type": "build", "deed": "badstrasse"},
    ])
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-ok="0"' in html
    assert 'data-rule="uneven_building"' in html
    assert "Turmstraße" in html and "Badstraße" in html
    assert "Abgelehnt" in html or "Refused" in html
    # German first (the current language), English small
    german = re.search(r'<p class="error">(.*?)</p>', html, re.S).group(1)
    assert "Turmstraße" in german and "kein Haus" in german
    assert "no house" in re.search(r'class="muted small other-lang"[^>]*>(.*?)</p>', html, re.S).group(1)


def test_refusals_name_players_not_their_ids(console, table, game):
    anna, ben, *_ = keys(table)
    dealt_game(game, table)
    html = check(console, table, [{"type": "buy", "player": ben, "deed": "badstrasse"}]).content.decode()
    assert "Anna Test" in html  # "Badstraße gehört bereits Anna Test"
    assert f"bereits {anna}" not in html


def test_english_shows_english_first(console, table, game):
    dealt_game(game, table)
    console.cookies["django_language"] = "en"
    html = check(console, table, [{"type": "build", "deed": "parkstrasse"},
                                  {"type": "build", "deed": "parkstrasse"}]).content.decode()
    first = re.search(r'<p class="error">(.*?)</p>', html, re.S).group(1)
    assert "uneven" in first


def test_the_answer_shows_amounts_before_confirming(console, table, game):
    anna, ben, *_ = keys(table)
    dealt_game(game, table)
    html = check(console, table, [{"type": "build", "deed": "parkstrasse"},
                                  {"type": "build", "deed": "schlossallee"}]).content.decode()
    assert 'data-ok="1"' in html
    assert "200" in html and "Parkstraße" in html and "Schlossallee" in html
    # cash before/after for Ben: 1500 - 350 - 400 = 750, then two houses at 200
    assert "750" in html and "350" in html
    html = check(console, table, [{"type": "mortgage", "deed": "parkstrasse"}]).content.decode()
    assert "175" in html
    play_events(game, {"type": "mortgage", "deed": "parkstrasse"})
    html = check(console, table, [{"type": "unmortgage", "deed": "parkstrasse"}]).content.decode()
    assert "193" in html  # 175 + 10 % rounded up


def test_rent_is_computed_by_the_engine_with_dice_for_utilities(console, table, game):
    anna, ben, *_ = keys(table)
    dealt_game(game, table)
    play_events(game, {"type": "buy", "player": ben, "deed": "wasserwerk"})
    html = main(console, table, player=anna).content.decode()
    data = json.loads(re.search(r'id="console-data"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert data["deeds"]["parkstrasse"]["rent"] == 70  # whole group, no houses: double rent
    assert data["deeds"]["wasserwerk"]["rent_dice"]["7"] == 28
    answer = check(console, table, [{"type": "pay", "from": anna, "to": ben, "amount": 28,
                                     "reason": "rent", "deed": "wasserwerk", "dice": 7}])
    html = answer.content.decode()
    assert 'data-ok="1"' in html and "Wasserwerk" in html and "28" in html
    assert "Careful" not in html and "Achtung" not in html


def test_bankruptcy_answer_explains_the_creditors_mortgage_choice(console, table, game):
    anna, ben, *_, frank = keys(table)
    dealt_game(game, table)
    play_events(game, {"type": "mortgage", "deed": "westbahnhof"})
    html = check(console, table, [{"type": "bankrupt", "player": frank, "creditor": anna,
                                   "unmortgage": ["westbahnhof"]}]).content.decode()
    assert 'data-ok="1"' in html
    assert "110" in html  # pay-off of a station: 100 + 10
    html = check(console, table, [{"type": "bankrupt", "player": frank, "creditor": anna}])\
        .content.decode()
    assert "10" in html  # interest
    html = main(console, table, player=frank).content.decode()
    sheet = re.search(r'id="sheet-bankrupt".*?</dialog>', html, re.S).group(0)
    assert 'name="payoff" value="westbahnhof"' in sheet


def test_void_is_checked_too(console, table, game):
    anna, *_ = keys(table)
    dealt_game(game, table)
    play_events(game, {"type": "build", "deed": "badstrasse"})
    # voiding Anna's deal of Turmstraße would break the later build
    html = check(console, table, [{"type": "void", "event": 2, "reason": "wrong deed"}])\
        .content.decode()
    assert 'data-ok="0"' in html and 'data-rule="void_breaks_later_event"' in html
    html = check(console, table, [{"type": "void", "event": 13, "reason": "wrong"}]).content.decode()
    assert 'data-ok="1"' in html


def test_malformed_events_are_refused_by_the_engine_not_a_server_error(console, table, game):
    dealt_game(game, table)
    html = check(console, table, [{"type": "cash", "player": ["x"], "amount": 1}]).content.decode()
    assert 'data-ok="0"' in html and 'data-rule="wrong_type"' in html
    html = check(console, table, ["nonsense"]).content.decode()
    assert 'data-ok="0"' in html and 'data-rule="malformed_event"' in html
    html = check(console, table, "nothing").content.decode()
    assert 'data-ok="0"' in html
    bad = console.post(f"/banker/table/{table.pk}/check/", "{", content_type="application/json")
    assert bad.status_code == 400


def test_check_changes_nothing(console, table, game):
    dealt_game(game, table)
    before = game.event_count
    check(console, table, [{"type": "build", "deed": "parkstrasse"}])
    game.refresh_from_db()
    assert game.event_count == before
    engine = engine_cache.engine_for(game)
    assert engine.state.level["parkstrasse"] == 0


# --------------------------------------------------------------------------- count and confirmation


def test_count_then_confirm_with_the_players_code(console, table, ended):
    url = f"/banker/table/{table.pk}"
    response = console.post(f"{url}/count/", {"seq": ended.event_count,
                                              "revision": result_revision(table)})
    assert response.status_code == 200
    result = GameResult.objects.get(game=ended)
    assert result.status == "counted" and result.placements.count() == 6
    html = response.content.decode()
    assert 'data-result="counted"' in html and 'name="code"' in html
    assert "Confirm as head referee" not in html and "Als Oberschiedsrichter" not in html
    wrong = "9999" if ended.confirmation_code != "9999" else "0000"
    html = console.post(f"{url}/confirm/", {"code": wrong,
                                            "revision": result_revision(table)}).content.decode()
    assert 'data-field-error="code"' in html  # next to the field, not scrolled away at the top
    assert GameResult.objects.get(game=ended).status == "counted"
    html = console.post(f"{url}/confirm/", {"code": ended.confirmation_code,
                                            "revision": result_revision(table)}).content.decode()
    assert 'data-result="confirmed"' in html
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_via == "player_code"


def test_a_stale_count_is_not_taken(console, table, ended):
    response = console.post(f"/banker/table/{table.pk}/count/",
                            {"seq": ended.event_count - 1, "revision": result_revision(table)})
    assert 'class="error-box"' in response.content.decode()
    assert not GameResult.objects.filter(game=ended).exists()


def test_only_head_referee_or_organizer_confirm_without_code(client, console, table, ended):
    url = f"/banker/table/{table.pk}"
    console.post(f"{url}/count/", {"seq": ended.event_count, "revision": result_revision(table)})
    assert console.post(f"{url}/confirm/", {"head_referee": "1",
                                            "revision": result_revision(table)}).status_code == 403
    client.force_login(OrganizerFactory())
    html = client.get(f"{url}/main/").content.decode()
    assert 'name="head_referee"' in html
    html = client.post(f"{url}/confirm/", {"head_referee": "1",
                                           "revision": result_revision(table)}).content.decode()
    assert 'data-result="confirmed"' in html
    assert GameResult.objects.get(game=ended).confirmed_via == "head_referee"


def test_dispute_goes_to_the_head_referee_with_the_note(console, table, ended):
    url = f"/banker/table/{table.pk}"
    console.post(f"{url}/count/", {"seq": ended.event_count, "revision": result_revision(table)})
    html = console.post(f"{url}/dispute/", {"note": "",
                                            "revision": result_revision(table)}).content.decode()
    assert 'class="error-box"' in html
    html = console.post(f"{url}/dispute/", {"note": "Ben says Parkstraße was his",
                                            "revision": result_revision(table)}).content.decode()
    assert 'data-result="disputed"' in html
    result = GameResult.objects.get(game=ended)
    assert result.status == "disputed" and "Parkstraße" in result.dispute_note


@pytest.mark.parametrize("code", ["\u202eevil", "zwölf", "١٢٣٤", "x" * 10_000])
def test_any_typed_code_is_just_a_wrong_code(console, table, ended, code):
    """Found by the form fuzz: comparing a non-ASCII code raised TypeError (a 500)."""
    url = f"/banker/table/{table.pk}"
    console.post(f"{url}/count/", {"seq": ended.event_count, "revision": result_revision(table)})
    answer = console.post(f"{url}/confirm/", {"code": code, "revision": result_revision(table)})
    assert answer.status_code == 200
    assert 'data-code="wrong_confirmation_code"' in answer.content.decode()
    assert GameResult.objects.get(game=ended).status == "counted"


@pytest.mark.parametrize("note, code", [("Ben\x00 sagt nein", "note_nul"),
                                        ("x" * 2001, "note_too_long")])
def test_a_dispute_note_that_cannot_be_stored_is_refused(console, table, ended, note, code):
    """Found by the form fuzz: a NUL in the note was a database error on PostgreSQL."""
    url = f"/banker/table/{table.pk}"
    console.post(f"{url}/count/", {"seq": ended.event_count, "revision": result_revision(table)})
    html = console.post(f"{url}/dispute/", {"note": note,
                                            "revision": result_revision(table)}).content.decode()
    assert f'data-code="{code}"' in html
    assert GameResult.objects.get(game=ended).status == "counted"


def test_check_wants_json_not_a_form(banker, table, game):
    """Found by the form fuzz: a multipart body is read by the CSRF check before the view, and
    request.body then raised (a 500)."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True, raise_request_exception=False)
    browser.force_login(banker)
    browser.cookies["csrftoken"] = "c" * 32
    answer = browser.post(f"/banker/table/{table.pk}/check/", {"events": "[]"},
                          HTTP_X_CSRFTOKEN="c" * 32)
    assert answer.status_code == 400


# --------------------------------------------------------------------------- query count


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_the_number_of_events(console, banker):
    counts = []
    for n_events in (5, 100):
        table = seated_table(banker=banker)
        game = services.ensure_game(table=table)
        anna, ben, *_ = keys(table)
        events = [{"type": "start"}] + [
            {"type": "pay", "from": anna if i % 2 else ben, "to": ben if i % 2 else anna,
             "amount": 1} for i in range(n_events - 1)
        ]
        play_events(game, *events)
        assert Game.objects.get(pk=game.pk).event_count == n_events
        for url in (f"/banker/table/{table.pk}/", f"/banker/table/{table.pk}/main/"):
            _queries(console, url)  # warm: session, caches
        engine_cache.forget(game.pk)  # a cold engine cache costs one query, at any size
        counts.append((
            _queries(console, f"/banker/table/{table.pk}/"),
            _queries(console, f"/banker/table/{table.pk}/main/"),
        ))
    assert counts[0] == counts[1], counts


def test_starting_the_clock_before_the_deal_is_a_warning_the_banker_confirms(console, table, game):
    """Issue 28: the Karlsruhe rules deal 2 deeds to each player while the game is prepared,
    "then the game starts". With deeds not dealt the start sheet says how many are and asks
    for "Start without the full deal"; with the deal done it is the plain "Start now"."""

    def start_sheet():
        html = console.get(f"/banker/table/{table.pk}/main/", HTTP_ACCEPT_LANGUAGE="en")
        html = html.content.decode()
        return re.search(r'<dialog id="sheet-start".*?</dialog>', html, re.S).group(0)

    sheet = start_sheet()
    assert 'data-deal-missing="0/12"' in sheet and "Start without the full deal" in sheet
    anna, ben, carla, dieter, eva, frank = keys(table)
    deals = {anna: ["badstrasse", "turmstrasse"], ben: ["parkstrasse", "schlossallee"],
             carla: ["seestrasse", "hafenstrasse"], dieter: ["neue-strasse", "suedbahnhof"],
             eva: ["chausseestrasse", "elisenstrasse"], frank: ["poststrasse", "westbahnhof"]}
    events = [{"type": "deal", "player": p, "deed": d} for p, ds in deals.items() for d in ds]
    play_events(game, *events[:5])
    assert 'data-deal-missing="5/12"' in start_sheet()
    play_events(game, *events[5:])
    sheet = start_sheet()
    assert "data-deal-missing" not in sheet and "Start without the full deal" not in sheet
    assert "Start now" in sheet
