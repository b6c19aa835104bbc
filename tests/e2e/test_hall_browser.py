"""Issue 17 in a browser: a player opens their code's page on a 360-px phone and sees their
table, then their result once it is confirmed; "find me" finds an umlaut name on a leaderboard
that shows only the top; a hall screen switches from the seating list to the clock when the
desk starts the round. No script errors anywhere (and no inline scripts: a strict CSP)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play
from playwright.sync_api import expect

from scoring import screens
from tournament.models import Player, Round, Tournament
from tournament.rounds import services as tournament_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_script_errors")]


@pytest.fixture
def hall():
    tournament = TournamentFactory(name="Stadtmeisterschaft Karlsruhe", slug="ka",
                                   status=Tournament.Status.RUNNING, finalists=6)
    names = ["Erika Weiß", "Jörg Größer"] + [f"Spieler {i:02d}" for i in range(58)]
    players = [PlayerFactory(tournament=tournament, name=name) for name in names]
    return tournament, players


def test_a_player_opens_their_code_and_sees_their_table_then_their_result(page, hall):
    tournament, players = hall
    _, tables = make_round(tournament, 1, [players[i:i + 6] for i in range(0, 60, 6)])
    player = Player.objects.get(pk=players[8].pk)  # table 2, seat 3
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"/p/{player.pass_code}/")
    expect(page.locator(".me-table")).to_have_text("2")
    expect(page.locator(".me-pos")).to_have_text("3")
    expect(page.locator('li[data-round="1"]')).to_contain_text("Noch nicht gespielt")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    start = timezone.now() - dt.timedelta(hours=2)
    play(tables[1], {p: 1000 + 100 * i for i, p in enumerate(players[6:12])}, start=start)
    # seat 3 of 6 with the third-lowest cash: 4th place, confirmed
    expect(page.locator('li[data-round="1"]')).to_contain_text("4. Platz", timeout=12_000)
    expect(page.locator("dl.pub-stats")).to_be_visible()


def test_find_me_finds_an_umlaut_name_beyond_the_top(page, hall):
    tournament, players = hall
    _, tables = make_round(tournament, 1, [players[i:i + 6] for i in range(0, 60, 6)])
    start = timezone.now() - dt.timedelta(hours=2)
    # Erika Weiß loses at her table: far below the top 30 that the page opens with
    play(tables[0], {p: 1000 + 500 * i for i, p in enumerate(players[:6])}, start=start)
    for table, group in zip(tables[1:], [players[i:i + 6] for i in range(6, 60, 6)],
                            strict=True):
        play(table, {p: 3000 + 100 * i for i, p in enumerate(group)}, start=start)
    page.goto("/t/ka/")
    rows = page.locator("#standings table.pub-standings tbody tr[data-player]")
    expect(rows).to_have_count(30)
    expect(page.locator("#standings")).not_to_contain_text("Erika Weiß")
    page.fill("#find-q", "weiss")
    expect(page.locator("#find-results")).to_contain_text("Erika Weiß")
    page.fill("#find-q", "groesser")
    expect(page.locator("#find-results")).to_contain_text("Jörg Größer")
    page.click("[data-show-all]")
    expect(page.locator("#standings table.pub-standings tbody tr[data-player]")).to_have_count(60)


def test_a_hall_screen_switches_from_the_seating_list_to_the_clock(page, hall):
    tournament, players = hall
    round_, tables = make_round(tournament, 1, [players[i:i + 6] for i in range(0, 60, 6)],
                                status=Round.Status.LOCKED)
    screen = screens.add_screen(tournament=tournament, name="Eingang")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/t/ka/hall/{screen.key}/")
    view = page.locator("[data-hall-mode]")
    expect(view).to_have_attribute("data-hall-mode", "seating")
    expect(page.locator(".hall-names")).to_contain_text("Weiß, Erika")
    # the list turns its first page by itself
    page.wait_for_function(
        "() => document.querySelector('[data-autoscroll]').scrollTop > 0", timeout=12_000)
    tournament_services.start_round(round_=round_)  # the desk starts the round
    expect(view).to_have_attribute("data-hall-mode", "clock", timeout=8_000)
    play(tables[0], dict.fromkeys(players[:6], 1000), confirm=False,
         start=timezone.now() - dt.timedelta(minutes=1))
    expect(page.locator(".hall-tables li").first).to_have_class("state-ended", timeout=8_000)
    assert page.locator("script:not([src])").count() == 0  # nothing inline


#: WCAG 2.x contrast of the computed colours (rgb()/rgba() strings), in the page itself.
CONTRAST = """(el) => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const style = getComputedStyle(el);
  const page = getComputedStyle(document.body).backgroundColor;
  return {text: ratio(style.color, style.backgroundColor),
          edge: parseFloat(style.borderTopWidth) > 0 ? ratio(style.borderTopColor, page)
                                                     : ratio(style.backgroundColor, page),
          size: parseFloat(style.fontSize), title: el.title};
}"""


def test_the_hall_clocks_table_chips_are_large_and_readable_at_1080p(page, hall):
    """Issue 28: the clock screen's table chips were 1.6vw on grey, a confirmed table's chip
    nearly the page's own colour. At 1920 × 1080 every chip is at least 40 px, its number at
    least 4.5:1 on its colour (WCAG AA), its edge at least 3:1 against the page, and its title
    names the state in words."""
    tournament, players = hall
    round_, tables = make_round(tournament, 1, [players[i:i + 6] for i in range(0, 60, 6)])
    start = timezone.now() - dt.timedelta(minutes=30)
    play(tables[0], dict.fromkeys(players[:6], 1000), start=start)  # confirmed
    play(tables[1], dict.fromkeys(players[6:12], 1000), confirm=False, start=start)  # counted
    screen = screens.add_screen(tournament=tournament, name="Uhr")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/t/ka/hall/{screen.key}/")
    expect(page.locator("[data-hall-mode]")).to_have_attribute("data-hall-mode", "clock")
    chips = page.locator(".hall-tables li")
    expect(chips).to_have_count(10)
    expect(chips.first).to_have_class("state-confirmed")
    seen = set()
    for index in range(10):
        chip = chips.nth(index)
        measured = chip.evaluate(CONTRAST)
        seen.add(chip.get_attribute("class"))
        assert measured["size"] >= 40, measured
        assert measured["text"] >= 4.5, (chip.get_attribute("class"), measured)
        assert measured["edge"] >= 3, (chip.get_attribute("class"), measured)
        assert measured["title"] and not measured["title"].startswith("state"), measured
    for count in page.locator(".hall-counts .pub-state").all():
        assert count.evaluate(CONTRAST)["text"] >= 4.5
    assert {"state-confirmed", "state-ended"} <= seen, seen
