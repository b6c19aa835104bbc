"""The banker's referee console: games, event log, clock and timers; ``referee.rules`` is the
pure rules engine."""
