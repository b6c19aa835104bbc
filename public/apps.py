"""The spectators' and players' site: leaderboard, tables, a player's page, hall screens."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    name = "public"
    verbose_name = _("Public site")
