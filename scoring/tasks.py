"""The standings' tasks, where Celery's autodiscovery looks for them (``<app>.tasks``)."""

from scoring.standings.tasks import recompute_standings, refresh_running_standings

__all__ = ["recompute_standings", "refresh_running_standings"]
