"""The players' refusals: registering and editing players, alternates, reading and
importing a CSV file of players; each with a stable code and its words (German in the
catalogue)."""

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from config.errors import Conflict, DomainError
from tournament.wording import LineError, lazy_join

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


class PlayerInvalid(DomainError, code="player_invalid"):
    """A player's data cannot be saved; ``field`` names the input."""

    def __init__(self, message: Any, *, field: str, code: str, params: dict | None = None):
        self.field = field
        super().__init__(message, code=code, params=params)


class PlayerNameTaken(Conflict, code="player_name_taken"): ...


class PlayersLocked(Conflict, code="players_locked"):
    """The tournament's status does not allow this change to its players."""


class CheckInRefused(Conflict, code="check_in_refused"): ...


NAME_MISSING = _("The player needs a name.")
NAME_TOO_LONG = _("The name is %(length)s characters long; at most %(max)s are allowed.")
CLUB_TOO_LONG = _("The club name is %(length)s characters long; at most %(max)s are allowed.")
PRIVATE_NOTE_TOO_LONG = _(
    "The private note is %(length)s characters long; at most %(max)s are allowed."
)
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


class CsvImportError(DomainError, code="csv_invalid"):
    """The file was refused; ``errors`` holds every bad line's number and reason."""

    def __init__(self, errors: list[LineError]) -> None:
        self.errors = sorted(errors, key=lambda error: error.line)
        lines = sorted({error.line for error in self.errors})
        super().__init__(
            ngettext_lazy(
                "The file was not imported, nothing was saved: %(count)s line has errors "
                "(line %(lines)s). Correct it and upload the whole file again.",
                "The file was not imported, nothing was saved: %(count)s lines have errors "
                "(lines %(lines)s). Correct them and upload the whole file again.",
                len(lines),
            ),
            params={"count": len(lines), "lines": lazy_join(lines, ", ")},
        )

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = super().as_dict()
        data["errors"] = [error.as_dict() for error in self.errors]
        return data


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
QUOTE_NOT_CLOSED = _(
    "A quotation mark opened on this line is not closed on it, so the line cannot be read. "
    "Close or remove the quotation mark; the lines after it were checked on their own."
)
QUOTE_TEXT_AFTER = _(
    "The line cannot be read: a value in quotation marks is followed by more text before the "
    "next “%(delimiter)s”. Put the whole value in quotation marks or remove them."
)
TOO_MANY_BROKEN = _(
    "The file was read up to this line: %(count)s lines cannot be read (quotation marks), so "
    "the rest was not checked. Is it really a CSV file with this separator?"
)
# The detail of BROKEN_QUOTES for the other csv errors, in words.
QUOTE_NEW_LINE = _("a line break inside a value without quotation marks")
QUOTE_OTHER = _("the quotation marks do not pair up")
COLUMN_COUNT = _("Expected %(expected)s values separated by “%(delimiter)s”, found %(found)s.")
LINE_NAME_MISSING = _("The name is missing.")
NAME_TWICE = _("“%(name)s” appears twice in the file (also on line %(other)s).")
CONSENT_INVALID = _(
    "“%(value)s” is not a consent value; use ja/nein, yes/no, 1/0, x, or leave it empty."
)
EXTRA_VALUE = _("Column %(position)s has a value (“%(value)s”) but no column name in the header.")

# Warnings of a successful import: the players are saved, the organizer is told.
NO_CONSENT_COLUMN = _(
    "The file has no consent column (Einwilligung): all %(count)s imported players are shown "
    "in public with initials only until their consent is ticked on their player page."
)
NAME_LOOKS_REGISTERED = _(
    "“%(name)s” looks like “%(other)s”, already registered: make sure nobody is entered twice."
)
NAME_LOOKS_LIKE_LINE = _(
    "“%(name)s” looks like “%(other)s” on line %(other_line)s: make sure nobody is entered "
    "twice."
)
