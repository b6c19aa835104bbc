"""Public pages, polished (issue 16): who has not played is not ranked by lot, dropped-out
players without results are hidden, a confirmed table is not "provisional", the board's leader
fits, the phone leaderboard says it scrolls."""

from __future__ import annotations

import re

import pytest
from factories import PlayerFactory, TournamentFactory

from tournament.models import Tournament

pytestmark = pytest.mark.django_db
from gameplay import make_round, play  # noqa: E402

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def tournament():
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


def test_a_confirmed_table_is_not_called_provisional(
    client, django_capture_on_commit_callbacks, tournament
):
    players = [PlayerFactory(tournament=tournament, name=f"Spielerin Mit Sehr Langem Namen {i}")
               for i in range(6)]
    _, tables = make_round(tournament, 1, [players])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players)})
    body = client.get("/t/ka/tables/1/", **DE).content.decode()
    assert "Das Ergebnis ist bestätigt" in body
    assert "Vorläufig, bis" not in body
    leader = re.search(r'<text class="c-leader"[^>]*>', body).group(0)
    assert 'textLength="480"' in leader  # a long name is fitted into the centre
    assert 'class="c-leader-label"' in body and "Gewinner" in body


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


def test_player_actions_name_the_player_and_the_select_has_a_label(client):
    from factories import OrganizerFactory

    tournament = TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)
    PlayerFactory(tournament=tournament, name="Jörg Weiß", checked_in=True)
    client.force_login(OrganizerFactory())
    body = client.get("/manage/cup/players/", **DE).content.decode()
    assert 'aria-label="Check-in von Jörg Weiß zurücknehmen"' in body
    assert re.search(r'<label class="visually-hidden" for="id_show">', body)
    desk = client.get("/manage/cup/check-in/", **DE).content.decode()
    assert 'aria-label="Check-in von Jörg Weiß zurücknehmen"' in desk


def _contrast(one: str, two: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
                   for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_white_seat_numbers_and_group_labels_keep_a_contrast_of_4_5():
    """The seat number is white on the player's colour (badges on the table page and the
    board): the amber was 3.0:1. The console's colour-group labels use their own ink."""
    from pathlib import Path

    from scoring.public.board import PLAYER_COLOURS

    assert _contrast("#ffffff", "#e07b00") < 3.1  # the walk-through's amber badge
    low = {c: round(_contrast("#ffffff", c), 2) for c in PLAYER_COLOURS
           if _contrast("#ffffff", c) < 4.5}
    assert low == {}
    css = (Path(__file__).resolve().parents[2] / "static/css/console.css").read_text()
    groups = re.findall(r"\.(g-[a-z]+) \{ --g: (#[0-9a-f]{3,6}); --gi: (#[0-9a-f]{3,6}); \}", css)
    assert len(groups) >= 10

    def full(colour):
        return colour if len(colour) == 7 else "#" + "".join(c * 2 for c in colour[1:])

    low = {name: round(_contrast(full(ink), full(bg)), 2) for name, bg, ink in groups
           if _contrast(full(ink), full(bg)) < 4.5}
    assert low == {}


def test_the_leader_is_fitted_by_its_width_not_its_letter_count():
    from scoring.public.board import leader_squeezed

    assert not leader_squeezed("Anna Müller")
    assert not leader_squeezed("Maria-Theresia Schmidt")  # 22 narrow-ish letters: as is
    assert leader_squeezed("WOLFGANG MAXIMILIAN WAWRZYNIAK")  # 30 wide capitals
    assert leader_squeezed("MMMMMMMMMMMMMMMMMMMMMMMMM")  # 25 letters, 28 was the old limit
    assert leader_squeezed("Spielerin Mit Sehr Langem Namen 5")
