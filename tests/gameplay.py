"""Test helpers that play whole games through the referee services, fast."""

from __future__ import annotations

import datetime as dt

from factories import RoundFactory, TableFactory

from referee import services as referee
from tournament.models import Round, Seat

T0 = dt.datetime(2026, 11, 28, 14, 0, tzinfo=dt.UTC)


def make_round(tournament, number, groups, *, kind=Round.Kind.PRELIMINARY):
    """A running round whose tables seat ``groups`` (lists of players) in turn order."""
    round_ = RoundFactory(tournament=tournament, number=number, status=Round.Status.RUNNING,
                          kind=kind)
    tables = []
    for table_number, players in enumerate(groups, start=1):
        table = TableFactory(round=round_, number=table_number)
        for position, player in enumerate(players, start=1):
            Seat.objects.create(round=round_, table=table, player=player, position=position)
        tables.append(table)
    return round_, tables


def play(table, cash_by_player, *, confirm=True, start=T0):
    """A game that ends at the time limit with the given counted cash (confirmed by default)."""
    game = referee.ensure_game(table=table)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=start)
    for player, cash in cash_by_player.items():
        referee.post_event(
            game_id=game.pk, event={"type": "cash", "player": str(player.pk), "amount": cash},
            author=None, now=start + dt.timedelta(minutes=10),
        )
    referee.enforce_deadlines(game_id=game.pk, now=start + dt.timedelta(minutes=91))
    referee.count_result(game_id=game.pk, author=None)
    if confirm:
        game.refresh_from_db()
        referee.confirm_result(game_id=game.pk, code=game.confirmation_code, by=None)
    return game
