from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = _("Referee")

    def ready(self) -> None:
        from . import receivers

        receivers.connect()

        from auditlog.registry import auditlog

        from .models import GameResult, Placement

        # Results are audited (who counted, confirmed, disputed, amended, reopened); the event
        # log is its own append-only record and needs no second one.
        auditlog.register(
            GameResult,
            include_fields=[
                "status", "confirmed_by", "confirmed_via", "dispute_note", "resolved_note",
                "from_paper",
            ],
        )
        auditlog.register(Placement, include_fields=["player", "place", "net_worth", "bankrupt"])
