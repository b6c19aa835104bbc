from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = _("Referee")

    def ready(self) -> None:
        from django.core import checks

        from referee import changes, receivers

        receivers.connect()
        checks.register(changes.check_steps)

        from auditlog.registry import auditlog

        from referee.models import Game, GameResult, Placement

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

        from referee.history import VIA
        from tournament import audit_words

        audit_words.VALUE_WORDS["confirmed_via"] = VIA  # the audit page says how, not the code
        # A game's extra minutes and time overrides are noted on its table.
        audit_words.OTHER_MODELS.append(Game)
        audit_words.FIELD_WORDS["auction_stop_minute"] = _("auction stop (minutes)")
