from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self) -> None:
        from auditlog.models import LogEntry
        from auditlog.registry import auditlog
        from django.db.models.signals import pre_save

        from . import audit, models

        # What the audit log records (admin edits included); the nonce is a link's secret.
        auditlog.register(models.Tournament, exclude_fields=["lot_seed"])
        auditlog.register(models.Player)
        auditlog.register(models.Round, exclude_fields=["version"])
        auditlog.register(models.Table, include_fields=["round", "number", "banker"])
        auditlog.register(models.Seat)
        auditlog.register(models.BankerLink, mask_fields=["nonce"])
        auditlog.register(models.StaffRole)
        auditlog.register(models.Incident)
        pre_save.connect(audit.stamp, sender=LogEntry, dispatch_uid="tournament.audit.stamp")
