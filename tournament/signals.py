"""Signals the tournament sends to the apps that build on it (they may import us; we may not
import them)."""

from django.dispatch import Signal

#: Sent inside the transaction that anonymized a player. Arguments: ``tournament_id``,
#: ``names`` (the texts to replace, longest first) and ``replacement`` (the pseudonym). Later
#: apps replace them in the free text they keep (a game's notes and reasons).
player_erased = Signal()
