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


STALE_SEQUENCE = _(
    "The table changed meanwhile: event %(expected)s was expected, the game is at %(current)s. "
    "Reload and try again."
)
GAME_NOT_STARTED = _("The game of table %(table)s has not been set up yet.")
NO_SEATS = _("Table %(table)s has no seated players.")
GAME_NOT_ENDED = _("The game has not ended yet: count net worth only after the end.")
RESULT_ALREADY_FINAL = _("This result is already confirmed; only the head referee can change it.")
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


class PaperSheetRefused(DomainError, code="paper_sheet_refused"):
    """A paper sheet that cannot be stored: each problem names its line (player) and field, so
    the form shows it where it is to be fixed."""

    def __init__(self, problems: list[PaperProblem], *, table: int) -> None:
        self.problems = list(problems)
        super().__init__(PAPER_REFUSED, params={"table": table})

    def message_in(self, language: str) -> str:
        head = super().message_in(language)
        return " ".join([head, *(problem.text(language) for problem in self.problems)])


class PaperProblem:
    """One thing wrong on a paper sheet: its words, and where (player id and field key:
    ``bankrupt``, ``net_worth``, a part like ``cash``, or ``end_reason``/``ended_at``)."""

    def __init__(self, message, *, player_id: int | None = None, field: str = "",
                 **params) -> None:
        self.message, self.player_id, self.field, self.params = message, player_id, field, params

    def text(self, language: str | None = None) -> str:
        from django.utils import translation
        from django.utils.encoding import force_str

        if language is None:
            return force_str(self.message) % self.params
        with translation.override(language):
            params = {key: force_str(value) for key, value in self.params.items()}
            return force_str(self.message) % params

    def __repr__(self) -> str:
        return f"PaperProblem({self.player_id}, {self.field!r}, {self.text('en')!r})"


class PaperResultPending(Conflict, code="paper_result_pending"):
    """Table already has a result awaiting confirmation: replacing it is asked first."""

    def __init__(self, *, table: int, result) -> None:
        self.result = result
        super().__init__(PAPER_PENDING, params={"table": table})


PAPER_REFUSED = _("The sheet of table %(table)s is not stored:")
PAPER_NOTHING = _(
    "%(player)s: nothing entered. Write the bankruptcy order (if bankrupt) or the net worth "
    "(its parts, the total, or both)."
)
PAPER_BANKRUPT_AND_FIGURES = _(
    "%(player)s: marked bankrupt (no. %(order)s) and given a net worth. A bankrupt player has "
    "no net worth: clear one of the two."
)
PAPER_SUM_MISMATCH = _(
    "%(player)s: the parts add up to %(parts)s, but the written total is %(total)s. Correct a "
    "part or the total (or leave the total empty: it is then computed from the parts)."
)
PAPER_NOT_A_NUMBER = _("%(player)s, %(label)s: “%(value)s” is not a whole amount.")
PAPER_OUT_OF_RANGE = _("%(player)s, %(label)s: %(value)s is not possible (0 to %(max)s).")
PAPER_ORDER_RANGE = _(
    "%(player)s: bankruptcy no. %(order)s is not possible at a table of %(count)s (1 = first "
    "out)."
)
PAPER_ORDER_TWICE = _(
    "%(player)s: bankruptcy no. %(order)s is also written for %(other)s. Each bankrupt player "
    "has a number of their own (1 = first out)."
)
PAPER_ORDER_GAP = _(
    "%(player)s: bankruptcy no. %(order)s, but %(count)s players are marked bankrupt. Number "
    "them 1 to %(count)s in the order they went bankrupt (1 = first out)."
)
PAPER_NOBODY_LEFT = _(
    "Every player is marked bankrupt: at least one player is still in the game at its end."
)
PAPER_ONE_LEFT = _(
    "The end reason is “only one player left”, but %(count)s players are not marked bankrupt."
)
PAPER_END_REASON = _("Choose why the game ended.")
PAPER_ENDED_AT = _("Ended at: “%(value)s” is not a time of day (for example 15:30).")
PAPER_ENDED_FUTURE = _(
    "Ended at: %(value)s is still to come (it is %(now)s now). Write the time on the sheet."
)
PAPER_ENDED_BEFORE_START = _(
    "Ended at: %(value)s is before the game started (%(started)s). Write the time on the sheet."
)
PAPER_ROUND_NOT_STARTED = _(
    "Round %(number)s has not started: start round %(number)s on the round desk first, then "
    "enter the sheet of table %(table)s."
)
PAPER_SEATS = _("The sheet must list every player seated at table %(table)s once.")
PAPER_PENDING = _(
    "Table %(table)s already has a result awaiting confirmation. Storing the sheet replaces it: "
    "compare both, give a reason and confirm the replacement."
)
PAPER_REPLACE_REASON = _(
    "Give a reason for replacing the pending result: it is kept in the audit log."
)
SECOND_PERSON = _(
    "You entered this result from the paper sheet: a second person confirms it (another "
    "member of staff, or a player of the table typing the code), not you, not even with the "
    "table's code."
)
SECOND_PERSON_AMENDED = _(
    "You amended this result's figures: a second person confirms them (another member of "
    "staff, or a player of the table typing the code), not you, not even with the table's code."
)
SECOND_PERSON_COUNT = _(
    "You counted this result yourself: a second person confirms it (a player of the table with "
    "the code from the slip, or another member of staff)."
)


