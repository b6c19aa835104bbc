"""The tasks of scoring's rooms, where Celery's autodiscovery looks for them (``<app>.tasks``);
each lives with its work (names unchanged: ``scoring.recompute_standings``, ...)."""

from scoring.exchange.tasks import import_tournament
from scoring.printing.tasks import print_document
from scoring.standings.tasks import recompute_standings, refresh_running_standings

__all__ = ["import_tournament", "print_document", "recompute_standings", "refresh_running_standings"]
