"""The data both fuzz tests aim at: real rows for generated ids and slugs to hit."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from django.utils import timezone
from factories import ClubFactory, OrganizerFactory, PlayerFactory, TournamentFactory
from gameplay import make_round, play

from referee import services as referee
from tournament.models import Round, Tournament
from tournament.rounds import services


def build_fuzz_world() -> SimpleNamespace:
    """A running tournament ``fuzz`` (table 1 playing, table 2 counted and awaiting
    confirmation) and ``fuzz-open`` in registration with a seated draft round 1 (so swap,
    move and lock can succeed); an organizer."""
    running = TournamentFactory(slug="fuzz", status=Tournament.Status.RUNNING, table_size=4)
    clubs = [ClubFactory(tournament=running, name=f"Fuzzclub {n}", short_name=f"FZ{n}")
             for n in range(3)]
    players = [
        PlayerFactory(tournament=running, name=f"Spieler {n}", club=clubs[n % 3])
        for n in range(8)
    ]
    round_, tables = make_round(running, 1, [players[:4], players[4:]])
    playing = referee.ensure_game(table=tables[0])
    referee.post_event(game_id=playing.pk, event={"type": "start"}, author=None,
                       now=timezone.now())
    counted = play(tables[1], {p: 1000 + 100 * n for n, p in enumerate(players[4:])},
                   confirm=False, start=timezone.now() - dt.timedelta(hours=2))

    open_ = TournamentFactory(slug="fuzz-open", status=Tournament.Status.REGISTRATION,
                              table_size=4)
    waiting = [PlayerFactory(tournament=open_, name=f"Gast {n}") for n in range(8)]
    draft = Round.objects.create(tournament=open_, number=1)
    services.seat_round(round_=draft, seed=7, seconds=0.2)

    organizer = OrganizerFactory(username="fuzz-organizer", password=None)  # no hashing
    return SimpleNamespace(
        running=running, open=open_, round=round_, draft=draft, tables=tables,
        players=players, waiting=waiting, playing=playing, counted=counted,
        organizer=organizer,
    )
