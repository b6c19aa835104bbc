"""An anonymized player's name leaves the games' free text too (notes, rulings, reasons)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournament.privacy import scrub

from . import engine_cache, signals
from .models import Game, GameEvent, GameResult

#: Result fields staff write in their own words.
RESULT_TEXTS = ("dispute_note", "resolved_note")


def _scrubbed(value: Any, names: list[str], replacement: str) -> Any:
    if isinstance(value, str):
        return scrub(value, names, replacement)
    if isinstance(value, list):
        return [_scrubbed(item, names, replacement) for item in value]
    if isinstance(value, dict):
        return {key: _scrubbed(item, names, replacement) for key, item in value.items()}
    return value


@transaction.atomic
def scrub_games(*, tournament_id: int, names: list[str], replacement: str) -> set[int]:
    """Replace ``names`` in the tournament's result notes and event texts; the games that
    changed get a new state version, so no cached page or record keeps the old name. Event
    texts are reasons and notes, never figures: every record replays as before."""
    changed: set[int] = set()
    results = GameResult.objects.filter(game__table__round__tournament_id=tournament_id)
    for result in results.only("pk", "game_id", *RESULT_TEXTS):
        after = {field: scrub(getattr(result, field), names, replacement)
                 for field in RESULT_TEXTS}
        if any(after[field] != getattr(result, field) for field in RESULT_TEXTS):
            GameResult.objects.filter(pk=result.pk).update(**after)
            changed.add(result.game_id)
    events = GameEvent.objects.filter(game__table__round__tournament_id=tournament_id)
    for event in events.only("pk", "game_id", "data").iterator():
        data = _scrubbed(event.data, names, replacement)
        if data != event.data:
            GameEvent.objects.filter(pk=event.pk).update(data=data)
            changed.add(event.game_id)
    for game_id in changed:
        engine_cache.forget(game_id)

    def announce() -> None:
        for game_id in sorted(changed):
            signals.game_changed.send(sender=Game, game_id=game_id)

    transaction.on_commit(announce)
    return changed
