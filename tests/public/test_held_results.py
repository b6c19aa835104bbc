"""Issue 15: with results held until the round closes, nothing public shows places, net worth
or standings of the round — not the table's page, the tables overview, the projector, the
state API, the record, the player's page (no net worth chart); and the tables of a seated round
that has not started are not public."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from factories import PlayerFactory, TournamentFactory
from gameplay import held_results_round, make_round, play

from desk.rounds import close_round
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db

CASH = [4321, 3210, 2109, 1098]


@pytest.fixture
def held():
    return held_results_round(CASH)  # ended, counted, confirmed


def _leaks(text: str) -> list[str]:
    """The figures as whole numbers: a time stamp's "…:14.321…" is not a net worth."""
    figures = [f"{c:,}".replace(",", ".") for c in CASH] + [str(c) for c in CASH]
    return [figure for figure in figures
            if re.search(rf"(?<![\d.,]){re.escape(figure)}(?![\d]|[.,]\d)", text)]


def test_state_api_shows_no_places_or_worth_while_held(held):
    round_, table = held
    body = Client().get(f"/api/v1/tables/{table.pk}/state").json()
    assert body["results_held"] is True
    assert body["standings"] == []
    assert all(p["net_worth"] is None and "cash" not in p for p in body["players"])
    assert not _leaks(str(body))
    close_round(round_=round_)
    body = Client().get(f"/api/v1/tables/{table.pk}/state").json()
    assert body["results_held"] is False
    assert [row["place"] for row in body["standings"]] == [1, 2, 3, 4]


def test_record_is_not_public_while_held(held):
    round_, table = held
    answer = Client().get(f"/api/v1/tables/{table.pk}/record")
    assert answer.status_code == 403
    assert answer.json()["code"] == "results_held"
    close_round(round_=round_)
    assert Client().get(f"/api/v1/tables/{table.pk}/record").status_code == 200


@pytest.mark.parametrize("path", ["/t/held/tables/1/", "/t/held/live/tables/1",
                                  "/t/held/tables/", "/t/held/live/tables",
                                  "/t/held/screen", "/t/held/live/screen/tables",
                                  "/api/v1/tournaments/held/tables"])
def test_public_pages_show_no_places_or_worth_while_held(held, path):
    round_, _table = held
    text = Client().get(path).content.decode()
    assert not _leaks(text), (path, _leaks(text))
    assert ". Platz" not in text and "Gewinner" not in text
    close_round(round_=round_)
    if "tables/1" in path:
        assert _leaks(Client().get(path).content.decode())  # published with the close


def test_tables_of_a_seated_round_are_not_public():
    tournament = TournamentFactory(slug="seated", status=Tournament.Status.RUNNING,
                                   table_size=4)
    players = [PlayerFactory(tournament=tournament, name=f"Gast {n}") for n in range(4)]
    _round, tables = make_round(tournament, 1, [players], status=Round.Status.SEATED)
    anonymous = Client()
    assert anonymous.get(f"/api/v1/tables/{tables[0].pk}/state").status_code == 404
    assert anonymous.get(f"/api/v1/tables/{tables[0].pk}/record").status_code == 404
    assert anonymous.get("/t/seated/tables/1/").status_code == 404
    overview = anonymous.get("/api/v1/tournaments/seated/tables").json()
    assert overview["tables"] == []
    assert "Gast 0" not in anonymous.get("/t/seated/tables/").content.decode()


def test_held_results_hide_the_net_worth_chart_on_the_players_page():
    tournament = TournamentFactory(slug="gehalten", status=Tournament.Status.RUNNING,
                                   table_size=4, results_public_immediately=False)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(4)]
    round_, tables = make_round(tournament, 1, [people])
    play(tables[0], dict(zip(people, [4939, 3210, 2109, 1098], strict=True)))
    page = Client().get(f"/t/gehalten/players/{people[0].pk}/").content.decode()
    assert "pub-chart" not in page and "<polyline" not in page
    for figure in ("4.939", "4939", "4,939"):
        assert figure not in page, figure
    me = Client().get(f"/p/{people[0].pass_code}/").content.decode()
    assert "4.939" not in me and "4939" not in me
    from desk.rounds import close_round

    close_round(round_=round_)
    page = Client().get(f"/t/gehalten/players/{people[0].pk}/").content.decode()
    assert "pub-chart" in page and "4.939" in page  # published with the close
