"""Refusals of the hall screens (kept with the standings they show)."""

from django.utils.translation import gettext_lazy as _

from config.errors import DomainError

# --------------------------------------------------------------- hall screens


class ScreenRefused(DomainError):
    http_status = 400


BAD_NAME = _("Give the screen a name (at most 40 characters), e.g. “Entrance”.")
TOO_MANY = _("A tournament has at most 40 hall screens.")
BAD_MODE = _("Unknown choice for a hall screen.")
