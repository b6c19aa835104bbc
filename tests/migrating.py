"""Migrating the test database to a named state and back, for the upgrade tests: SHIPPED is
the schema installations last received, where an upgrade starts."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

SHIPPED = [("tournament", "0002_formats_links_versions"), ("referee", "0001_initial"),
           ("scoring", "0001_initial")]


def migrate(targets=None):
    """To ``targets``, or (None) to the newest migrations, where every other test expects it;
    returns the models as they are there."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
