"""``Game.copy``: a writer changes its copy while readers keep the original (issue 25)."""

from __future__ import annotations

from referee import rules

AT = "2026-11-28T14:00:00+00:00"


def _played() -> rules.Game:
    game = rules.Game(players=["a", "b", "c", "d"], ruleset="karlsruhe")
    game.apply({"type": "start", "at": AT})
    game.apply({"type": "deal", "player": "a", "deed": "turmstrasse", "at": AT})
    game.apply({"type": "pay", "from": "b", "to": "c", "amount": 120, "reason": "rent", "at": AT})
    return game


def test_a_copy_changes_without_changing_the_original():
    original = _played()
    before = original.state.snapshot()
    twin = original.copy()
    assert twin.state.snapshot() == before and twin.events == original.events
    twin.apply({"type": "pay", "from": "c", "to": "a", "amount": 50, "reason": "rent", "at": AT})
    twin.apply({"type": "bankrupt", "player": "d", "creditor": "bank", "at": AT})
    twin.apply({"type": "void", "event": 1, "reason": "typo", "at": AT})
    assert original.state.snapshot() == before
    assert len(original) == 3 and len(twin) == 6
    assert original.voided == frozenset() and twin.voided == {1}
    # The copy is the same game as a replay of its record.
    replayed = rules.parse_record(twin.to_record()).new_game()
    replayed.extend(twin.events)
    assert replayed.state.snapshot() == twin.state.snapshot()
