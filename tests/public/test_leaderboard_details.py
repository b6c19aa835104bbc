"""The leaderboard's details: who has not played yet is said so instead of ranked by lot,
dropped-out players without results are hidden (page, player page, "find me"), and the phone
leaderboard says it scrolls sideways."""

from __future__ import annotations

import re

import pytest
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play, twelve_at_two_tables

from tournament.models import Tournament

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def tournament():
    """The tie-breaks end in the lot at once: a player without results must be said so, not
    ranked by lot."""
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka", finalists=6,
                             tie_breaks=["points", "net_worth_sum", "lot"])


def test_mid_round_standings_say_not_played_yet_instead_of_drawing_lots(
    client, django_capture_on_commit_callbacks, tournament
):
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(18)]
    _, tables = make_round(tournament, 1, [players[:6], players[6:12], players[12:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], dict.fromkeys(players[6:12], 2000), confirm=False)
    body = client.get("/t/ka/live/standings", **DE).content.decode()
    assert body.count(">noch nicht gespielt<") == 6  # table 3 has not played
    assert body.count(">noch nicht bestätigt<") == 6  # table 2 counted, not confirmed
    assert "Los" not in body and 'title="Los"' not in body
    places = re.findall(r'<td class="num place">(\d+)\.', body)
    assert places == ["1", "2", "3", "4", "5", "6"]
    screen = client.get("/t/ka/screen", **DE).content.decode()
    assert "entschieden durch" not in screen or "Los" not in screen
    assert "noch nicht gespielt" in screen


def test_dropped_out_players_are_hidden_unless_they_have_results(
    client, django_capture_on_commit_callbacks, tournament
):
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(6)]
    mistake = PlayerFactory(tournament=tournament, name="Irrtum Importiert", dropped_out=True)
    _, tables = make_round(tournament, 1, [players])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players)})
    players[0].dropped_out = True
    players[0].save()
    from scoring.standings import services

    with django_capture_on_commit_callbacks(execute=True):
        services.recompute_standings(tournament_id=tournament.pk)
    body = client.get("/t/ka/live/standings", **DE).content.decode()
    assert f'data-player="{mistake.pk}"' not in body
    assert f'data-player="{players[0].pk}"' in body  # played: stays, marked
    # nor a page of their own, nor a "find me" hit
    assert client.get(f"/t/ka/players/{mistake.pk}/").status_code == 404
    assert client.get(f"/t/ka/players/{players[0].pk}/").status_code == 200
    found = client.get("/t/ka/live/find", {"q": "Irrtum"}).content.decode()
    assert f'data-player="{mistake.pk}"' not in found
    found = client.get("/t/ka/live/find", {"q": "Spieler 0"}).content.decode()
    assert f'data-player="{players[0].pk}"' in found


def test_phone_leaderboard_says_it_scrolls_and_the_region_is_focusable(
    client, django_capture_on_commit_callbacks, tournament
):
    players = [PlayerFactory(tournament=tournament) for _ in range(6)]
    _, tables = make_round(tournament, 1, [players])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players)})
    body = client.get("/t/ka/", **DE).content.decode()
    assert "Zur Seite wischen für weitere Spalten" in body
    assert re.search(r'<div class="pub-scroll" tabindex="0" role="region" aria-label="[^"]+">',
                     body)


def test_a_place_and_its_tie_break_mark_read_apart(
    client, django_capture_on_commit_callbacks, tournament
):
    """Issue 28: two table winners tie on points and the net-worth sum decides: the second's
    place read "2.2" (the place, then the chain's number 2 in a bare superscript). The mark is
    circled and set apart; a screen reader hears which rule decided."""
    players, tables = twelve_at_two_tables(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 3000 - 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 2500 - 100 * i for i, p in enumerate(players[6:])})
    for path in ("/t/ka/live/standings", "/t/ka/screen"):
        body = client.get(path, **DE).content.decode()
        cells = re.findall(r'<td class="num place">(.*?)</td>', body, re.S)
        cell = cells[1]
        spoken = re.search(r'title="([^"]+)".*?<span class="sr-only">(.*?)</span>', cell, re.S)
        assert spoken and spoken.group(1) in spoken.group(2), (path, cell)  # the rule, in words
        visible = re.sub(r"<[^>]+>", "", re.sub(r'<span class="sr-only">.*?</span>', "", cell))
        assert visible == "2. ②", (path, cell)
