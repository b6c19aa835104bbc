"""Every refusal of the scoring app in one place: the domain errors of scoring and advancement,
each with a stable code, and the words of each refusal, grouped by the module that gives it."""

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


# ----------------------------------------------- tournament export and import

NOT_JSON = _("The file is not a JSON document: %(reason)s")
TOO_BIG = _("The file is larger than %(megabytes)s MB.")
WRONG_FORMAT = _("This is not a tournament export (format “%(found)s”, expected “%(expected)s”).")
NOT_AN_OBJECT = _("%(where)s: expected a JSON object.")
FIELD_MISSING = _("%(where)s: “%(field)s” is missing.")
FIELD_INVALID = _("%(where)s: “%(field)s” has an invalid value: %(value)s.")
DUPLICATE_CLUB = _("Club “%(name)s” appears twice.")
DUPLICATE_PLAYER_KEY = _("Player key “%(key)s” appears twice.")
DUPLICATE_PLAYER_NAME = _("Player “%(name)s” appears twice.")
UNKNOWN_CLUB = _("%(where)s: club “%(club)s” is not among the document's clubs.")
UNKNOWN_PLAYER = _("%(where)s: player “%(player)s” is not among the document's players.")
DUPLICATE_ROUND = _("Round %(round)s appears twice.")
DUPLICATE_TABLE = _("Round %(round)s: table %(table)s appears twice.")
SEATED_TWICE = _("Round %(round)s: player “%(player)s” is seated twice.")
EMPTY_TABLE = _("Round %(round)s: table %(table)s has no players.")
RECORD_PLAYERS = _(
    "%(where)s: the game record's players are not the players seated at the table."
)
BAD_RECORD = _("%(where)s: the game record cannot be used: %(reason)s")
EVENT_REFUSED = _("%(where)s: the game record was refused at %(reason)s")
AUTHORS_LENGTH = _("%(where)s: “authors” must name one author (or null) per event.")
RESULT_WITHOUT_GAME = _("%(where)s: a result is given but no game record.")
RESULT_BEFORE_END = _("%(where)s: a result is given but the game record does not end the game.")
RESULT_PLAYERS = _("%(where)s: the result's placements do not match the table's players.")
RESULT_CONTRADICTS = _(
    "%(where)s: the game record, replayed, gives %(player)s place %(replayed)s with net worth "
    "%(worth)s, but the stored result says place %(stored)s with %(stored_worth)s. Only results "
    "from the paper sheet or amended by the head referee may differ from their record."
)
ROUND_NOT_CONFIRMED = _(
    "Round %(round)s is complete, but table %(table)s has no confirmed result."
)
STANDINGS_DIFFER = _(
    "The standings computed here differ from those in the export from position %(place)s on "
    "(the players got new ids here, so ties decided by lot can fall differently)."
)
SETTINGS_REFUSED = _("Tournament settings: %(reason)s")
DATABASE_REFUSED = _("The document contradicts itself: %(reason)s")
W_DOCUMENT = _("The document")
W_TOURNAMENT = _("Tournament")
W_CLUB = _("Club %(index)s")
W_PLAYER = _("Player %(index)s")
W_ROUND = _("Round %(round)s")
W_ROUND_AT = _("Round at position %(index)s")
W_TABLE = _("Round %(round)s, table %(table)s")
W_TABLE_AT = _("Round %(round)s, table at position %(index)s")
W_RESULT = _("Round %(round)s, table %(table)s, result")
W_PLACEMENT = _("Round %(round)s, table %(table)s, placement %(index)s")


# --------------------------------------------------------------- hall screens

BAD_NAME = _("Give the screen a name (at most 40 characters), e.g. “Entrance”.")
TOO_MANY = _("A tournament has at most 40 hall screens.")
BAD_MODE = _("Unknown choice for a hall screen.")
