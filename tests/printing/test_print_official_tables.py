"""Issue 18: printed materials at tables of 4 and 5 (score sheet rows, table cards, seating)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from factories import checked_in_players
from pdfs import pages, plain, rendered, text

from printing import draw, scoresheet
from tournament import tournaments
from tournament.models import Seat, Tournament
from tournament.rounds import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def official_round():
    tournament = tournaments.create_tournament(
        name="Offizielles Turnier", slug="offiziell", date=dt.date(2026, 5, 1), preset="official"
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.REGISTRATION)
    tournament.refresh_from_db()
    checked_in_players(tournament, 22)
    round_ = services.create_round(tournament=tournament)
    services.seat_round(round_=round_, seed=1, seconds=0.5)
    return tournament, round_


def _names(round_, number: int) -> list[str]:
    return [seat.player.public_name for seat in Seat.objects.filter(
        round=round_, table__number=number).select_related("player__club").order_by("position")]


def test_score_sheets_have_a_row_per_player_at_tables_of_4_and_5(official_round):
    tournament, round_ = official_round
    pdf = rendered("scoresheets", tournament, round_, lang="en")
    assert pages(pdf) == 5
    sizes = []
    for number in range(1, 6):
        names = _names(round_, number)
        sizes.append(len(names))
        page = plain(text(pdf, number))
        for name in names:
            assert plain(name) in page
        # the seat numbers of the net-worth rows: 1..n and no row beyond
        top = draw.PAGE[1] - scoresheet._worth_top() + scoresheet.WORTH_HEAD
        seats = plain(text(pdf, number, crop=(int(draw.MARGIN), int(top), 30, 200)))
        assert re.findall(r"\d+", seats) == [str(i) for i in range(1, len(names) + 1)]
    assert sorted(sizes) == [4, 4, 4, 5, 5]


def test_table_cards_say_how_many_play_at_the_table(official_round):
    tournament, round_ = official_round
    pdf = rendered("cards", tournament, round_, lang="en")
    for number in range(1, 6):
        count = len(_names(round_, number))
        assert f"{count} players" in text(pdf, number)


def test_the_seating_list_shows_every_player_of_a_table_of_5(official_round):
    tournament, round_ = official_round
    pdf = plain(text(rendered("seating", tournament, round_, lang="en")))
    for number in range(1, 6):
        for name in _names(round_, number):
            assert plain(name) in pdf
