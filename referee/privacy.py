"""What of a game the public may see, and an anonymized player's name leaving the games'
free text too (notes, rulings, reasons).

``public_event`` is the one public projection of an event: the state API, the record, the
feed and the player's page all read events through it, so a banker's free text (a break's
"Privat: Zoë Krüger musste zum Arzt") never leaves through a public answer.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from referee import engine_cache, signals
from referee.models import Game, GameEvent, GameResult
from tournament.privacy import scrub, scrub_value

#: Event fields a banker may fill with free text (which may name people).
PRIVATE_EVENT_FIELDS = ("reason",)

#: The count is the result: held with it.
HELD_EVENT_TYPES = ("cash",)

#: Reasons the console offers as codes (never free text): a public record keeps them.
PUBLIC_REASON_CODES = frozenset({
    "toilet_break", "rules_question", "head_referee",  # a break's (``words.PAUSE_REASONS``)
    "rent", "tax", "fine", "salary", "card",  # a payment's (``words.PAY_REASONS``)
    "correction",  # a void's
})


def public_event(data: dict[str, Any], *, held: bool = False) -> dict[str, Any]:
    """An event as spectators may see it: a free-text reason becomes "" (a code the console
    offers stays; a void's record needs its reason to be text, so the record still replays),
    and while results are held a counted amount is left out."""
    hidden = ("amount",) if held and data.get("type") in HELD_EVENT_TYPES else ()
    public = {key: value for key, value in data.items() if key not in hidden}
    for field in PRIVATE_EVENT_FIELDS:
        if field in public and public[field] not in PUBLIC_REASON_CODES:
            public[field] = ""
    return public


def public_events(events: list[Any], *, held: bool = False) -> list[Any]:
    return [public_event(event, held=held) if isinstance(event, dict) else event
            for event in events]


#: Result fields staff write in their own words.
RESULT_TEXTS = ("dispute_note", "resolved_note")


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
        data = scrub_value(event.data, names, replacement)
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
