"""A table's public page names its round: a score sheet's QR code of round 1 opens round 1's
game after round 2 has started, and a past round's table stays reachable; the old address
without a round keeps showing the current round."""

from __future__ import annotations

import pytest
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play

from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def two_rounds():
    """Round 1 played and closed, round 2 running, round 3 seated (not started)."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in "ABCD"]
    first, [table] = make_round(tournament, 1, [people])
    play(table, {player: 3000 - 100 * index for index, player in enumerate(people)})
    first.status = Round.Status.COMPLETE
    first.save()
    make_round(tournament, 2, [people[::-1]])
    make_round(tournament, 3, [people], status=Round.Status.SEATED)
    return tournament


def _title(client, url: str) -> str:
    body = client.get(url, **EN).content.decode()
    return "Round 1" if "· Round 1" in body else "Round 2" if "· Round 2" in body else body


def test_each_rounds_table_has_its_own_address(client, two_rounds):
    assert _title(client, "/t/ka/rounds/1/tables/1/") == "Round 1"
    assert _title(client, "/t/ka/rounds/2/tables/1/") == "Round 2"
    assert _title(client, "/t/ka/live/rounds/1/tables/1") == "Round 1"  # what the page polls
    page = client.get("/t/ka/rounds/1/tables/1/").content.decode()
    assert "/t/ka/live/rounds/1/tables/1" in page


def test_the_address_without_a_round_keeps_showing_the_current_round(client, two_rounds):
    assert _title(client, "/t/ka/tables/1/") == "Round 2"


def test_a_round_not_started_or_unknown_is_not_public(client, two_rounds):
    assert client.get("/t/ka/rounds/3/tables/1/").status_code == 404  # seated, not started
    assert client.get("/t/ka/rounds/9/tables/1/").status_code == 404
    assert client.get("/t/ka/rounds/1/tables/9/").status_code == 404


def test_links_to_a_table_name_its_round(client, two_rounds):
    overview = client.get("/t/ka/tables/").content.decode()
    assert 'href="/t/ka/rounds/2/tables/1/"' in overview
    player = two_rounds.players.get(name="Spieler A")
    page = client.get(f"/t/ka/players/{player.pk}/").content.decode()
    assert 'href="/t/ka/rounds/1/tables/1/"' in page and 'href="/t/ka/rounds/2/tables/1/"' in page
