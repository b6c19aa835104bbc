"""Issue 28, "Roles and landing": "My tables" (``/banker/``) lists the tables of the rounds still
on first and says where each table's game stands (not started, running, counted, confirmed); a
closed round's table comes last, marked "Round closed"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import finish_game, make_round, start_game

from referee import results as referee_results
from referee.results import revision_of
from tournament.models import Round, StaffRole, Tournament

pytestmark = pytest.mark.django_db


def _banked(banker, tournament, number, *, status=Round.Status.RUNNING):
    appoint(banker, StaffRole.Role.BANKER, tournament)
    people = [PlayerFactory(tournament=tournament) for _ in range(4)]
    _round, (table,) = make_round(tournament, number, [people], status=status)
    table.banker = banker
    table.save()
    return table


def _tournament(day: int) -> Tournament:
    return TournamentFactory(status=Tournament.Status.RUNNING, date=dt.date(2026, 11, day))


def test_my_tables_puts_the_rounds_still_on_first_each_with_its_state():
    banker = UserFactory(username="bank")
    cup = _tournament(20)
    closed = _banked(banker, cup, 1, status=Round.Status.COMPLETE)
    counted = _banked(banker, cup, 2)
    finish_game(counted)
    running = _banked(banker, _tournament(21), 1)
    start_game(running, ago=dt.timedelta(minutes=10))
    confirmed = _banked(banker, _tournament(22), 1)
    game = finish_game(confirmed)
    referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                   code=game.confirmation_code, by=None)
    waiting = _banked(banker, _tournament(23), 1, status=Round.Status.LOCKED)

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(banker)
    response = client.get("/banker/")
    rows = response.context["tables"]
    assert [row[0] for row in rows] == [waiting, confirmed, running, counted, closed]
    assert [row[1] for row in rows] == [
        "Not started", "Result confirmed", "Running", "Ended, awaiting confirmation · result counted",
        "Round closed",
    ]
    page = response.content.decode()
    assert page.index(f'data-table="{running.pk}"') < page.index(f'data-table="{closed.pk}"')
    for _table, label, _current in rows:
        assert label in page
