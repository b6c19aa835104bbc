"""Import refuses a result its game record contradicts; results from the paper sheet travel."""

from __future__ import annotations

import json

import pytest
from factories import PlayerFactory, TournamentFactory, UserFactory
from gameplay import make_round, play

from exchange import services as exchange
from referee import paper
from referee.models import GameResult
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament) for _ in range(8)]
    _round, tables = make_round(tournament, 1, [players[:4], players[4:]])
    play(tables[0], {p: 3000 - 400 * i for i, p in enumerate(players[:4])})
    return tournament, tables


def test_a_stored_result_that_its_record_contradicts_is_refused(played):
    tournament, _tables = played
    document = json.loads(exchange.export_json(tournament))
    table = next(t for t in document["rounds"][0]["tables"] if t["result"])
    first, second = table["result"]["placements"][:2]
    first["place"], second["place"] = second["place"], first["place"]
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_tournament(json.dumps(document).encode(), slug="ka-copy")
    assert "replayed" in refused.value.message_in("en")
    assert "Spielprotokoll" in refused.value.message_in("de")
    assert not Tournament.objects.filter(slug="ka-copy").exists()


def test_a_paper_result_survives_export_and_import(played):
    tournament, tables = played
    seats = list(tables[1].seats.order_by("position"))
    lines = [paper.PaperLine(player_id=s.player_id, net_worth=1000 * (i + 1))
             for i, s in enumerate(seats)]
    paper.enter_paper_result(table=tables[1], lines=lines, end_reason="time_limit",
                             ended_at=None, by=UserFactory())
    document = json.loads(exchange.export_json(tournament))
    copy = exchange.import_tournament(json.dumps(document).encode(), slug="ka-copy")
    result = GameResult.objects.get(game__table__round__tournament=copy, from_paper=True)
    assert sorted(result.placements.values_list("place", flat=True)) == [1, 2, 3, 4]


def test_penalties_and_the_audit_log_travel_with_the_export(played):
    from tournament import incidents

    tournament, tables = played
    player = tables[0].seats.first().player
    incidents.record_incident(player=player, level="deduction", points=3, note="Mietabsprache",
                              by=UserFactory(username="mrmonopoly"))
    document = json.loads(exchange.export_json(tournament))
    assert any(entry["action"] == "incident.record" and entry["reason"] == "Mietabsprache"
               and entry["actor"] == "mrmonopoly" for entry in document["audit"])
    copy = exchange.import_tournament(json.dumps(document).encode(), slug="ka-copy")
    assert incidents.deductions(copy) == {
        copy.players.get(name=player.name).pk: 3
    }
    # the round it belongs to travels too: the copy's "standings after round N" are the same
    assert copy.incidents.get().round_number == 1
