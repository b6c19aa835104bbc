"""The public site for spectators (no login) and the cached public API: cached HTML fragments
(``fragments``), the leaderboard, the tables, a table live (``live`` with the ``board`` as SVG
and the ``feed``), a player's page with charts, the projector (``screen``)."""
