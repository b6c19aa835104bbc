from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LaptopConfig(AppConfig):
    name = "laptop"
    verbose_name = _("Event on one laptop")
