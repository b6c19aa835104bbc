"""The desk's alerts and their buttons: a table not started minutes after the round began is an
alert, a dispute says whose note it is, and each alert's button names its table."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import finish_game, make_round, start_game

from desk import views as desk
from referee import paper
from referee import results as referee_results
from referee.results import revision_of
from tournament.models import Round, Tournament

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def running():
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament) for _ in range(12)]
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    return tournament, round_, tables


def test_tables_not_started_after_the_round_began_are_alerted(running, client):
    tournament, round_, (one, two) = running
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(started_at=now - dt.timedelta(minutes=2))
    start_game(one, ago=dt.timedelta(minutes=1), now=now)
    def not_started(moment):
        return [(a.kind, a.table, a.minutes) for a in desk.desk(tournament, now=moment)["alerts"]
                if a.kind == "not_started"]

    assert not_started(now) == []  # two minutes is a normal start
    assert not_started(now + dt.timedelta(minutes=6)) == [("not_started", 2, 8)]
    client.force_login(OrganizerFactory())
    Round.objects.filter(pk=round_.pk).update(started_at=timezone.now() - dt.timedelta(minutes=9))
    page = client.get("/manage/ka/desk/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-alert="not_started" data-table="2"' in page
    assert "noch nicht begonnen" in page and "Kein Tisch braucht Aufmerksamkeit" not in page


def test_a_paper_result_clears_the_not_started_alert(running):
    """Issue 28: a table whose game never ran on a console but whose paper sheet was entered
    has a result; "not started" is no longer its alert (the count awaits confirmation)."""
    tournament, round_, (one, two) = running
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(started_at=now - dt.timedelta(minutes=30))
    start_game(one, ago=dt.timedelta(minutes=20), now=now)
    seats = list(two.seats.order_by("position").values_list("player_id", flat=True))
    lines = [paper.PaperLine(player_id=pid, net_worth=3000 - 100 * n)
             for n, pid in enumerate(seats)]

    def kinds(table_number):
        return [a.kind for a in desk.desk(tournament, now=now)["alerts"]
                if a.table == table_number]

    assert kinds(2) == ["not_started"]
    paper.enter_paper_result(table=two, lines=lines, end_reason="time_limit", ended_at=now,
                             by=OrganizerFactory())
    assert kinds(2) == []


def test_a_dispute_names_whose_note_it_is(running):
    tournament, _round, (one, two) = running
    banker, head = UserFactory(), UserFactory()
    appoint(head, "head_referee", tournament)
    one.banker = banker
    one.save()
    game_one, game_two = finish_game(one), finish_game(two)
    referee_results.dispute_result(game_id=game_one.pk, revision=revision_of(game_one.pk),
                                   note="Miete strittig", by=banker)
    referee_results.dispute_result(game_id=game_two.pk, revision=revision_of(game_two.pk),
                                   note="Zählung prüfen", by=head)
    from django.utils import translation

    with translation.override("de"):
        labels = {a.table: a.note_label for a in desk.desk(tournament)["alerts"]}
    assert labels == {1: "Notiz des Bankhalters", 2: "Notiz des Oberschiedsrichters"}


def test_the_desks_repeated_buttons_name_their_table(running, client):
    tournament, _round, (one, two) = running
    finish_game(one)  # counted: "confirm as head referee"
    start_game(two, ago=dt.timedelta(minutes=3))  # running: "give extra minutes"
    client.force_login(OrganizerFactory())
    page = client.get("/manage/ka/desk/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ('aria-label="Als Oberschiedsrichter bestätigen – Tisch 1">'
            "Als Oberschiedsrichter bestätigen</button>") in page
    assert re.search(r'<button [^>]*data-stop-moves aria-label="[^"]+ – Tisch 2">', page)


def test_extra_minutes_say_that_the_auction_stop_moves_too(running, client):
    """Issue 28: extra minutes move the auction stop while it is still ahead
    (``referee.rulings.extra_time``); the button says so, and says nothing of it once the stop
    is declared."""
    from referee.models import Game

    tournament, _round, (one, two) = running
    start_game(one, ago=dt.timedelta(minutes=3))
    client.force_login(OrganizerFactory())

    def button():
        page = client.get("/manage/ka/desk/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        form = re.search(r'data-form="extra-time">.*?</form>', page, re.S).group(0)
        return re.search(r"<button[^>]*>(.*?)</button>", form, re.S).group(1)

    assert button() == "Give extra minutes (the auction stop moves too)"
    Game.objects.filter(table=one).update(auction_stop_done=True)
    assert button() == "Give extra minutes"
