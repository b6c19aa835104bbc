"""Signals the tournament sends to the apps that build on it (they may import us; we may not
import them)."""

from django.dispatch import Signal

#: Sent inside the transaction that anonymized a player. Arguments: ``tournament_id``,
#: ``names`` (the texts to replace, longest first) and ``replacement`` (the pseudonym). Later
#: apps replace them in the free text they keep (a game's notes and reasons).
player_erased = Signal()

#: Sent inside the transaction in which a player leaves a tournament that has not begun
#: (deleted or dropped out; sent before the row goes). Argument: ``player``. The sign-up gives
#: the place to the first of the waiting list.
player_removed = Signal()

#: Sent inside the transaction that seated a round, changed its seating (a swap, a move),
#: locked it or started it. Argument: ``round_``. The referee creates the seated tables' games
#: (their confirmation codes can be printed from then on) and brings an untouched game in step
#: with its table, so that no page (a GET) has to write when it is read.
seating_changed = Signal()
