"""The Celery app. Tasks are thin wrappers over services; see each app's ``tasks.py``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("monopoly")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping() -> str:
    """Round trip through the broker to a worker: used by health checks and the test fixture."""
    return "pong"
