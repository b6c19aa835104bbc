"""Spectators in a browser: a table followed live while the console posts events, the standings
reordering after a confirmed result, the projector, and the leaderboard on a 360-px phone.

German comes from ``locale/glossary-de-public.json`` compiled into a temporary catalogue (as in
tests/public/test_feed.py), so this runs before the .po files are merged.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import pytest
from django.utils import timezone
from factories import ClubFactory, PlayerFactory, TournamentFactory
from gameplay import make_round, play
from playwright.sync_api import expect

from referee import services as referee
from tournament.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp")


@pytest.fixture
def hall():
    tournament = TournamentFactory(name="Stadtmeisterschaft Karlsruhe", slug="ka",
                                   status=Tournament.Status.RUNNING, finalists=6)
    clubs = [ClubFactory(name="Spielfreunde Durlach", short_name="SF Durlach"),
             ClubFactory(name="Monopoly-Club Karlsruhe", short_name="MC KA")]
    first = ["Anna", "Ben", "Carla", "Dieter", "Eva", "Frank", "Gül", "Hannes", "Ilse",
             "Jürgen", "Katharina", "Lukas"]
    last = ["Alt", "Berg", "Clever", "Dorn", "Eck", "Fuchs", "Gerber", "Hahn", "Iske",
            "Jost", "Keller", "Lang"]
    players = [
        PlayerFactory(tournament=tournament, name=f"{a} {b}", club=clubs[i % 2],
                      public_name_consent=i != 4)
        for i, (a, b) in enumerate(zip(first, last, strict=True))
    ]
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    return tournament, players, tables


@pytest.mark.slow
def test_a_spectator_follows_a_game_live(page, hall):
    tournament, players, tables = hall
    game = referee.ensure_game(table=tables[0])
    anna, ben, carla = game.players[:3]
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/live/" in r.url else None)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/t/ka/tables/1/")
    expect(page.locator(".pub-board-svg")).to_be_visible()
    expect(page.locator(".pub-state")).to_have_text("Nicht gestartet")
    started = timezone.now()

    # A poll every 1.5 s shows a change within about 2 s; the browser waits longer so that a
    # loaded CI machine does not fail it (the freshness figure is the rehearsal's to measure).
    def event(body, text):
        sent = time.monotonic()
        referee.post_event(game_id=game.pk, event=body, author=None)
        expect(page.locator(".pub-feed li").first).to_contain_text(text, timeout=6000)
        return time.monotonic() - sent

    delays = [
        event({"type": "start"}, "Spiel gestartet"),
        event({"type": "buy", "player": anna, "deed": "schlossallee"},
              "Anna Alt kauft Schlossallee für 400"),
        event({"type": "auction", "deed": "turmstrasse", "winner": ben, "price": 40},
              "Auktion: Ben Berg ersteigert Turmstraße für 40"),
        event({"type": "buy", "player": anna, "deed": "parkstrasse"},
              "Anna Alt kauft Parkstraße für 350"),
        event({"type": "build", "deed": "schlossallee"}, "Anna Alt baut ein Haus auf Schlossallee"),
        event({"type": "buy", "player": carla, "deed": "suedbahnhof"},
              "Carla Clever kauft Südbahnhof für 200"),
        event({"type": "mortgage", "deed": "suedbahnhof"},
              "Carla Clever nimmt eine Hypothek auf Südbahnhof auf"),
        event({"type": "pause"}, "Pause: die Uhr steht"),
        event({"type": "resume"}, "Das Spiel geht weiter"),
        event({"type": "bankrupt", "player": carla, "creditor": anna},
              "Carla Clever ist bankrott (an Anna Alt)"),
    ]
    # the board follows: owners' seats, a house, the mortgaged station passed on to Anna
    expect(page.locator('[data-key="schlossallee"]')).to_have_attribute("data-houses", "1")
    expect(page.locator('[data-key="turmstrasse"]')).to_have_attribute("data-owner", "2")
    expect(page.locator('[data-key="suedbahnhof"]')).to_have_attribute("data-owner", "1")
    expect(page.locator('[data-key="suedbahnhof"]')).to_have_class("sq kind-station owned mortgaged")
    expect(page.locator("tr.bankrupt")).to_contain_text("Carla Clever")
    # the clock runs in the browser from the game's start
    clock = page.locator(".pub-clock.big")
    elapsed = (timezone.now() - started).total_seconds()
    assert clock.inner_text().startswith("0:")
    assert int(clock.inner_text().split(":")[1]) <= elapsed + 2
    # nothing changes for a while: polls end in 304 and the page keeps its content
    count_before = len(statuses)
    page.wait_for_timeout(3500)
    assert statuses[count_before:] and set(statuses[count_before:]) == {304}
    expect(page.locator(".pub-feed li").first).to_contain_text("bankrott")
    page.screenshot(path=str(SHOTS / "table-live.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})
    page.screenshot(path=str(SHOTS / "table-live-360.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    print("seconds from event to screen:", [round(d, 2) for d in delays])
    # Anna's page: her game and a chart of her net worth over the game time
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/t/ka/players/{players[0].pk}/")
    expect(page.locator(".pub-player-name")).to_contain_text("Anna Alt")
    expect(page.locator(".pub-chart polyline")).to_be_visible()
    page.screenshot(path=str(SHOTS / "player.png"), full_page=True)


def test_the_tables_page_follows_with_only_what_changed(page, hall):
    """After the whole version document the page polls only what changed since (``?since=``),
    and that answer carries the changed card (``&cards=1``, issue 29: one request per poll, no
    second fetch); the card on screen follows the game."""
    _tournament, _players, tables = hall
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("/live/", 1)[1])
            if "/live/" in r.url else None)
    page.goto("/t/ka/tables/")
    card = page.locator('[data-table="2"] .pub-state')
    expect(card).to_have_text("Nicht gestartet")
    deadline = time.monotonic() + 10
    while not any(url.startswith("v?since=") for url in asked) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    game = referee.ensure_game(table=tables[1])
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    expect(card).to_have_text("Läuft", timeout=8000)
    assert asked[0] == "v" and any(url.startswith("v?since=") for url in asked), asked
    assert all(url.endswith("&cards=1") for url in asked if url.startswith("v?since=")), asked
    assert not any(url.startswith("cards?") for url in asked), asked  # it came with the poll


def test_the_standings_change_order_after_a_confirmed_result(page, hall):
    tournament, players, tables = hall
    start = timezone.now() - dt.timedelta(hours=2)
    play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])}, start=start)
    page.goto("/t/ka/")
    rows = page.locator("table.pub-standings tbody tr[data-player]")
    expect(rows.first).to_contain_text(players[5].public_name)
    expect(page.locator("tr.cut")).to_contain_text("fürs Finale qualifiziert")
    play(tables[1], {p: 3000 + 100 * i for i, p in enumerate(players[6:])}, start=start)
    # table 2's winner (more net worth) goes ahead of table 1's: both have 6 points
    expect(rows.first).to_contain_text(players[11].public_name, timeout=6000)
    expect(rows.nth(1)).to_contain_text(players[5].public_name)
    expect(page.locator("sup.tb").first).to_be_visible()
    page.screenshot(path=str(SHOTS / "leaderboard.png"), full_page=True)


def test_the_projector_cycles_standings_and_tables(page, hall):
    tournament, players, tables = hall
    start = timezone.now() - dt.timedelta(hours=2)
    play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])}, start=start)
    game = referee.ensure_game(table=tables[1])
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None,
                       now=timezone.now() - dt.timedelta(minutes=12))
    referee.post_event(game_id=game.pk, author=None,
                       event={"type": "cash", "player": game.players[3], "amount": 2400})
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto("/t/ka/screen?interval=3")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".site-footer")).to_be_hidden()
    slide = page.locator(".slide.active")
    expect(slide.locator("h2")).to_contain_text("Rangliste 1–10")
    expect(slide).to_contain_text(players[5].public_name)
    heading_px = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                               "'.slide.active h2')).fontSize)")
    assert heading_px >= 0.04 * 1920  # ≥ 4 vw: readable from 15 m
    page.screenshot(path=str(SHOTS / "projector.png"))
    expect(slide.locator("h2")).to_contain_text("Rangliste 11–12", timeout=4500)
    expect(slide.locator("h2")).to_contain_text("Tische", timeout=4500)
    expect(slide).to_contain_text("Jürgen Jost")  # the leader of table 2 (seat 4)
    expect(slide.locator(".screen-table").nth(1).locator(".pub-clock")).to_contain_text("12:")
    page.screenshot(path=str(SHOTS / "projector-tables.png"))


def test_the_leaderboard_fits_a_360_px_phone(page, hall):
    tournament, players, tables = hall
    start = timezone.now() - dt.timedelta(hours=2)
    play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])}, start=start)
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto("/t/ka/")
    expect(page.locator("table.pub-standings")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    # the unconsented player shows as initials and club
    expect(page.locator("table.pub-standings")).to_contain_text("E.E. (SF Durlach)")
    page.screenshot(path=str(SHOTS / "leaderboard-360.png"), full_page=True)
    page.goto("/t/ka/tables/")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.screenshot(path=str(SHOTS / "tables-360.png"), full_page=True)


def test_a_phone_shows_place_name_and_points_without_swiping(page, hall):
    """At 390 px every line's place, name and points are on screen: the per-round columns give
    way (they are on each player's page), and "not played yet" sits under the name instead of
    widening the place column (the walk: the points behind a sideways swipe)."""
    tournament, players, tables = hall
    play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])},
         start=timezone.now() - dt.timedelta(hours=2))  # table 2 has not played yet
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/t/ka/")
    standings = page.locator("table.pub-standings")
    expect(standings).to_be_visible()
    scroller = page.locator(".pub-scroll")
    assert scroller.evaluate("e => e.scrollWidth - e.clientWidth") <= 0  # nothing behind a swipe
    assert not page.locator(".scroll-hint").is_visible()
    for row in standings.locator("tbody tr[data-player]").all():
        for cell in ("td.place", "td.name", "td.primary"):
            box = row.locator(cell).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, cell
    place = standings.locator("tbody tr[data-player]").last.locator("td.place").bounding_box()
    assert place["width"] < 60  # "–", not "not played yet"
