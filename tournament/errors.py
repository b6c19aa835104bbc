"""Every refusal of the tournament app in one place: the domain errors, each with a stable code,
and the words of each refusal (German in the catalogue), grouped by the module that gives it."""

from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError


class RoundNotEditable(Conflict, code="round_not_editable"): ...


class NotEnoughPlayers(DomainError, code="not_enough_players"): ...


class SeatingImpossible(DomainError, code="seating_impossible"): ...


#: The seating generator's refusal to split the players into tables, in the reader's language
#: (the generator itself words it in English only: it imports nothing of ours).
SPLIT_IMPOSSIBLE = _(
    "%(players)s players cannot be seated at %(tables)s tables of at least %(minimum)s: one "
    "table would have only %(smallest)s. Allow smaller tables under “Options” (“Smallest "
    "table”) or check in more players."
)


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


# -------------------------------------------------------------------- players

NAME_MISSING = _("The player needs a name.")
NAME_TOO_LONG = _("The name is %(length)s characters long; at most %(max)s are allowed.")
CLUB_TOO_LONG = _("The club name is %(length)s characters long; at most %(max)s are allowed.")
EMAIL_INVALID = _("“%(email)s” is not a valid e-mail address.")
NAME_TAKEN = _("A player named “%(name)s” is already registered in this tournament.")
TOURNAMENT_FINISHED = _("The tournament is finished; its players can no longer change.")
CHECK_IN_NOT_OPEN = _("Check-in opens with registration; the tournament is still a draft.")
CHECK_IN_DROPPED_OUT = _("%(name)s has dropped out; undo the drop-out before checking in.")
ALREADY_PLAYED = _(
    "%(name)s already has a seat in round %(number)s, so the check-in stays; use drop-out instead."
)
PLAYER_SEATED = _(
    "%(name)s has been seated in a round and cannot be deleted; let them drop out instead."
)


# --------------------------------------------------------- reading a CSV file

CSV_REJECTED = _(
    "The file was not imported, nothing was saved: %(count)s line(s) have errors (lines "
    "%(lines)s). Correct them and upload the whole file again."
)
NUL_BYTE = _("The line contains a NUL character (byte 0x00): the file is damaged.")
UTF16 = _(
    "The file is saved as UTF-16 (“Unicode text”). Save it as “CSV UTF-8” or “CSV (semicolon "
    "separated)” instead."
)
NOT_TEXT = _(
    "This is not a CSV text file (perhaps an Excel workbook). Save it as “CSV UTF-8” or “CSV "
    "(semicolon separated)” and upload that."
)
MIXED_ENCODING = _(
    "Byte %(byte)s at position %(column)s cannot be read: this line is not UTF-8, while other "
    "lines are. Save the whole file as UTF-8."
)
BAD_BYTE = _(
    "Byte %(byte)s at position %(column)s cannot be read as UTF-8 or Windows-1252. Save the file "
    "as UTF-8."
)


# ------------------------------------------------- importing players from CSV

IMPORT_RACE = _(
    "Players or clubs were changed meanwhile while the file was imported; nothing was saved. "
    "Upload the file again."
)
UNKNOWN_COLUMN = _(
    "Unknown column “%(column)s”. Allowed: name, club, e-mail, consent (German: Name, Verein, "
    "E-Mail, Einwilligung)."
)
DUPLICATE_COLUMN = _("The column “%(column)s” appears twice (also “%(other)s”).")
NO_HEADER = _(
    "The first line must name the columns, e.g. Name;Verein;E-Mail;Einwilligung — found "
    "“%(cells)s”."
)
NO_NAME_COLUMN = _(
    "The header has no name column (Name, or Vorname and Nachname). Found: %(cells)s."
)
NAME_COLUMNS_TWICE = _(
    "The header has a name column (“%(name)s”) and first/last name columns (%(other)s); keep "
    "only one of them."
)
EMPTY_HEADER_CELL = _(
    "Column %(position)s has no name in the header; name it or remove the column."
)
EMPTY_FILE = _("The file is empty.")
HEADER_ONLY = _("The file has a header but no players.")
TOO_MANY = _("The file has %(count)s players; at most %(max)s can be imported at once.")
TOO_BIG = _("The file is %(size)s KB; at most %(max)s KB can be imported.")
BROKEN_QUOTES = _("The line cannot be read (quotation marks do not match): %(detail)s.")
COLUMN_COUNT = _("Expected %(expected)s values separated by “%(delimiter)s”, found %(found)s.")
LINE_NAME_MISSING = _("The name is missing.")
NAME_TWICE = _("“%(name)s” appears twice in the file (also on line %(other)s).")
CONSENT_INVALID = _(
    "“%(value)s” is not a consent value; use ja/nein, yes/no, 1/0, x, or leave it empty."
)
EXTRA_VALUE = _("Column %(position)s has a value (“%(value)s”) but no column name in the header.")


# ---------------------------------------------------- the tournament's status

STATUS_UNKNOWN = _("There is no tournament status “%(to)s”.")
STATUS_UNCHANGED = _("The tournament is already %(status)s.")
TRANSITION_NOT_ALLOWED = _(
    "A tournament cannot go from %(from)s to %(to)s. From %(from)s it can only go to: %(allowed)s."
)
TRANSITION_FINAL = _("A finished tournament is final; its status cannot change any more.")
HAS_ROUNDS = _("The tournament cannot go back to draft: %(count)s round(s) exist already.")
TOO_FEW_TO_START = _(
    "The tournament cannot start with %(count)s checked-in player(s); a table needs at least "
    "%(minimum)s."
)
ROUND_OPEN = _(
    "The tournament cannot finish while round %(number)s is %(status)s; close that round first."
)


# -------------------------------------------------------- tournament settings

SETTINGS_INVALID = _("These settings cannot be saved: %(details)s.")
SETTINGS_FROZEN = _(
    "These settings can no longer change: %(fields)s. The tournament is %(status)s, and seating "
    "and scoring depend on them."
)


# -------------------------------------------------------------------- privacy

ALREADY_ERASED = _("This player's data has already been anonymized.")


# --------------------------------------------------------------------- access

REFUSED = _(
    "Your account has no role in this tournament that allows this. Ask its organizer."
)
