"""The header's staff links, worked out only when a template asks (public pages never do)."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from tournament import access


def staff_nav(request) -> dict:
    user = getattr(request, "user", None)
    return {"staff_links": SimpleLazyObject(lambda: access.staff_links(user) if user else [])}
