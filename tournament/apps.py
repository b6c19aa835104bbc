from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class AdminConfig(admin_apps.AdminConfig):
    """Django's admin with our site as ``admin.site`` (superusers only), named in
    ``INSTALLED_APPS``: set once there, not patched onto Django's site by an import."""

    default = False  # "tournament" itself is TournamentConfig
    default_site = "tournament.admin_site.AdminSite"


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self) -> None:
        from auditlog.models import LogEntry
        from auditlog.registry import auditlog
        from django.db.models.signals import pre_save

        from tournament import audit, models

        # What the audit log records (admin edits included); the nonce is a link's secret.
        auditlog.register(models.Tournament, exclude_fields=["lot_seed"])
        auditlog.register(models.Player)
        auditlog.register(models.Round, exclude_fields=["version"])
        auditlog.register(models.Table, include_fields=["round", "number", "banker"])
        auditlog.register(models.Seat)
        auditlog.register(models.BankerLink, mask_fields=["nonce"])
        auditlog.register(models.StaffRole)
        auditlog.register(models.Incident)
        auditlog.register(models.SignupSettings)
        # A sign-up's state changes (moved up, withdrawn, fee paid); not its address or key.
        auditlog.register(models.Signup, include_fields=["status", "fee_paid_at"])
        pre_save.connect(audit.stamp, sender=LogEntry, dispatch_uid="tournament.audit.stamp")

        from tournament import signals
        from tournament.signup import services as signups

        signals.player_removed.connect(signups.on_player_removed,
                                       dispatch_uid="tournament.signup.player_removed")
