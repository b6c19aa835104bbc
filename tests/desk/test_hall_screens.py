"""Hall screens (issue 17): the desk adds screens and chooses what each shows; "automatic" is
the seating list (DIN 5007) before a round starts, the clock while it runs, the standings
between rounds; the screen polls with an ETag and follows a change."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint

from referee import services as referee
from scoring import screens
from scoring.models import HallScreen
from tournament.models import Round, StaffRole, Tournament
from tournament.rounds import services as tournament_services

pytestmark = pytest.mark.django_db
from gameplay import make_round, play  # noqa: E402

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
NAMES = ["Zora Zorn", "Ärger Anton", "Erika Weiß", "Paul Weiss", "Bernd Bäcker", "Anna Alt"]


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka", finalists=2)


@pytest.fixture
def seated(tournament, django_capture_on_commit_callbacks):
    players = [PlayerFactory(tournament=tournament, name=name) for name in NAMES]
    round_, tables = make_round(tournament, 1, [players], status=Round.Status.LOCKED)
    with django_capture_on_commit_callbacks(execute=True):
        screen = screens.add_screen(tournament=tournament, name="Eingang Nord")
    return round_, tables, screen


def test_the_desk_adds_a_screen_and_chooses_what_it_shows(tournament):
    desk = Client()
    desk.force_login(appoint(UserFactory(), StaffRole.Role.DESK, tournament))
    desk.post("/manage/ka/screens/", {"name": "Bühne"})
    screen = HallScreen.objects.get()
    assert screen.key.startswith("buhne-") and screen.mode == "auto"
    assert f"/t/ka/hall/{screen.key}/" in desk.get("/manage/ka/screens/").content.decode()
    desk.post(f"/manage/ka/screens/{screen.pk}/mode/", {"mode": "standings"})
    assert HallScreen.objects.get().mode == "standings"
    assert desk.post(f"/manage/ka/screens/{screen.pk}/mode/", {"mode": "party"}).status_code == 400
    banker = Client()
    banker.force_login(appoint(UserFactory(), StaffRole.Role.BANKER, tournament))
    assert banker.post(f"/manage/ka/screens/{screen.pk}/mode/", {"mode": "clock"}).status_code == 403
    assert banker.post("/manage/ka/screens/", {"name": "X"}).status_code == 403
    assert desk.post("/manage/ka/screens/", {"name": "   "}).status_code == 400
    assert desk.post("/manage/ka/screens/", {"name": "Nord\x00"}).status_code == 400  # NUL
    assert HallScreen.objects.count() == 1
    desk.post(f"/manage/ka/screens/{screen.pk}/remove/")
    assert not HallScreen.objects.exists()


def test_automatic_shows_the_seating_in_german_order_then_the_clock(
        client, seated, django_capture_on_commit_callbacks):
    round_, tables, screen = seated
    page = client.get(f"/t/ka/hall/{screen.key}/", **EN)
    body = page.content.decode()
    assert page.status_code == 200 and 'data-hall-mode="seating"' in body
    assert "<script>" not in body.replace('<script src=', '')  # no inline script
    order = re.findall(r'<span class="n">([^<]+)</span>', body)
    # by last name, DIN 5007: Ä with A, ß as ss (Weiss and Weiß together, before Zorn)
    assert order[:3] == ["Alt, Anna", "Anton, Ärger", "Bäcker, Bernd"]
    assert set(order[3:5]) == {"Weiß, Erika", "Weiss, Paul"} and order[5] == "Zorn, Zora"
    live = client.get(f"/t/ka/hall/{screen.key}/live", **EN)
    assert client.get(f"/t/ka/hall/{screen.key}/live", HTTP_IF_NONE_MATCH=live["ETag"],
                      **EN).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.start_round(round_=round_)
    changed = client.get(f"/t/ka/hall/{screen.key}/live", HTTP_IF_NONE_MATCH=live["ETag"], **EN)
    assert changed.status_code == 200 and 'data-hall-mode="clock"' in changed.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        game = referee.ensure_game(table=tables[0])
        referee.post_event(game_id=game.pk, event={"type": "start"}, author=None,
                           now=dt.datetime.now(dt.UTC))
    body = client.get(f"/t/ka/hall/{screen.key}/live", **EN).content.decode()
    deadlines = [int(x) for x in re.findall(r'data-deadline="(\d+)"', body)]
    assert len(deadlines) == 2 and deadlines[0] < deadlines[1]  # auction stop, then the limit
    assert "Running: 1" in body


def test_the_screen_follows_the_desk_and_shows_standings_with_the_line(
        client, seated, django_capture_on_commit_callbacks):
    round_, tables, screen = seated
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.start_round(round_=round_)
        play(tables[0], {p.player: 1000 * i for i, p in enumerate(tables[0].seats.all())})
    first = client.get(f"/t/ka/hall/{screen.key}/live", **EN)
    with django_capture_on_commit_callbacks(execute=True):
        screens.set_mode(screen=screen, mode="standings")
    body = client.get(f"/t/ka/hall/{screen.key}/live", HTTP_IF_NONE_MATCH=first["ETag"],
                      **EN).content.decode()
    assert 'data-hall-mode="standings"' in body and "qualified for the final (2 places)" in body
    assert client.get("/t/ka/hall/nowhere/", **EN).status_code == 404
