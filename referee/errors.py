"""Domain errors of the referee console, each with a stable code."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError, PermissionDenied


class EventRefused(DomainError):
    """The rules engine refused an event; carries the engine's own bilingual reason."""

    code = "event_refused"
    http_status = 422

    def __init__(self, violation) -> None:
        self.violation = violation
        self.rule_code = violation.code
        self.index = violation.index
        super().__init__(violation.message_en, code="event_refused")

    def message_in(self, language: str) -> str:
        return self.violation.message_de if language.startswith("de") else self.violation.message_en

    def as_dict(self) -> dict:
        data = super().as_dict()
        data.update(rule=self.rule_code, index=self.index)
        return data


class StaleSequence(Conflict):
    code = "stale_sequence"


class GameNotReady(Conflict):
    code = "game_not_ready"


class ResultNotReady(Conflict):
    code = "result_not_ready"


class WrongConfirmationCode(DomainError):
    code = "wrong_confirmation_code"


class NotYourTable(PermissionDenied):
    code = "not_your_table"


STALE_SEQUENCE = _(
    "The table changed meanwhile: event %(expected)s was expected, the game is at %(current)s. "
    "Reload and try again."
)
GAME_NOT_STARTED = _("The game of table %(table)s has not been set up yet.")
NO_SEATS = _("Table %(table)s has no seated players.")
GAME_NOT_ENDED = _("The game has not ended yet: count net worth only after the end.")
RESULT_ALREADY_FINAL = _("This result is already confirmed; ask the head referee to change it.")
RESULT_NOT_COUNTED = _("There is no count to confirm yet.")
WRONG_CODE = _("That is not the code printed on this table's score sheet.")
NOT_YOUR_TABLE = _("Only this table's banker, the head referee or an organizer may do this.")
BAD_EVENT = _("An event is a JSON object with a 'type'.")
BAD_EXPECTED_SEQ = _("expected_seq must be a whole number.")
BAD_IDEMPOTENCY_KEY = _(
    "The Idempotency-Key header may not contain control characters; send e.g. a UUID."
)
NO_SUCH_TABLE = _("There is no such table.")