class ResultCounted(Conflict, code="result_counted"): ...


class SecondPersonRequired(PermissionDenied, code="second_person"):
    """Four eyes: whoever counted (or entered) a result does not confirm it too."""


RESULT_COUNTED = _(
    "Count finished – to change the game, reopen the count first (“Reopen the count”); the "
    "result then has to be counted and confirmed again."
)
NOTHING_TO_REOPEN = _("There is no pending count to reopen.")


class ResultFromPaper(Conflict, code="result_from_paper"):
    """An event for a game whose result was entered from the paper sheet at the desk."""


RESULT_FROM_PAPER = _(
    "A result from the paper sheet stands for table %(table)s: the console takes no more "
    "events for this game. The desk or the head referee decides (replace the sheet at the "
    "desk, or the head referee rules on it)."
)


class ResultChanged(Conflict, code="result_changed"):
    """A write decided against a result that has changed since (its revision moved on)."""


class ResultStands(Conflict, code="result_stands"):
    """A console count or reopened count would drop what staff recorded (a paper sheet, an
    amendment, a dispute): it stands until the head referee or the desk decides."""


RESULT_CHANGED = _(
    "The result of table %(table)s changed since this page was opened (%(what)s): check the "
    "result as it is now, then decide again."
)
#: What the result is now, as the refusal above names it.
CHANGED_GONE = _("its count was reopened: there is no result now")
CHANGED_COUNTED = _("now counted at the console")
CHANGED_PAPER = _("now entered from the paper sheet")
CHANGED_AMENDED = _("now amended by the tournament officials")
CHANGED_DISPUTED = _("now disputed")
CHANGED_CONFIRMED = _("now confirmed")
CHANGED_REOPENED = _("now reopened by the head referee")
CONFIRMED_BY_HEAD_REFEREE = _("Result confirmed by the head referee")
NOTE_RULING = _("Ruling on the dispute")
NOTE_CONFIRMATION = _("Head referee's note on the confirmation")
NOTE_REOPENED = _("Reason of the last reopening")
NOTE_AMENDED = _("Reason of the amendment")
NOTE_PAPER = _("Note on the paper sheet")
NOTE_OTHER = _("Head referee's note")
CHANGED_LATEST = _("latest change: %(what)s")
CHANGED_LATEST_BY = _("latest change: %(what)s, by %(who)s")
CHANGED_BY = _("%(what)s, by %(who)s")
STANDS_PAPER = _(
    "A result from the paper sheet stands for table %(table)s: the console does not count over "
    "it or reopen it. The head referee or the desk decides (replace the sheet at the desk, or "
    "the head referee rules on it)."
)
STANDS_AMENDED = _(
    "The tournament officials amended the result of table %(table)s: the console does not "
    "count over the amendment. The head referee decides (confirm it, or reopen the result at "
    "the desk)."
)
STANDS_DISPUTED = _(
    "The result of table %(table)s is disputed: the head referee rules on it at the desk (with "
    "a note). Until then it is neither counted again nor confirmed with the players' code."
)


