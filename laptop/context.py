"""The red bar on the staff pages while backups fail ("since 14:05 – check the USB stick"),
and "backups work again" for a while after. Read from ``laptop.status`` only when a page
shows it (staff pages and the round desk include ``laptop/_backup_bar.html``)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

from laptop import status


def bar(*, now: dt.datetime | None = None) -> dict | None:
    now = now or timezone.now()
    current = status.read(settings.DATA_DIR)
    if not current.ok:
        since = current.since()
        return {"failing": True, "since": timezone.localtime(since) if since else None,
                "error": current.error}
    recovered = current.recovered(now)
    if recovered:
        return {"failing": False, "recovered": timezone.localtime(recovered)}
    return None


def backup(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"backup_bar": bar}  # a callable: the template calls it only where it is shown
