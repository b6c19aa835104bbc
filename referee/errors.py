"""Every refusal of the referee console in one place: the domain errors, each with a stable
code, and the words of each refusal, grouped by the module that gives it. The rules engine's own
bilingual reasons stay in ``referee.rules`` (it imports nothing of ours)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError, PermissionDenied
from config.errors import NotFound as NotFound  # re-exported: the API raises it


class EventRefused(DomainError, code="event_refused"):
    """The rules engine refused an event; carries the engine's own bilingual reason."""

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


class StaleSequence(Conflict, code="stale_sequence"): ...


class GameNotReady(Conflict, code="game_not_ready"): ...


class ResultNotReady(Conflict, code="result_not_ready"): ...


class WrongConfirmationCode(DomainError, code="wrong_confirmation_code"): ...


class KeyReused(DomainError, code="idempotency_key_reused"):
    """An Idempotency-Key sent again with another event: not a retry, and not new either."""

    http_status = 422


class CodesExhausted(DomainError, code="confirmation_codes_exhausted"):
    """Too many wrong codes at one table: only the head referee or an organizer confirms."""

    http_status = 429


class ResultsHeld(PermissionDenied, code="results_held"): ...


class NotYourTable(PermissionDenied, code="not_your_table"): ...


STALE_SEQUENCE = _(
    "The table changed meanwhile: event %(expected)s was expected, the game is at %(current)s. "
    "Reload and try again."
)
GAME_NOT_STARTED = _("The game of table %(table)s has not been set up yet.")
NO_SEATS = _("Table %(table)s has no seated players.")
GAME_NOT_ENDED = _("The game has not ended yet: count net worth only after the end.")
RESULT_ALREADY_FINAL = _("This result is already confirmed; ask the head referee to change it.")
RESULT_NOT_COUNTED = _("There is no count to confirm yet.")
WRONG_CODE = _("That is not the code on this table's code slip. Check the digits and type them again.")
WRONG_CODE_LEFT = _(
    "That is not the code on this table's code slip. Check the digits and type them again "
    "(%(left)s tries left)."
)
CODES_EXHAUSTED = _(
    "%(max)s wrong codes were typed at this table: the code is blocked. Only the head referee "
    "or an organizer can confirm this result now."
)
NOT_YOUR_TABLE = _("Only this table's banker, the head referee or an organizer may do this.")
BAD_EVENT = _("An event is a JSON object with a 'type'.")
BAD_EXPECTED_SEQ = _("expected_seq must be a whole number.")
BAD_IDEMPOTENCY_KEY = _(
    "The Idempotency-Key header may not contain control characters; send e.g. a UUID."
)
KEY_REUSED = _(
    "This Idempotency-Key was already used for another event (number %(seq)s). A retry must "
    "send the same event; a new event needs a new key."
)
ROUND_NOT_STARTED = _("Round %(number)s has not started yet: its tables are not public yet.")
RESULTS_HELD = _(
    "The results of round %(number)s are published when the round is closed; until then the "
    "game record is not public."
)
NO_SUCH_TABLE = _("There is no such table.")


class RoundNotRunning(Conflict, code="round_not_running"): ...


class ResultConfirmed(Conflict, code="result_confirmed"): ...


class GameBegun(Conflict, code="game_begun"): ...


class ReasonRequired(DomainError, code="reason_required"): ...


class BadAmendment(DomainError, code="bad_amendment"): ...


ROUND_NOT_RUNNING = _(
    "Round %(number)s is not running: the console takes events only while its round runs."
)
RESULT_CONFIRMED = _(
    "The result of table %(table)s is confirmed: the game can no longer change. Only the head "
    "referee can reopen it (with a reason)."
)
ALREADY_CONFIRMED = _("The result of table %(table)s is already confirmed.")
NOT_CONFIRMED = _("The result of table %(table)s is not confirmed: there is nothing to reopen.")
RULING_REQUIRED = _(
    "Write down the ruling: a disputed result is confirmed only with the head referee's note."
)
REASON_REQUIRED = _("Give a reason: it is kept in the audit log.")
BAD_AMENDMENT = _(
    "Check the amended figures: every player of the table once, a place from 1 to %(count)s "
    "each, and whole numbers for the net worth."
)
BAD_EXTRA_MINUTES = _("Extra minutes: a whole number from 1 to %(maximum)s.")
DELAY_NOT_RUNNING = _(
    "Round %(number)s is not running: a delay moves the start of a running round. Before that, "
    "start the round when the hall is ready."
)
MOVE_GAME_BEGUN = _(
    "The game of table %(table)s has begun: its record names its players, so no one can be "
    "moved to or from it. Rule: a player moves only between tables whose games have not begun."
)
GAME_ENDED_NO_TIME = _("The game of table %(table)s has ended: extra minutes no longer help.")
BAD_PAPER = _(
    "Check the sheet of table %(table)s: every seated player once, bankrupt players each with "
    "their own order (1 = first out), net worth and its parts whole numbers, and an end reason."
)
SECOND_PERSON = _(
    "A result from the paper sheet is confirmed by the table's code or by a second staff "
    "member, not by the person who entered it."
)


# ------------------------------------------------------------- console events

UNKNOWN_FIELDS = _("A “%(type)s” event has no field %(fields)s.")
EVENT_TOO_LARGE = _("The event is %(size)s bytes long; at most %(max)s are allowed.")
TEXT_TOO_LONG = _("“%(field)s” is longer than %(max)s characters.")
LIST_TOO_LONG = _("“%(field)s” lists more than %(max)s entries.")
NESTED_VALUE = _("“%(field)s” must be a plain value or a list of texts.")