class AlreadyDisputed(Conflict, code="result_disputed_already"):
    """A second dispute of a disputed result: it would replace the first note unseen."""


DISPUTED_ALREADY = _(
    "The result of table %(table)s is disputed already (note: “%(note)s”): the head referee "
    "rules on it at the desk. A second dispute does not replace the first note: tell the head "
    "referee what else is disputed."
)
REOPEN_COUNT_CLOSED = _(
    "Round %(number)s is closed: a count taken back could not be counted again. Reopen the "
    "round first, or the head referee amends or confirms the result at the desk."
)


class RoundClosed(Conflict, code="round_closed"): ...


class RoundNotStarted(RoundClosed, code="round_not_started"):
    """The table's round is drafted, seated or locked, not yet started: nothing is counted,
    confirmed or disputed in it (a RoundClosed, so every caller that refuses one refuses it)."""


ROUND_NOT_STARTED = _(
    "Round %(number)s has not started yet: start it on the round desk first; its results are "
    "counted and confirmed once it runs."
)


ROUND_CLOSED_CONSOLE = _(
    "Round %(number)s is closed: its results are changed only by the head referee at the round "
    "desk (reopen the result there first)."
)
ROUND_CLOSED_REOPENED = _(
    "Round %(number)s is closed; the head referee reopened this result, so it is counted and "
    "confirmed again here."
)
AMEND_BANKRUPT = _(
    "%(player)s went bankrupt: a bankrupt player has no net worth, and their place follows from "
    "the order of the bankruptcies."
)
AMEND_PLACE = _(
    "The places follow from the net worth: with %(worth)s, %(player)s is place %(computed)s, "
    "not %(given)s. Leave the place empty, or correct the net worth."
)


# ------------------------------------------------------------- console events

UNKNOWN_FIELDS = _("A “%(type)s” event has no field %(fields)s.")
EVENT_TOO_LARGE = _("The event is %(size)s bytes long; at most %(max)s are allowed.")
TEXT_TOO_LONG = _("“%(field)s” is longer than %(max)s characters.")
LIST_TOO_LONG = _("“%(field)s” lists more than %(max)s entries.")
NESTED_VALUE = _("“%(field)s” must be a plain value or a list of texts.")


class BadEvent(DomainError, code="bad_event"): ...


# ------------------------------------------------------------- results behind the final

#: Reopening a result that the final or the crowning already rests on (``rulings.reopen_result``).
class ResultSettled(Conflict, code="result_settled"): ...


PRELIMINARY_FINAL_SEATED = _(
    "The result of table %(table)s in round %(number)s can no longer be reopened: the final "
    "(round %(final)s) is seated from the preliminary results. If none of its games has begun, "
    "delete the final on the round desk (“Delete this round”), reopen the result, and seat "
    "the final again; once it has begun, the head referee decides with the organizer."
)
FINAL_CROWNED = _(
    "The tournament is finished and its winner crowned: the result of the final can no longer "
    "be reopened. To correct it, first undo the crowning on the round desk (“Undo the "
    "crowning: reopen the final”), then reopen the result."
)
PRELIMINARY_CROWNED = _(
    "The tournament is finished and its winner crowned: the result of table %(table)s in round "
    "%(number)s can no longer be reopened, since the final and the crowning rest on it. The "
    "head referee decides with the organizer; the record stays as it is."
)
