from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LaptopConfig(AppConfig):
    name = "laptop"
    verbose_name = _("Event on one laptop")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from laptop.wal import write_ahead_logging

        post_migrate.connect(write_ahead_logging, dispatch_uid="laptop.write_ahead_logging")
