"""Every refusal of a tournament document in one place: the words of each refusal of an export
or import, and the words that say where in the document a problem is (``W_*``)."""

from django.utils import translation
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from config.errors import DomainError

# ----------------------------------------------- tournament export and import


class ImportRefused(DomainError, code="import_refused"):
    """The document cannot be imported; the message names the place and the reason."""

    def message_in(self, language: str) -> str:
        with translation.override(language):
            params = {
                key: value.message_in(language) if isinstance(value, DomainError)
                else force_str(value)
                for key, value in self.params.items()
            }
            text = force_str(self.message)
            return text % params if params else text


NOT_JSON = _("The file is not a JSON document: %(reason)s")
TOO_BIG = _("The file is larger than %(megabytes)s MB.")
TOO_MANY_VALUES = _(
    "The file holds far more values for its size than a tournament export (like thousands of "
    "empty entries): it is not imported."
)
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
