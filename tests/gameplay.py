"""Test helpers that play whole games through the referee services, fast: the one place that
seats a round and plays a table's game (import these; do not copy them into a test module)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from factories import PlayerFactory, RoundFactory, TableFactory, UserFactory, seated_table

from referee import results as referee_results
from referee import services as referee
from referee.models import Game
from referee.results import revision_of
from tournament.models import Round, Seat

T0 = dt.datetime(2026, 11, 28, 14, 0, tzinfo=dt.UTC)


def at(minutes: float) -> dt.datetime:
    """``minutes`` after T0 (a test's clock)."""
    return T0 + dt.timedelta(minutes=minutes)


def minutes_ago(minutes: int) -> dt.datetime:
    return timezone.now() - dt.timedelta(minutes=minutes)


def started_game(*, start=T0):
    """A seated table's game (a banker of its own), started by the server at ``start``."""
    table = seated_table(banker=UserFactory())
    game = referee.ensure_game(table=table)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=start)
    return Game.objects.get(pk=game.pk)


def make_round(
    tournament, number, groups, *, kind=Round.Kind.PRELIMINARY, status=Round.Status.RUNNING,
    started_at=None,
):
    """A round (running by default) whose tables seat ``groups`` (lists of players) in turn
    order."""
    round_ = RoundFactory(tournament=tournament, number=number, status=status, kind=kind,
                          started_at=started_at)
    tables = []
    for table_number, players in enumerate(groups, start=1):
        table = TableFactory(round=round_, number=table_number)
        for position, player in enumerate(players, start=1):
            Seat.objects.create(round=round_, table=table, player=player, position=position)
        tables.append(table)
    return round_, tables


def twelve_at_two_tables(tournament):
    """Twelve players ("Spieler 0" to "Spieler 11") and round 1 (running) seating them at two
    tables of six: (players, tables)."""
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(12)]
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    return players, tables


def seating_layout(round_: Round) -> list[list[int]]:
    """The round's seating as stored: player ids per table, tables and seats in order."""
    tables: dict[int, list[int]] = {}
    for number, player_id in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables.setdefault(number, []).append(player_id)
    return [tables[n] for n in sorted(tables)]


def play(table, cash_by_player, *, confirm=True, start=T0, author=None, bankrupt=None):
    """A game that ends at the time limit with the given counted cash (confirmed by default).

    ``bankrupt=(loser, creditor)`` bankrupts one player before the end; ``author`` is who posts
    every event (the table's banker, say). Returns the game as stored."""
    game = referee.ensure_game(table=table)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=author, now=start)
    for player, cash in cash_by_player.items():
        referee.post_event(
            game_id=game.pk, event={"type": "cash", "player": str(player.pk), "amount": cash},
            author=author, now=start + dt.timedelta(minutes=10),
        )
    if bankrupt:
        loser, creditor = bankrupt
        referee.post_event(
            game_id=game.pk,
            event={"type": "bankrupt", "player": str(loser.pk), "creditor": str(creditor.pk)},
            author=author, now=start + dt.timedelta(minutes=11),
        )
    referee.enforce_deadlines(game_id=game.pk, now=start + dt.timedelta(minutes=91))
    referee_results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=author)
    if confirm:
        game.refresh_from_db()
        referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                       code=game.confirmation_code, by=None)
    return Game.objects.get(pk=game.pk)


def cash_by_seat(table, *, top=2000, step=100):
    """Counted cash falling with the seat: seat 1 has ``top``, each next one ``step`` less."""
    return {seat.player: top - step * seat.position for seat in table.seats.all()}


def finish_recent(table, *, step=100, confirm=True):
    """The table's game as its banker ran it: started 100 minutes ago, ended at the time limit,
    the player in seat i counted 1000 + step × i."""
    seated = [seat.player for seat in table.seats.order_by("position")]
    cash = {player: 1000 + step * index for index, player in enumerate(seated)}
    return play(table, cash, confirm=confirm, start=minutes_ago(100), author=table.banker)


def start_game(table, *, ago, author=None, now=None):
    """The table's game, started ``ago`` before now by ``author`` (the server by default)."""
    now = now or timezone.now()
    game = referee.ensure_game(table=table)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=author, now=now - ago)
    return game


def finish_game(table, *, author=None, count=True, now=None):
    """A game started 100 minutes ago, ended by the time limit; counted if ``count``."""
    now = now or timezone.now()
    game = start_game(table, ago=dt.timedelta(minutes=100), author=author, now=now)
    referee.enforce_deadlines(game_id=game.pk, now=now - dt.timedelta(minutes=5))
    if count:
        referee_results.count_result(game_id=game.pk, revision=revision_of(game.pk),
                                     author=author, now=now)
    return Game.objects.get(pk=game.pk)


def started_table(tournament, people, *, banker=None):
    """Round 1 seating ``people`` at one table (banked by ``banker``), its game started by the
    server at T0: the round, the table and the game."""
    round_, tables = make_round(tournament, 1, [people])
    table = tables[0]
    if banker is not None:
        table.banker = banker
        table.save()
    game = referee.ensure_game(table=table)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    return round_, table, game


def post_after(game, event, minutes):
    """``event`` posted by the server ``minutes`` after T0."""
    referee.post_event(game_id=game.pk, event=event, author=None, now=at(minutes))


def held_results_round(cash: list[int]):
    """A running tournament of four that holds its results until the round closes, its one
    table's game ended, counted and confirmed with ``cash`` by seat; (round, table)."""
    from factories import PlayerFactory, TournamentFactory

    from tournament.models import Tournament

    tournament = TournamentFactory(slug="held", status=Tournament.Status.RUNNING, table_size=4,
                                   results_public_immediately=False)
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {n}",
                             public_name_consent=True) for n in range(4)]
    round_, tables = make_round(tournament, 1, [players])
    play(tables[0], dict(zip(players, cash, strict=True)))
    return round_, tables[0]


def linked_game(client, banker, *, start=T0):
    """A banker's phone (``client``) that opened the table's private link, the game started
    at ``start``; (table, game)."""
    from consoles import open_link

    table = seated_table(banker=banker)
    open_link(client, table)
    game = referee.ensure_game(table=table)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=start)
    return table, game
