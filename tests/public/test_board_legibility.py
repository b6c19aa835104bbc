"""The table page's board reads well: a confirmed table is not called provisional, the leader's
name is fitted into the centre by its width (not its letter count), and white seat numbers and
the console's colour-group labels keep a contrast of 4.5:1."""

from __future__ import annotations

import re

import pytest
from factories import PlayerFactory
from gameplay import make_round, play

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


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


def test_the_leader_is_fitted_by_its_width_not_its_letter_count():
    from public.board import leader_squeezed

    assert not leader_squeezed("Anna Müller")
    assert not leader_squeezed("Maria-Theresia Schmidt")  # 22 narrow-ish letters: as is
    assert leader_squeezed("WOLFGANG MAXIMILIAN WAWRZYNIAK")  # 30 wide capitals
    assert leader_squeezed("MMMMMMMMMMMMMMMMMMMMMMMMM")  # 25 letters, 28 was the old limit
    assert leader_squeezed("Spielerin Mit Sehr Langem Namen 5")


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

    from public.board import PLAYER_COLOURS

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
