"""Every refusal of the round desk in one place: the domain errors of closing rounds, seating
the final and reopening, each with a stable code, and the words of each refusal."""

from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError


class RoundNotClosable(Conflict, code="round_not_closable"): ...


class FinalNotPossible(DomainError, code="final_not_possible"): ...


class RoundBegun(Conflict, code="round_begun"): ...


ROUND_NOT_RUNNING = _("Round %(number)s is %(status)s: only a running round can be closed.")
RESULTS_MISSING = _(
    "Round %(number)s cannot be closed yet: tables %(tables)s have no confirmed result."
)
FINAL_EXISTS = _("The final has already been seated (round %(number)s).")
PRELIMINARIES_OPEN = _("Round %(number)s is not closed yet: close every preliminary round first.")
RESULTS_NOT_CONFIRMED = _(
    "The final cannot be seated yet: the result of %(tables)s is not confirmed (reopened, or "
    "not confirmed yet), and who reaches the final depends on it. Have it confirmed first."
)
ROUND_TABLE = _("round %(round)s, table %(table)s")
TOO_FEW_QUALIFIERS = _("Only %(count)s players have results; the final needs %(needed)s.")
FINAL_EARLY = _(
    "Closed so far: %(closed)s of the %(configured)s preliminary rounds set for this "
    "tournament. To seat the final now anyway (the remaining preliminary rounds are then not "
    "played), tick “Seat the final early” and seat it again."
)
ROUND_BEGUN = _(
    "Round %(number)s can no longer be deleted or seated again: the game of table %(tables)s "
    "has begun (its record names its players). Rule: only a round none of whose games has begun."
)
ROUND_NOT_COMPLETE = _("Round %(number)s is not closed: there is nothing to reopen.")
NEXT_ROUND_SEATED = _(
    "Round %(number)s can no longer be reopened: the next round has been seated already."
)
REOPEN_REASON = _("Give a reason for reopening the round: it is kept in the audit log.")
