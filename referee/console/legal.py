"""The players' legal actions as the console shows them, kept per process by what the checks
read of the state (issue 29: ``legal_actions`` for six players was a fifth of the fragment's
build on every post, though a payment between players changes none of it without the ledger).
"""

from __future__ import annotations

from collections.abc import Hashable

from config.kept import Kept
from referee import rules
from referee.console import reasons
from referee.words import Names, Refusal

#: Answers kept per process: (the state as the checks read it, the player) → the answer.
LEGAL_KEPT = 4096
_answers: Kept[tuple[object, object, dict[str, list[str]]]] = Kept(size=LEGAL_KEPT)


def legal_actions(state: rules.GameState, player: str, *,
                  reads: Hashable | None = None) -> dict[str, list[str]]:
    """``rules.legal_actions(state, player)``, kept by ``rules.checks_read(state)`` (``reads``
    when the caller has it: the same for every player of one state). A new dictionary of new
    lists each time: the caller may change it."""
    key = (rules.checks_read(state) if reads is None else reads, player)
    # the board and the ruleset kept with the answer: their ids in the key are not reused
    _board, _ruleset, answer = _answers.get(
        key=key, make=lambda: (state.board, state.rules, rules.legal_actions(state, player)))
    return {action: list(deeds) for action, deeds in answer.items()}


#: Why the explained actions are refused, kept by the same key and the players' names.
_refusals: Kept[tuple[object, object, list[dict]]] = Kept(size=LEGAL_KEPT)


def unavailable(state: rules.GameState, player: str, actions: dict[str, list[str]],
                names: Names, *, reads: Hashable) -> list[dict]:
    """``reasons.unavailable`` with the console's refusals (players named), kept by ``reads``
    (``rules.checks_read(state)``: ``actions`` is the legal actions of that state), the
    player and the players' names. New dictionaries each time."""
    key = (reads, player, tuple(names.players.items()))
    _board, _ruleset, answer = _refusals.get(key=key, make=lambda: (
        state.board, state.rules, reasons.unavailable(
            state, player, actions, lambda violation: Refusal.of(violation, names))))
    return [dict(item) for item in answer]


def clear() -> None:
    _answers.clear()
    _refusals.clear()
