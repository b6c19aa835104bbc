"""Signals other apps listen to (they depend on us, not we on them). A changed result is no
signal: its consequences are the ordered steps of ``settings.RESULT_STEPS`` (``changes``)."""

from django.dispatch import Signal

#: Sent after commit when any event was added to a game (a changed result has its steps).
#: Arguments: ``game_id``, ``replan`` (the deadlines may have moved: timers are planned
#: again), ``tournament_slug`` (the game's tournament when the sender had it at hand, else
#: None: receivers look it up), ``due`` (the game's deadlines as committed, auction stop and
#: time up, when the sender wrote them; else absent: the timers read them).
game_changed = Signal()
