"""The round desk: closing rounds, seating the final, rulings, hall screens, verify."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DeskConfig(AppConfig):
    name = "desk"
    verbose_name = _("Round desk")
