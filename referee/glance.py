"""What a game shows at a glance: its state, clock base, leader, bankruptcies and whether deeds
are left unowned — what the public overview's card of a table is made of, never a payment.

A hall's 167 tables post eight events a second, and most of them change no card; the public
pages' version document follows this glance (``scoring.cache.CARDS``), not every event, so a
crowd's polls are answered from one document instead of one rebuilt eight times a second
(issue 29)."""

from __future__ import annotations

from typing import Any

Glance = tuple[str | None, bool, bool, int, bool, str | None, tuple[str, ...], bool]


def glance(*, status: str | None, started: bool, paused: bool, paused_seconds: float | None,
           auction_done: bool, summary: dict[str, Any]) -> Glance:
    """The glance of a game from its fields (a row read as values, or a game: ``of``)."""
    return (status, bool(started), bool(paused), int(paused_seconds or 0), bool(auction_done),
            summary.get("leader"), tuple(sorted(str(key) for key in summary.get("bankrupt", []))),
            bool(summary.get("unowned")))


def of(game: Any) -> Glance:
    """The glance of a ``referee.models.Game`` as it is in memory (before and after a post)."""
    return glance(status=game.status, started=game.started_at is not None,
                  paused=game.paused_at is not None, paused_seconds=game.paused_seconds,
                  auction_done=game.auction_stop_done, summary=game.summary or {})
