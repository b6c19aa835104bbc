"""One name per table state (walk of the demo): the round desk may say more than the public pages
and the hall screen ("Läuft · Auktionsstopp erledigt"), never another name for the same state
(it said "Gezählt, wartet auf Bestätigung" where the public said "Beendet, wartet auf
Bestätigung", and "Auktionsstopp erledigt" for a table the public showed as "Läuft")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import finish_game, make_round, start_game

from desk import views as desk_views
from public.selectors import public_state
from referee import results as referee_results
from referee import services as referee
from referee.models import Game
from referee.results import revision_of
from referee.selectors import STATE_LABELS as PUBLIC_LABELS
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_of_states():
    """Table 1 running, 2 after the auction stop, 3 ended and not counted, 4 counted,
    5 confirmed, 6 disputed, 7 not started."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="namen")
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i:02d}") for i in range(28)]
    _round, tables = make_round(tournament, 1, [players[i:i + 4] for i in range(0, 28, 4)])
    now = timezone.now()
    start_game(tables[0], ago=dt.timedelta(minutes=10), author=UserFactory(), now=now)
    game = start_game(tables[1], ago=dt.timedelta(minutes=50), now=now)
    referee.enforce_deadlines(game_id=game.pk, now=now - dt.timedelta(minutes=4))
    finish_game(tables[2], count=False, now=now)
    finish_game(tables[3], now=now)
    game = finish_game(tables[4], now=now)
    game.refresh_from_db()
    referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                   code=game.confirmation_code, by=None)
    game = finish_game(tables[5], now=now)
    referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                   note="Hypothek fehlt", by=None)
    return tournament


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_desk_names_each_state_as_the_public_pages_do(round_of_states, language):
    with translation.override(language):
        lines = desk_views.desk(round_of_states)["lines"]
        seen = set()
        for line in lines:
            game = Game.objects.filter(table=line.table).select_related("result").first()
            result = getattr(game, "result", None) if game else None
            public = str(PUBLIC_LABELS[public_state(game, result)])
            desk = str(line.state_label)
            assert desk == public or desk.startswith(public + " · "), (line.table.number, desk,
                                                                       public)
            seen.add(line.state)
    assert {"running", "ended", "counted", "confirmed", "disputed", "not_started"} <= seen
    assert seen & {"auction", "auction_stop"}


def test_the_demos_words_for_a_counted_table_and_one_after_the_auction_stop(round_of_states):
    with translation.override("de"):
        labels = {line.table.number: str(line.state_label)
                  for line in desk_views.desk(round_of_states)["lines"]}
    assert labels[4] == "Beendet, wartet auf Bestätigung · Ergebnis gezählt"
    assert labels[3] == "Beendet, wartet auf Bestätigung · Zählung steht aus"
    assert labels[2] in {"Läuft · Auktionsstopp erledigt", "Auktionsstopp: Versteigerungen"}


def test_the_result_page_names_the_state_as_the_desk_does(client, round_of_states):
    client.force_login(appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, round_of_states))
    game = Game.objects.get(table__round__tournament=round_of_states, table__number=4)
    html = client.get(f"/manage/{round_of_states.slug}/results/{game.pk}/",
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<strong>Beendet, wartet auf Bestätigung · Ergebnis gezählt</strong>" in html
