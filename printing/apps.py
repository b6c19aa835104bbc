"""Printed matter (reportlab): score sheets, seating lists, cards, standings."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = _("Printed matter")

    def ready(self) -> None:
        from printing import receivers

        receivers.connect()
