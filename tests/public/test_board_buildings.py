"""The public board's buildings never look like a seat: the walk saw the legend's red hotel and
green house in the colours of seats 1 and 3. Buildings are black (no seat is) with a roof, on the
board and in the legend alike."""

from __future__ import annotations

import re
from pathlib import Path

from django.template.loader import render_to_string

from public.board import PLAYER_COLOURS, board_geometry, board_view
from referee import rules

ROOT = Path(__file__).resolve().parents[2]
CSS = (ROOT / "static/css/public.css").read_text()


def _rgb(colour: str) -> tuple[int, ...]:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    return tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))


def _grey(colour: str) -> bool:
    """Black, grey or white: no hue that a seat's colour could have."""
    rgb = _rgb(colour)
    return max(rgb) - min(rgb) <= 24


def test_every_seat_has_a_hue():
    swatches = re.findall(r"\.swatch\.seat-\d+ \{ background: (#[0-9a-f]+); \}", CSS)
    assert len(swatches) == len(PLAYER_COLOURS)
    assert not [c for c in (*PLAYER_COLOURS, *swatches) if _grey(c)]


def test_buildings_on_the_board_use_no_seat_colour():
    board = rules.get_board("classic-de")
    streets = [sq.key for sq in board.squares if sq.kind == "street"]
    deeds = [{"key": streets[0], "owner": "1", "houses": 3},
             {"key": streets[1], "owner": "3", "hotel": True}]
    seats = {"1": {"seat": 1, "colour": PLAYER_COLOURS[0], "name": "A"},
             "3": {"seat": 3, "colour": PLAYER_COLOURS[2], "name": "C"}}
    svg = render_to_string("public/_board.html", {
        "squares": board_view(board, deeds, seats), "table": {"number": 1}, **board_geometry()})
    fills = re.findall(r'class="(house|hotel)"[^>]*fill="(#[0-9a-fA-F]+)"', svg)
    assert sorted(kind for kind, _ in fills) == ["hotel", "house", "house", "house"]
    assert all(_grey(fill) for _, fill in fills), fills


def test_the_legend_keys_use_no_seat_colour():
    keys = re.findall(r"\.key-(?:house|hotel)[^{]*\{[^}]*background: (#[0-9a-fA-F]+)", CSS)
    assert keys and all(_grey(colour) for colour in keys), keys
