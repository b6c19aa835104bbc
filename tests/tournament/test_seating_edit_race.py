"""Two organizers saving the same seating at the same moment: one wins, one gets 409.

Needs PostgreSQL (row locks): ``select_for_update`` on the round makes the second save wait
for the first transaction, then see the raised version and refuse.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from factories import RoundFactory, SeatFactory, TableFactory, TournamentFactory, checked_in_players

from tournament import errors
from tournament.models import Round, Seat, Tournament
from tournament.rounds import services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_concurrent_saves_one_wins_the_other_is_refused():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    players = checked_in_players(tournament, 12)
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.SEATED)
    for number, members in ((1, players[:6]), (2, players[6:])):
        table = TableFactory(round=round_, number=number)
        for position, player in enumerate(members, start=1):
            SeatFactory(table=table, round=round_, player=player, position=position)

    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def save(a, b):
        try:
            barrier.wait(timeout=10)
            services.swap_players(round_=round_, a=a.pk, b=b.pk, version=0)
            outcomes.append("saved")
        except errors.StaleVersion:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=save, args=(players[0], players[6])),
        threading.Thread(target=save, args=(players[1], players[7])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["saved", "stale"]
    round_.refresh_from_db()
    assert round_.version == 1
    moved = Seat.objects.filter(round=round_, table__number=2, player__in=players[:2]).count()
    assert moved == 1  # exactly one of the two swaps happened
