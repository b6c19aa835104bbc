"""The players' legal actions as the console shows them, kept per process by what the checks
read of the state (issue 29: ``legal_actions`` for six players was a fifth of the fragment's
build on every post, though a payment between players changes none of it without the ledger).
"""

from __future__ import annotations

from collections.abc import Hashable

from referee import rules
from referee.console.kept import Kept

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


def clear() -> None:
    _answers.clear()
