"""Domain errors of scoring and advancement, each with a stable code."""

from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError


class RoundNotClosable(Conflict, code="round_not_closable"): ...


class FinalNotPossible(DomainError, code="final_not_possible"): ...


ROUND_NOT_RUNNING = _("Round %(number)s is %(status)s: only a running round can be closed.")
RESULTS_MISSING = _(
    "Round %(number)s cannot be closed yet: tables %(tables)s have no confirmed result."
)
FINAL_EXISTS = _("The final has already been seated (round %(number)s).")
PRELIMINARIES_OPEN = _("Round %(number)s is not closed yet: close every preliminary round first.")
TOO_FEW_QUALIFIERS = _("Only %(count)s players have results; the final needs %(needed)s.")
NO_SUCH_TOURNAMENT = _("There is no public tournament “%(slug)s”.")
ROUND_NOT_COMPLETE = _("Round %(number)s is not closed: there is nothing to reopen.")
NEXT_ROUND_SEATED = _(
    "Round %(number)s can no longer be reopened: the next round has been seated already."
)
REOPEN_REASON = _("Give a reason for reopening the round: it is kept in the audit log.")
