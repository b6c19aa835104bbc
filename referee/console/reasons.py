"""Why an action the console hides is unavailable: the engine's own refusal, in the banker's
language (a hidden "Kaufen" after the auction stop used to give no reason at all)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from referee import rules

#: The buttons worth explaining when absent, with the simplest event that would press them.
EXPLAINED = {
    "buy": gettext_lazy("Buy"),
    "build": gettext_lazy("Houses & hotels"),
    "trade": gettext_lazy("Trade"),
}


def _probe(state, key: str, action: str) -> dict[str, Any] | None:
    owner = state.owner
    deeds = state.board.deeds
    if action == "buy":
        free = next((d.key for d in deeds if d.key not in owner), None)
        return {"type": "buy", "player": key, "deed": free} if free else None
    if action == "build":
        streets = [d for d in deeds if owner.get(d.key) == key and d.kind == "street"]
        for deed in streets:
            members = state.board.groups.get(deed.group, ())
            if all(owner.get(member) == key for member in members):
                return {"type": "build", "deed": deed.key}
        return None  # no complete colour group: nothing to build on, nothing to explain
    if action == "trade":
        mine = next((d.key for d in deeds if owner.get(d.key) == key), None)
        partner = next((p for p in state.active_players if p != key), None)
        if mine is None or partner is None:
            return None
        return {"type": "trade", "from": key, "to": partner, "deeds": [mine]}
    return None


def unavailable(state, key: str, actions: dict[str, list[str]], refusal_of) -> list[dict]:
    """``[{"label", "message_de", "message_en", "code"}]`` for each explained action the engine
    refuses this player now; ``refusal_of(violation)`` names players (console's Refusal.of)."""
    out = []
    for action, label in EXPLAINED.items():
        if action in actions:
            continue
        event = _probe(state, key, action)
        if event is None:
            continue
        try:
            rules.check_event(state, event)
        except rules.RuleViolation as violation:
            refusal = refusal_of(violation)
            out.append({"label": label, "code": refusal.code,
                        "message_de": refusal.message_de, "message_en": refusal.message_en})
        except (KeyError, ValueError, TypeError):
            continue
    return out
