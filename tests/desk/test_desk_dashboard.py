"""The organizer's round desk: every table's state, the alerts that need someone to walk over,
who may see it, and a query count that does not grow with the number of tables."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import finish_game, make_round, start_game

from desk import views as desk_views
from referee import results as referee_results
from referee import services as referee
from referee.models import Game
from referee.results import revision_of
from tournament.models import Tournament

# Until config/urls.py mounts the desk, the tests mount it themselves.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


# --------------------------------------------------------------------------- helpers


def seen(game, *, ago, author, now=None):
    """The banker posts something ``ago`` before now."""
    now = now or timezone.now()
    key = Game.objects.get(pk=game.pk).players[0]
    referee.post_event(game_id=game.pk, event={"type": "cash", "player": key, "amount": 1500},
                       author=author, now=now - ago)


def confirm(game):
    game.refresh_from_db()
    referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                   code=game.confirmation_code, by=None)


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")


@pytest.fixture
def hall(tournament):
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i:02d}") for i in range(48)]
    round_, tables = make_round(tournament, 1, [players[i:i + 6] for i in range(0, 48, 6)])
    return round_, tables


def cards(html: str) -> dict[int, str]:
    return {int(n): state for n, state in
            re.findall(r'data-table="(\d+)" data-state="([a-z_]+)"', html)}


def alerts(html: str) -> set[tuple[str, int]]:
    return {(kind, int(n)) for kind, n in
            re.findall(r'data-alert="([a-z_]+)" data-table="(\d+)"', html)}


# --------------------------------------------------------------------------- states and alerts


def test_every_table_state_and_the_alerts_that_need_attention(hall):
    round_, tables = hall
    banker = UserFactory(username="bank")
    now = timezone.now()
    # 1: not started
    # 2: running, banker seen 30 s ago
    game = start_game(tables[1], ago=dt.timedelta(minutes=10), author=banker, now=now)
    seen(game, ago=dt.timedelta(seconds=30), author=banker, now=now)
    # 3: after the auction stop, banker seen 5 minutes ago -> offline
    game = start_game(tables[2], ago=dt.timedelta(minutes=50), author=banker, now=now)
    referee.enforce_deadlines(game_id=game.pk, now=now - dt.timedelta(minutes=4))
    Game.objects.filter(pk=game.pk).update(banker_seen_at=now - dt.timedelta(minutes=5))
    # 4: ended at the time limit, nobody counted
    finish_game(tables[3], count=False, now=now)
    # 5: counted, awaiting confirmation
    finish_game(tables[4], now=now)
    # 6: confirmed
    confirm(finish_game(tables[5], now=now))
    # 7: disputed with the banker's note
    game = finish_game(tables[6], now=now)
    referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                   note="Spieler 40 sagt, die Hypothek fehlt", by=None)
    # 8: time is up on the clock, but the deadline was not recorded yet; banker never seen
    start_game(tables[7], ago=dt.timedelta(minutes=95), now=now)

    data = desk_views.desk(round_.tournament, now=now)
    states = {line.table.number: line.state for line in data["lines"]}
    assert states == {1: "not_started", 2: "running", 3: "auction", 4: "ended",
                      5: "counted", 6: "confirmed", 7: "disputed", 8: "running"}
    found = {(alert.kind, alert.table) for alert in data["alerts"]}
    assert found == {("banker_offline", 3), ("no_result", 4), ("disputed", 7),
                     ("time_up", 8), ("banker_offline", 8)}
    # the head referee's queue comes first, with the banker's note
    assert data["alerts"][0].kind == "disputed"
    assert data["alerts"][0].note == "Spieler 40 sagt, die Hypothek fehlt"
    offline = next(a for a in data["alerts"] if a.kind == "banker_offline" and a.table == 3)
    assert offline.minutes == 5
    assert data["missing"] == [1, 2, 3, 4, 5, 7, 8] and not data["closable"]
    clocks = {line.table.number: (line.running, line.seconds) for line in data["lines"]}
    assert clocks[1] == (False, None)
    assert clocks[2][0] is True and 595 <= clocks[2][1] <= 605
    assert clocks[4][0] is False and clocks[4][1] == pytest.approx(90 * 60)


def test_the_page_shows_states_alerts_and_clocks(organizer, hall):
    round_, tables = hall
    now = timezone.now()
    banker = UserFactory()
    game = start_game(tables[0], ago=dt.timedelta(minutes=12), author=banker, now=now)
    seen(game, ago=dt.timedelta(seconds=20), author=banker, now=now)
    game = finish_game(tables[1], now=now)
    referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                   note="Bank hat falsch gezählt", by=None)
    response = organizer.get("/manage/ka/desk/")
    assert response.status_code == 200
    html = response.content.decode()
    assert cards(html)[1] == "running" and cards(html)[2] == "disputed"
    assert cards(html)[3] == "not_started"
    assert alerts(html) == {("disputed", 2)}
    assert "Bank hat falsch gezählt" in html
    assert 'data-desk-clock' in html and 'data-running="1"' in html
    assert 'hx-trigger="every 5s' in html and "/manage/ka/desk/live/" in html
    # the close button is there but disabled, naming what is missing
    assert re.search(r'<button type="button" class="primary" disabled data-action="close-round"',
                     html)
    assert 'data-missing="1,2,3,4,5,6,7,8"' in html
    # the fragment the page polls
    live = organizer.get("/manage/ka/desk/live/", HTTP_HX_REQUEST="true")
    assert live.status_code == 200
    assert "<html" not in live.content.decode()
    assert cards(live.content.decode()) == cards(html)


def test_all_confirmed_shows_the_close_button(organizer, tournament):
    players = [PlayerFactory(tournament=tournament) for _ in range(12)]
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    for table in tables:
        confirm(finish_game(table))
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert "No table needs attention." in html
    assert re.search(r'<button type="submit" class="primary" data-action="close-round">', html)
    assert "/manage/ka/rounds/1/close/" in html


def test_no_round_yet(organizer, tournament):
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert "No round has been seated yet." in html


# --------------------------------------------------------------------------- who may see it


def test_anonymous_visitors_are_sent_to_the_login(client, hall):
    response = client.get("/manage/ka/desk/")
    assert response.status_code == 302 and "/login/" in response["Location"]
    live = client.get("/manage/ka/desk/live/", HTTP_HX_REQUEST="true")
    assert "/login/" in live["HX-Redirect"]


def test_a_banker_may_not_see_the_desk(client, hall):
    _, tables = hall
    banker = UserFactory(username="banker1")
    tables[0].banker = banker
    tables[0].save()
    client.force_login(banker)
    assert client.get("/manage/ka/desk/").status_code == 403
    assert client.get("/manage/ka/desk/live/").status_code == 403


def test_the_head_referee_sees_the_queue_but_cannot_close(client, hall):
    _, tables = hall
    referee_user = UserFactory(username="mrmonopoly")
    appoint(referee_user, "head_referee", tables[0].round.tournament)
    game = finish_game(tables[0])
    referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                   note="Streit um Miete", by=None)
    client.force_login(referee_user)
    response = client.get("/manage/ka/desk/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-form="resolve"' in html and "Streit um Miete" in html
    assert 'data-action="close-round"' not in html
    assert 'data-action="export"' not in html


# --------------------------------------------------------------------------- queries


@pytest.mark.parametrize("table_count", [2, 6])
def test_the_desk_costs_the_same_queries_for_2_or_6_tables(
    organizer, django_assert_num_queries, tournament, table_count
):
    players = [PlayerFactory(tournament=tournament) for _ in range(6 * table_count)]
    _, tables = make_round(
        tournament, 1, [players[i:i + 6] for i in range(0, 6 * table_count, 6)]
    )
    banker = UserFactory()
    for index, table in enumerate(tables):
        table.banker = banker if index == 0 else UserFactory()
        table.save()
        if index % 3 == 0:
            start_game(table, ago=dt.timedelta(minutes=5), author=banker)
        elif index % 3 == 1:
            game = finish_game(table)
            referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                           note="?", by=None)
    organizer.get("/manage/ka/desk/live/")  # session and caches warm
    # session, user, tournament (access), tournament, rounds, tables with games and results,
    # seats with players
    with django_assert_num_queries(7):
        response = organizer.get("/manage/ka/desk/live/")
    assert len(cards(response.content.decode())) == table_count
