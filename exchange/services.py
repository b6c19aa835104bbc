"""A whole tournament as one JSON document: export for archiving or moving to another server,
import that rebuilds it (into an empty database, or next to the original under a new slug).

The document (``format: monopoly-championship-export/1``) holds the tournament's settings and
status, the clubs its players belong to, the players (with their private data: e-mail, note —
the export is for organizers only), every round with its tables, bankers (by username), seating
in turn order, each table's game record (``referee.selectors.record``, plus the confirmation
code, the author of each event and when the banker was last seen), the counted result with its
confirmation state, and the standings at export time (for reference; the import recomputes
them).

Players are named in the document by a ``key`` (their id on the exporting server), which is
also the identifier the game records use. The import gives players new ids and rewrites the
records' player fields accordingly, then replays every record through the rules engine
(``referee.services.load_events``): an illegal event refuses the whole document. Everything is
written in one transaction; a refused document leaves nothing behind.
"""

from exchange.document import (
    FORMAT,
    MAX_BYTES,
    PLAYER_FIELDS,
    ImportRefused,
    parse_document,
)
from exchange.errors import TOO_BIG
from exchange.export import export_json, export_tournament
from exchange.importer import ImportOutcome, import_document, import_tournament

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "PLAYER_FIELDS",
    "TOO_BIG",
    "ImportOutcome",
    "ImportRefused",
    "export_json",
    "export_tournament",
    "import_document",
    "import_tournament",
    "parse_document",
]
