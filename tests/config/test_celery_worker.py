"""Tasks really travel through Redis to a worker process (no eager mode)."""

from __future__ import annotations

import pytest


@pytest.mark.celery_worker
@pytest.mark.django_db
def test_task_round_trip_through_real_worker(celery_worker):
    from config.celery import ping

    result = ping.apply_async(queue=celery_worker["queue"])
    assert result.get(timeout=20) == "pong"


def test_embedded_default_runs_tasks_eagerly(settings):
    from config.celery import app, ping

    if settings.REDIS_URL:
        pytest.skip("only meaningful for the embedded default")
    assert app.conf.task_always_eager is True
    assert ping.delay().get(timeout=1) == "pong"
