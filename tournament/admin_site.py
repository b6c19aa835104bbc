"""The admin site: Django's, but for superusers only (``config.settings`` installs it through
``tournament.apps.AdminConfig``)."""

from django.contrib import admin


class AdminSite(admin.AdminSite):
    """The admin sees every tournament at once, so it is for superusers only (the one global
    role); everyone else works on the tournament pages, where ``tournament.access`` decides."""

    def has_permission(self, request) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)
