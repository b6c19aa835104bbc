"""Signals other apps listen to (they depend on us, not we on them). A changed result is no
signal: its consequences are the ordered steps of ``settings.RESULT_STEPS`` (``changes``)."""

from django.dispatch import Signal

#: Sent after commit when any event was added to a game (a changed result has its steps).
#: Arguments: ``game_id``, ``replan`` (the deadlines may have moved: timers are planned
#: again), ``tournament_slug`` (the game's tournament when the sender had it at hand, else
#: None: receivers look it up), ``due`` (the game's deadlines as committed, auction stop and
#: time up, when the sender wrote them; else absent: the timers read them), ``events_added``
#: (True when the change appended events, so the game's event count moved: the version need
#: not; absent or False for a change without a new event, e.g. a ruling or a scrub),
#: ``glance_changed`` (False when the change left the game's glance as it was —
#: ``referee.glance``: no card of the public overview changed; absent or True otherwise).
game_changed = Signal()
