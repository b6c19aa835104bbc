"""The desk, polished (issue 16): tables not started minutes after the round began are an alert,
and a dispute says whose note it is."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint

from referee import services as referee
from scoring.desk import views as desk
from tests.scoring.test_desk_dashboard import finish, make_round, start
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
    start(one, ago=dt.timedelta(minutes=1), now=now)
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


def test_a_dispute_names_whose_note_it_is(running):
    tournament, _round, (one, two) = running
    banker, head = UserFactory(), UserFactory()
    appoint(head, "head_referee", tournament)
    one.banker = banker
    one.save()
    game_one, game_two = finish(one), finish(two)
    referee.dispute_result(game_id=game_one.pk, note="Miete strittig", by=banker)
    referee.dispute_result(game_id=game_two.pk, note="Zählung prüfen", by=head)
    from django.utils import translation

    with translation.override("de"):
        labels = {a.table: a.note_label for a in desk.desk(tournament)["alerts"]}
    assert labels == {1: "Notiz des Bankhalters", 2: "Notiz des Oberschiedsrichters"}


def test_the_desks_repeated_buttons_name_their_table(running, client):
    tournament, _round, (one, two) = running
    finish(one)  # counted: "confirm as head referee"
    start(two, ago=dt.timedelta(minutes=3))  # running: "give extra minutes"
    client.force_login(OrganizerFactory())
    page = client.get("/manage/ka/desk/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ('aria-label="Als Oberschiedsrichter bestätigen – Tisch 1">'
            "Als Oberschiedsrichter bestätigen</button>") in page
    assert 'aria-label="Zusatzminuten geben – Tisch 2">Zusatzminuten geben</button>' in page
