"""Issue 24, finding 6: changing the time limit mid-round showed "3 min / 1 min" on the
tournament page and "5:06 / 3:00" on the desk while the running games kept 45/90. A change
applies to games that begin later (the settings and the tournament page say so) and the desk
shows each game's own auction stop and time limit."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from factories import OrganizerFactory, PlayerFactory, TournamentFactory
from gameplay import make_round

from referee import services as referee
from referee.models import Game
from tournament.forms import TournamentForm
from tournament.models import Table, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def world(client):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka",
                                   time_limit_minutes=90, auction_stop_minutes=45)
    players = [PlayerFactory(tournament=tournament) for _ in range(12)]
    _round, tables = make_round(tournament, 1, [players[:6], players[6:]],
                                started_at=timezone.now() - dt.timedelta(minutes=6))
    running = referee.ensure_game(table=tables[0])
    referee.post_event(game_id=running.pk, event={"type": "start"}, author=None,
                       now=timezone.now() - dt.timedelta(minutes=5))
    waiting = referee.ensure_game(table=tables[1])  # the console was opened, not started
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    return tournament, tables, Game.objects.get(pk=running.pk), waiting


def _settings_post(tournament, **changes):
    form = TournamentForm(tournament=tournament)
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if field.disabled or value in (None, False):
            continue
        data[name] = "on" if value is True else value
    data.update(changes)
    return data


def test_a_time_change_mid_round_applies_to_games_that_begin_later(client, world):
    tournament, tables, running, waiting = world
    settings = client.get("/manage/ka/settings/").content.decode()
    assert 'data-note="time-applies"' in settings and "apply to games that begin later" in settings
    saved = client.post("/manage/ka/settings/",
                        _settings_post(tournament, time_limit_minutes="3",
                                       auction_stop_minutes="1"), follow=True)
    html = saved.content.decode()
    assert saved.status_code == 200, html
    tournament.refresh_from_db()
    assert tournament.time_limit_minutes == 3
    assert "the games already running keep the times they started with" in html
    assert 'data-note="time-applies"' in html  # the tournament page says it too

    # the desk: the running game's own limit and auction stop, not the new setting
    desk = client.get("/manage/ka/desk/").content.decode()
    card = desk.split('data-table="1" data-state=')[1].split("</section>")[0]
    assert 'data-time-limit="5400"' in card and "/ 90:00" in card
    assert 'data-auction-stop="2700"' in card
    assert 'data-limit="5400"' in card and "3:00" not in card
    running.refresh_from_db()
    assert running.time_up_due == running.started_at + dt.timedelta(minutes=90)

    # the game not begun yet takes the new times with its first event
    referee.post_event(table=Table.objects.select_related("round__tournament").get(
        pk=tables[1].pk), event={"type": "start"}, author=None)
    waiting.refresh_from_db()
    assert waiting.time_up_due == waiting.started_at + dt.timedelta(minutes=3)
    desk = client.get("/manage/ka/desk/").content.decode()
    card = desk.split('data-table="2" data-state=')[1].split("</section>")[0]
    assert 'data-time-limit="180"' in card and 'data-auction-stop="60"' in card
