"""Domain errors of the organizer's domain, each with a stable code."""

from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError


class RoundNotEditable(Conflict, code="round_not_editable"): ...


class NotEnoughPlayers(DomainError, code="not_enough_players"): ...


class SeatingImpossible(DomainError, code="seating_impossible"): ...


ROUND_NOT_EDITABLE = _("Round %(number)s is already %(status)s; its seating can no longer change.")
NOT_ENOUGH_PLAYERS = _("Only %(count)s players are checked in; a table needs at least %(minimum)s.")


# --- Rounds, seating edits and bankers ---------------------------------------------------


class StaleVersion(Conflict, code="stale_version"):
    """A seating edit based on an older version: never merged, always refused."""


class InvalidTransition(Conflict, code="invalid_transition"): ...


class TournamentNotRunning(Conflict, code="tournament_not_running"): ...


class RoundNotComplete(Conflict, code="round_not_complete"): ...


class TournamentClosedForRounds(Conflict, code="tournament_closed_for_rounds"): ...


class InvalidSeatingEdit(DomainError, code="invalid_seating_edit"): ...


class TableSizeViolation(DomainError, code="table_size"): ...


class BankerUnavailable(DomainError, code="banker_unavailable"): ...


class InvalidUsername(DomainError, code="invalid_username"): ...


class RoundComplete(Conflict, code="round_complete"): ...


STALE_VERSION = _(
    "The seating of round %(number)s was changed meanwhile (you edited version %(yours)s, it is "
    "now version %(current)s). Nothing was saved: reload the page and make your change again."
)
CANNOT_SEAT = _(
    "Round %(number)s (%(status)s) cannot be seated again. Rule: only a draft or seated round "
    "can be (re-)seated; unlock a locked round first."
)
CANNOT_LOCK = _(
    "Round %(number)s (%(status)s) cannot be locked. Rule: only a seated round can be locked."
)
CANNOT_UNLOCK = _(
    "Round %(number)s (%(status)s) cannot be unlocked. Rule: only a locked round that has not "
    "started can be unlocked."
)
CANNOT_START = _(
    "Round %(number)s (%(status)s) cannot be started. Rule: only a round whose seating is locked "
    "can be started."
)
CANNOT_EDIT = _(
    "The seating of round %(number)s (%(status)s) cannot be edited. Rule: seats can only be "
    "swapped or moved while the round is seated and not locked."
)
TOURNAMENT_NOT_RUNNING = _(
    "The tournament's status is “%(status)s”: a round can only start while the tournament is "
    "running. Start the tournament first."
)
ANOTHER_ROUND_RUNNING = _("Round %(number)s is still running: only one round runs at a time.")
ROUND_NOT_COMPLETE = _(
    "Round %(number)s is not complete yet (“%(status)s”): close it before creating the next "
    "round."
)
TOURNAMENT_CLOSED_FOR_ROUNDS = _(
    "The tournament's status is “%(status)s”: rounds can only be created during registration "
    "or while it runs."
)
PLAYER_NOT_SEATED = _("%(player)s is not seated in round %(number)s.")
SAME_TABLE = _("%(a)s and %(b)s already sit at the same table; a swap would change nothing.")
SAME_PLAYER = _("Choose two different players to swap.")
NO_SUCH_TABLE = _("Round %(number)s has no table %(table)s.")
ALREADY_AT_TABLE = _("%(player)s already sits at table %(table)s.")
TABLE_TOO_FULL = _(
    "Table %(table)s would have %(size)s players; a table seats at most %(maximum)s."
)
TABLE_TOO_SHORT = _(
    "Table %(table)s would keep only %(size)s players; a table needs at least %(minimum)s "
    "(allow smaller tables with the minimum size)."
)
INVALID_MIN_SIZE = _("The minimum table size must be between 2 and %(maximum)s.")
BANKER_BUSY = _("%(banker)s already banks table %(table)s in this round; one table per banker.")
BANKER_ROUND_COMPLETE = _("Round %(number)s is complete; its bankers no longer change.")
INVALID_USERNAME = _(
    "“%(username)s” is not a valid username: use letters, digits and @/./+/-/_ only "
    "(at most 150 characters)."
)


class InvalidForm(DomainError, code="invalid_form"): ...


INVALID_FORM = _("Please check these fields: %(fields)s.")


class UnknownAccount(DomainError, code="unknown_account"): ...


class AccountExists(Conflict, code="account_exists"): ...


class LastOrganizer(Conflict, code="last_organizer"): ...


UNKNOWN_ACCOUNT = _(
    "There is no active account “%(username)s”. Tick “create a new account” to make one."
)
ACCOUNT_EXISTS = _("The account “%(username)s” exists already: appoint it instead.")
LAST_ORGANIZER = _("A tournament keeps at least one organizer: appoint another one first.")



# --- Alternates (standbys who replace a no-show before a round starts) --------------------


class AlternateRefused(DomainError, code="alternate_refused"): ...


NOT_AN_ALTERNATE = _("%(player)s is not on the list of alternates.")
NO_ALTERNATE_LEFT = _("No alternate is left to replace %(player)s.")
ALTERNATE_RANK_INVALID = _("An alternate's rank is a whole number from 1 to %(maximum)s.")
ALTERNATE_SEATED = _(
    "%(player)s is seated in round %(number)s and cannot become an alternate for it."
)
REPLACE_TOO_LATE = _(
    "Round %(number)s has started: a no-show is replaced before a round starts, never during "
    "a game."
)
