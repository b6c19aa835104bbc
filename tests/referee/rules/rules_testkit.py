"""Helpers for the rules-engine tests: build games quickly, assert acceptance and refusal.

``refused`` also proves the engine's promise that a refused event changes nothing, and that
``check`` (the console's dry run) agrees with ``apply``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.rules import Game, RuleViolation

EXAMPLES = Path(__file__).resolve().parent / "examples"
PLAYERS = ("anna", "ben", "carla", "dieter")
ALL_RULESETS = ("karlsruhe", "classic", "short-game", "time-limit", "castle-short", "classic-dm")


def new_game(
    ruleset: Any = "karlsruhe",
    *events: dict[str, Any],
    players: tuple[str, ...] = PLAYERS,
    ledger: bool = False,
    board: Any = None,
    start: bool = True,
) -> Game:
    """A game, started (unless ``start=False``), with ``events`` applied."""
    game = Game(ruleset=ruleset, board=board, players=players, ledger=ledger)
    if start:
        game.apply({"type": "start"})
    for event in events:
        game.apply(event)
    return game


def ok(game: Game, event: dict[str, Any]) -> Game:
    """Apply an event that must be accepted (``check`` must accept it too)."""
    game.check(event)
    game.apply(event)
    return game


def refused(game: Game, event: Any, code: str) -> RuleViolation:
    """Assert the event is refused with ``code`` by check and apply, and changes nothing."""
    before = game.state.snapshot()
    length = len(game)
    with pytest.raises(RuleViolation) as checked:
        game.check(event)
    assert checked.value.code == code, checked.value.message_en
    with pytest.raises(RuleViolation) as applied:
        game.apply(event)
    exc = applied.value
    assert exc.code == code, exc.message_en
    assert exc.index == length
    assert game.state.snapshot() == before
    assert len(game) == length
    # Both languages render without missing parameters.
    assert exc.message_de and exc.message_en
    return exc


def buy(player: str, *deeds: str) -> list[dict[str, Any]]:
    return [{"type": "buy", "player": player, "deed": d} for d in deeds]


def build(*deeds: str) -> list[dict[str, Any]]:
    return [{"type": "build", "deed": d} for d in deeds]


def at(minutes: float, *, hour: int = 14) -> str:
    """An ISO time ``minutes`` after 14:00 on the championship day (CET)."""
    total = int(minutes * 60)
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"2026-11-28T{hour + h:02d}:{m:02d}:{s:02d}+01:00"
