"""Signals other apps listen to (they depend on us, not we on them)."""

from django.dispatch import Signal

#: Sent after commit when a game's result was counted, confirmed, disputed or re-counted.
#: Arguments: ``game_id``, ``tournament_id``.
result_changed = Signal()

#: Sent after commit when any event was added to a game. Arguments: ``game_id``, ``replan``
#: (the deadlines may have moved: timers are planned again), ``tournament_slug`` (the
#: game's tournament when the sender had it at hand, else None: receivers look it up).
game_changed = Signal()
