"""API permissions: everyone may read what the view shows them; only organizers write."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from . import roles


class IsOrganizerOrReadOnly(BasePermission):
    """Reads for anyone (views narrow what the public sees); writes for organizers (staff)."""

    message = _("Only organizers may change this.")

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or roles.is_organizer(request.user)
