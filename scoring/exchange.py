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

from __future__ import annotations

import datetime as dt
import json
import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction
from django.db.models import Prefetch
from django.utils import timezone, translation
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from config.errors import DomainError
from config.inputs import check_text
from referee import engine_cache, rules
from referee import errors as referee_errors
from referee import selectors as referee_selectors
from referee import services as referee_services
from referee.models import Game, GameEvent, GameResult, Placement
from tournament import services as tournament_services
from tournament import tournaments as tournament_settings
from tournament.models import Club, Player, Round, Seat, Table, Tournament

from . import selectors
from .models import Scope
from .services import recompute_standings

FORMAT = "monopoly-championship-export/1"
#: Event fields that name a player (the engine's ``_player`` lookups); ``bank`` stays as it is.
PLAYER_FIELDS = ("player", "winner", "from", "to", "creditor")
#: An upload larger than this is refused before it is parsed.
MAX_BYTES = 50 * 1024 * 1024


# --------------------------------------------------------------------------- errors


class ImportRefused(DomainError):
    """The document cannot be imported; the message names the place and the reason."""

    code = "import_refused"

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

lazy_format = tournament_settings.lazy_format


def _where(template, **params) -> Any:
    return lazy_format(template, params)


# --------------------------------------------------------------------------- export


def _iso(value: dt.datetime | dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _key(player_id: int | None) -> str | None:
    return referee_services.player_key(player_id) if player_id is not None else None


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as one JSON-ready document (see the module's docstring).

    The standings are brought up to date first (a no-op when nothing changed); that also
    records the lot's seed, so that the importing server draws the same lot.
    """
    recompute_standings(tournament_id=tournament.pk)
    tournament = Tournament.objects.get(pk=tournament.pk)
    players = list(tournament.players.select_related("club").order_by("pk"))
    clubs = sorted({player.club for player in players if player.club_id}, key=lambda c: c.name)
    rounds = list(tournament.rounds.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("banker")
        .order_by("round__number", "number")
    )
    seats: dict[int, list[str]] = defaultdict(list)
    for table_id, player_id in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "player_id")
    ):
        seats[table_id].append(_key(player_id))
    games = {
        game.table_id: game
        for game in Game.objects.filter(table__round__tournament=tournament).order_by("pk")
    }
    placements = Prefetch("placements", queryset=Placement.objects.order_by("place", "player_id"))
    results = {
        result.game_id: result
        for result in GameResult.objects.filter(game__table__round__tournament=tournament)
        .select_related("counted_by", "confirmed_by")
        .prefetch_related(placements)
    }
    authors: dict[int, list[str | None]] = defaultdict(list)
    for game_id, username in (
        GameEvent.objects.filter(game__table__round__tournament=tournament)
        .order_by("game_id", "seq")
        .values_list("game_id", "author__username")
    ):
        authors[game_id].append(username)

    tables_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        game = games.get(table.pk)
        result = results.get(game.pk) if game is not None else None
        tables_of[table.round_id].append(
            {
                "number": table.number,
                "banker": table.banker.get_username() if table.banker else None,
                "seats": seats.get(table.pk, []),
                "game": _export_game(game, authors.get(game.pk, [])) if game else None,
                "result": _export_result(result) if result else None,
            }
        )

    settings = {
        name: getattr(tournament, name) for name in tournament_settings.SETTINGS_FIELDS
    }
    settings["date"] = _iso(tournament.date)
    standings = [
        {**row, "player": _key(row["player"])}
        for row in selectors.standings(tournament, scope=Scope.LIVE)
    ]
    return {
        "format": FORMAT,
        "exported_at": _iso(timezone.now()),
        "tournament": {
            **settings,
            "status": tournament.status,
            "lot_seed": tournament.lot_seed,
            "winner": _key(tournament.winner_id),
        },
        "clubs": [{"name": club.name, "short_name": club.short_name} for club in clubs],
        "players": [
            {
                "key": _key(player.pk),
                "name": player.name,
                "club": player.club.name if player.club else None,
                "email": player.email,
                "public_name_consent": player.public_name_consent,
                "checked_in": player.checked_in,
                "dropped_out": player.dropped_out,
                "dropped_out_at": _iso(player.dropped_out_at),
                "private_note": player.private_note,
            }
            for player in players
        ],
        "bankers": sorted({table.banker.get_username() for table in tables if table.banker}),
        "rounds": [
            {
                "number": round_.number,
                "kind": round_.kind,
                "status": round_.status,
                "started_at": _iso(round_.started_at),
                "closed_at": _iso(round_.closed_at),
                "version": round_.version,
                "tables": tables_of.get(round_.pk, []),
            }
            for round_ in rounds
        ],
        "standings": standings,
    }


def _export_game(game: Game, authors: list[str | None]) -> dict[str, Any]:
    return {
        "record": referee_selectors.record(game),
        "authors": authors,
        "confirmation_code": game.confirmation_code,
        "banker_seen_at": _iso(game.banker_seen_at),
    }


def _export_result(result: GameResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "counted_at": _iso(result.counted_at),
        "counted_by": result.counted_by.get_username() if result.counted_by else None,
        "confirmed_at": _iso(result.confirmed_at),
        "confirmed_by": result.confirmed_by.get_username() if result.confirmed_by else None,
        "confirmed_via": result.confirmed_via,
        "dispute_note": result.dispute_note,
        "resolved_note": result.resolved_note,
        "placements": [
            {
                "player": _key(placement.player_id),
                "place": placement.place,
                "net_worth": placement.net_worth,
                "bankrupt": placement.bankrupt,
                "breakdown": placement.breakdown,
            }
            for placement in result.placements.all()
        ],
    }


def export_json(tournament: Tournament) -> bytes:
    return json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1).encode()


# --------------------------------------------------------------------------- field checks

_MISSING = object()


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "…"


def _field(
    obj: Any, name: str, where: Any, check: Callable[[Any], Any], *, default: Any = _MISSING
) -> Any:
    """``obj[name]`` passed through ``check`` (which returns the value to use or raises
    ValueError); a missing or null field takes ``default`` if there is one."""
    if not isinstance(obj, dict):
        raise ImportRefused(NOT_AN_OBJECT, params={"where": where})
    value = obj.get(name)
    if value is None:
        if default is not _MISSING:
            return default
        raise ImportRefused(FIELD_MISSING, params={"where": where, "field": name})
    try:
        return check(value)
    except (ValueError, TypeError):
        raise ImportRefused(
            FIELD_INVALID, params={"where": where, "field": name, "value": _short(value)}
        ) from None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError
    return value


def _name(value: Any) -> str:
    value = _text(value).strip()
    if not value:
        raise ValueError
    return value


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError
    return value


def _positive(value: Any) -> int:
    if _whole(value) < 1:
        raise ValueError
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError
    return value


def _array(value: Any) -> list:
    if not isinstance(value, list):
        raise ValueError
    return value


def _moment(value: Any) -> dt.datetime:
    parsed = parse_datetime(_text(value))
    if parsed is None:
        raise ValueError
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, dt.UTC)


def _day(value: Any) -> dt.date:
    parsed = parse_date(_text(value))
    if parsed is None:
        raise ValueError
    return parsed


def _choice(choices) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices.values:
            raise ValueError
        return value

    return check


def _username(value: Any) -> str:
    value = _name(value)
    try:
        UnicodeUsernameValidator()(value)
    except ValidationError:
        raise ValueError from None
    if len(value) > 150:
        raise ValueError
    return value


# --------------------------------------------------------------------------- import


def parse_document(data: bytes | str | dict) -> dict[str, Any]:
    """The document as a dict: JSON bytes or text are parsed; anything else is refused."""
    if isinstance(data, bytes | str):
        if len(data) > MAX_BYTES:
            raise ImportRefused(TOO_BIG, params={"megabytes": MAX_BYTES // (1024 * 1024)})
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ImportRefused(NOT_JSON, params={"reason": str(exc)}) from None
    if not isinstance(data, dict):
        raise ImportRefused(NOT_AN_OBJECT, params={"where": W_DOCUMENT})
    check_text(data)  # no NUL or lone surrogate may reach the database
    found = data.get("format")
    if found != FORMAT:
        raise ImportRefused(WRONG_FORMAT, params={"found": _short(found), "expected": FORMAT})
    return data


@dataclass(frozen=True)
class ImportOutcome:
    tournament: Tournament
    #: The players kept their ids from the export (possible when those ids are free here).
    kept_ids: bool
    #: Warnings a person should read (lazily translated).
    warnings: list[Any]


def import_tournament(data: bytes | str | dict, *, slug: str | None = None) -> Tournament:
    """Rebuild the tournament of an export; see :func:`import_document`."""
    return import_document(data, slug=slug).tournament


def import_document(data: bytes | str | dict, *, slug: str | None = None) -> ImportOutcome:
    """Rebuild the tournament of an export; ``slug`` replaces the document's short name.

    One transaction: any refusal (a bad field, an unknown player, an event the rules engine
    refuses, a taken slug) raises :class:`ImportRefused` (or the settings' own DomainError)
    and nothing is saved.

    Players keep their ids from the export when those are all free here (always so in an
    empty database): the drawn lot (a hash of the seed and the player's id) then repeats
    exactly. Otherwise they get new ids, and the outcome warns if the recomputed standings
    differ from the ones in the document.
    """
    document = parse_document(data)
    importer = _Importer(document, slug=slug)
    try:
        with transaction.atomic():
            tournament = importer.run()
    except IntegrityError as exc:
        importer.forget_engines()
        raise ImportRefused(DATABASE_REFUSED, params={"reason": str(exc)}) from None
    except BaseException:
        importer.forget_engines()
        raise
    return ImportOutcome(tournament, importer.kept_ids, importer.warnings)


class _Importer:
    def __init__(self, document: dict[str, Any], *, slug: str | None) -> None:
        self.document = document
        self.slug = slug
        self.players: dict[str, Player] = {}  # document key -> new player
        self.users: dict[str, User] = {}
        self.game_ids: list[int] = []
        self.kept_ids = False
        self.warnings: list[Any] = []

    def forget_engines(self) -> None:
        # Engines cached for games that were rolled back must not outlive them.
        for game_id in self.game_ids:
            engine_cache.forget(game_id)

    # ----------------------------------------------------------------------- the parts

    def run(self) -> Tournament:
        doc = self.document
        tournament = self.tournament(_field(doc, "tournament", W_DOCUMENT, _object))
        clubs = self.clubs(_field(doc, "clubs", W_DOCUMENT, _array, default=[]))
        self.create_players(tournament, _field(doc, "players", W_DOCUMENT, _array), clubs)
        rounds = _field(doc, "rounds", W_DOCUMENT, _array, default=[])
        self.create_rounds(tournament, rounds)
        winner = _field(doc["tournament"], "winner", W_TOURNAMENT, _text, default=None)
        if winner is not None:
            tournament.winner = self.player(winner, W_TOURNAMENT)
            tournament.save(update_fields=["winner"])
        recompute_standings(tournament_id=tournament.pk)
        self.compare_standings(tournament, doc.get("standings"))
        return tournament

    def compare_standings(self, tournament: Tournament, exported: Any) -> None:
        """Warn (not refuse) if the standings here differ from the export's snapshot."""
        if not isinstance(exported, list):
            return
        keys = {player.pk: key for key, player in self.players.items()}
        ours = [
            (keys.get(row["player"]), row["place"], row["points"], row["net_worth_sum"])
            for row in selectors.standings(tournament, scope=Scope.LIVE)
        ]
        theirs = [
            (row.get("player"), row.get("place"), row.get("points"), row.get("net_worth_sum"))
            for row in exported if isinstance(row, dict)
        ]
        if not theirs or ours == theirs:
            return
        place = next(
            (index for index, (a, b) in enumerate(zip(ours, theirs, strict=False), start=1)
             if a != b),
            min(len(ours), len(theirs)) + 1,
        )
        self.warnings.append(_where(STANDINGS_DIFFER, place=place))

    def tournament(self, data: dict[str, Any]) -> Tournament:
        where = W_TOURNAMENT
        if not isinstance(data, dict):
            raise ImportRefused(NOT_AN_OBJECT, params={"where": where})
        blank = Tournament()
        values: dict[str, Any] = {}
        for name in tournament_settings.SETTINGS_FIELDS:
            # A setting the document leaves out takes the model's default.
            values[name] = data[name] if name in data else getattr(blank, name)
        values["name"] = _field(data, "name", where, _name)
        values["slug"] = self.slug or _field(data, "slug", where, _name)
        values["date"] = _field(data, "date", where, _day)
        if values["time_limit_mode"] is None:
            values["time_limit_mode"] = ""
        try:
            tournament_settings.validate_settings(values)
        except DomainError as refusal:
            raise ImportRefused(SETTINGS_REFUSED, params={"reason": refusal}) from None
        status = _field(data, "status", where, _choice(Tournament.Status))
        lot_seed = _field(data, "lot_seed", where, _whole, default=None)
        return Tournament.objects.create(**values, status=status, lot_seed=lot_seed)

    def clubs(self, rows: list) -> dict[str, Club]:
        clubs: dict[str, Club] = {}
        for index, row in enumerate(rows, start=1):
            where = _where(W_CLUB, index=index)
            name = _field(row, "name", where, _name)
            short = _field(row, "short_name", where, _text, default="").strip()
            if name in clubs:
                raise ImportRefused(DUPLICATE_CLUB, params={"name": name})
            if len(name) > 120 or len(short) > 20:
                raise ImportRefused(
                    FIELD_INVALID, params={"where": where, "field": "name", "value": _short(name)}
                )
            clubs[name], _ = Club.objects.get_or_create(name=name, defaults={"short_name": short})
        return clubs

    def create_players(self, tournament: Tournament, rows: list, clubs: dict[str, Club]) -> None:
        new: list[tuple[str, Player]] = []
        names: set[str] = set()
        for index, row in enumerate(rows, start=1):
            where = _where(W_PLAYER, index=index)
            key = _field(row, "key", where, _name)
            if key == rules.BANK:
                raise ImportRefused(
                    FIELD_INVALID, params={"where": where, "field": "key", "value": _short(key)}
                )
            if key in self.players or any(key == k for k, _ in new):
                raise ImportRefused(DUPLICATE_PLAYER_KEY, params={"key": key})
            name = _field(row, "name", where, _name)
            if len(name) > 120:
                raise ImportRefused(
                    FIELD_INVALID, params={"where": where, "field": "name", "value": _short(name)}
                )
            if name.lower() in names:
                raise ImportRefused(DUPLICATE_PLAYER_NAME, params={"name": name})
            names.add(name.lower())
            club_name = _field(row, "club", where, _text, default=None)
            if club_name is not None and club_name not in clubs:
                raise ImportRefused(UNKNOWN_CLUB, params={"where": where, "club": club_name})
            email = _field(row, "email", where, _text, default="").strip()
            if len(email) > 254:
                raise ImportRefused(
                    FIELD_INVALID, params={"where": where, "field": "email", "value": _short(email)}
                )
            player = Player(
                tournament=tournament,
                name=name,
                club=clubs[club_name] if club_name is not None else None,
                email=email,
                public_name_consent=_field(row, "public_name_consent", where, _flag, default=False),
                checked_in=_field(row, "checked_in", where, _flag, default=False),
                dropped_out=_field(row, "dropped_out", where, _flag, default=False),
                dropped_out_at=_field(row, "dropped_out_at", where, _moment, default=None),
                private_note=_field(row, "private_note", where, _text, default=""),
            )
            new.append((key, player))
        ids = [int(key) if key.isdigit() and len(key) < 19 else 0 for key, _ in new]
        self.kept_ids = bool(new) and all(ids) and not Player.objects.filter(pk__in=ids).exists()
        if self.kept_ids:
            for player_id, (_, player) in zip(ids, new, strict=True):
                player.pk = player_id
        # In the document's order (the exporting server's id order): ties that fall back on
        # the order of ids break the same way here.
        created = Player.objects.bulk_create([player for _, player in new])
        if self.kept_ids:
            _reset_sequence(Player)
        self.players = {key: player for (key, _), player in zip(new, created, strict=True)}

    def player(self, key: Any, where: Any) -> Player:
        if not isinstance(key, str) or key not in self.players:
            shown = key if isinstance(key, str) else _short(key)
            raise ImportRefused(UNKNOWN_PLAYER, params={"where": where, "player": shown})
        return self.players[key]

    def user(self, username: str | None) -> User | None:
        """An existing user of that name, else a new one without a usable password."""
        if username is None:
            return None
        if username not in self.users:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User(username=username)
                user.set_unusable_password()
                user.save()
            self.users[username] = user
        return self.users[username]

    def create_rounds(self, tournament: Tournament, rows: list) -> None:
        numbers: set[int] = set()
        for index, row in enumerate(rows, start=1):
            number = _field(row, "number", _where(W_ROUND_AT, index=index), _positive)
            if number in numbers:
                raise ImportRefused(DUPLICATE_ROUND, params={"round": number})
            numbers.add(number)
        for row in sorted(rows, key=lambda row: row["number"]):
            self.create_round(tournament, row)

    def create_round(self, tournament: Tournament, row: dict[str, Any]) -> None:
        number = row["number"]
        where = _where(W_ROUND, round=number)
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            kind=_field(row, "kind", where, _choice(Round.Kind)),
            status=_field(row, "status", where, _choice(Round.Status)),
            started_at=_field(row, "started_at", where, _moment, default=None),
            closed_at=_field(row, "closed_at", where, _moment, default=None),
            version=_field(row, "version", where, _whole, default=0),
        )
        tables = _field(row, "tables", where, _array, default=[])
        table_numbers: set[int] = set()
        seated: set[str] = set()
        layout = []
        for index, data in enumerate(tables, start=1):
            table_number = _field(
                data, "number", _where(W_TABLE_AT, round=number, index=index), _positive
            )
            if table_number in table_numbers:
                raise ImportRefused(DUPLICATE_TABLE, params={"round": number, "table": table_number})
            table_numbers.add(table_number)
            here = _where(W_TABLE, round=number, table=table_number)
            keys = _field(data, "seats", here, _array)
            if not keys:
                raise ImportRefused(EMPTY_TABLE, params={"round": number, "table": table_number})
            for key in keys:
                player = self.player(key, here)
                if key in seated:
                    raise ImportRefused(
                        SEATED_TWICE, params={"round": number, "player": player.name}
                    )
                seated.add(key)
            layout.append((table_number, data, keys, here))

        seats = []
        created = []
        for table_number, data, keys, here in sorted(layout, key=lambda item: item[0]):
            banker_name = _field(data, "banker", here, _username, default=None)
            banker = (
                tournament_services.get_or_create_banker(username=banker_name)
                if banker_name is not None
                else None
            )
            table = Table.objects.create(round=round_, number=table_number, banker=banker)
            if banker is not None and round_.status != Round.Status.COMPLETE:
                # Links are secrets of the exporting server: the bankers get new ones here.
                tournament_services.issue_link(table=table, banker=banker)
            seats.extend(
                Seat(round=round_, table=table, player=self.players[key], position=position)
                for position, key in enumerate(keys, start=1)
            )
            created.append((table, data, keys, here))
        Seat.objects.bulk_create(seats)
        for table, data, keys, here in created:
            self.create_game(round_, table, data, keys, here)

    def create_game(
        self, round_: Round, table: Table, data: dict[str, Any], keys: list[str], here: Any
    ) -> None:
        game_data = _field(data, "game", here, _object, default=None)
        result_data = _field(data, "result", here, _object, default=None)
        if game_data is None:
            if result_data is not None:
                raise ImportRefused(RESULT_WITHOUT_GAME, params={"where": here})
            self.check_complete(round_, table, None)
            return
        record = _field(game_data, "record", here, _object)
        seat_order = record.get("players")
        if not isinstance(seat_order, list) or not all(isinstance(k, str) for k in seat_order):
            raise ImportRefused(
                BAD_RECORD,
                params={"where": here, "reason": "players must be a list of player keys"},
            )
        for key in seat_order:
            self.player(key, here)
        if sorted(seat_order) != sorted(keys):
            raise ImportRefused(RECORD_PLAYERS, params={"where": here})
        events = record.get("events", [])
        if not isinstance(events, list):
            raise ImportRefused(BAD_RECORD, params={"where": here, "reason": "events must be a list"})
        envelope = {**record, "players": [self.new_key(k) for k in seat_order], "events": []}
        try:
            parsed = rules.parse_record(envelope)
        except rules.RecordError as exc:
            raise ImportRefused(BAD_RECORD, params={"where": here, "reason": exc.reason}) from None
        code = _field(game_data, "confirmation_code", here, _text, default="")
        if not (len(code) == 4 and code.isdigit()):
            code = f"{secrets.randbelow(10_000):04d}"
        overrides = envelope.get("overrides") or {}
        game = Game.objects.create(
            table=table,
            ruleset=envelope["ruleset"],
            board=parsed.board.key,
            overrides=dict(overrides),
            ledger=parsed.ledger,
            players=envelope["players"],
            confirmation_code=code,
        )
        self.game_ids.append(game.pk)
        mapped = [self.map_event(event) for event in events]
        try:
            referee_services.load_events(game_id=game.pk, events=mapped)
        except referee_errors.EventRefused as refusal:
            raise ImportRefused(
                EVENT_REFUSED, params={"where": here, "reason": _RefusalLine(refusal)}
            ) from None
        except rules.RefereeError as exc:  # e.g. an unreadable "at"
            raise ImportRefused(BAD_RECORD, params={"where": here, "reason": str(exc)}) from None
        authors = _field(game_data, "authors", here, _array, default=[])
        if authors:
            self.set_authors(game, authors, len(events), here)
        seen = _field(game_data, "banker_seen_at", here, _moment, default=None)
        if seen is not None:
            Game.objects.filter(pk=game.pk).update(banker_seen_at=seen)
        result = self.create_result(game, keys, result_data, here) if result_data else None
        self.check_complete(round_, table, result)

    def new_key(self, key: str) -> str:
        return referee_services.player_key(self.players[key].pk)

    def map_event(self, event: Any) -> Any:
        if not isinstance(event, dict):
            return event  # the engine refuses it with its own reason
        mapped = dict(event)
        for name in PLAYER_FIELDS:
            value = mapped.get(name)
            if isinstance(value, str) and value in self.players:
                mapped[name] = self.new_key(value)
        return mapped

    def set_authors(self, game: Game, authors: list, count: int, here: Any) -> None:
        if len(authors) != count:
            raise ImportRefused(AUTHORS_LENGTH, params={"where": here})
        by_author: dict[str, list[int]] = defaultdict(list)
        for seq, username in enumerate(authors):
            if username is None:
                continue
            try:
                by_author[_username(username)].append(seq)
            except (ValueError, TypeError):
                raise ImportRefused(
                    FIELD_INVALID,
                    params={"where": here, "field": "authors", "value": _short(username)},
                ) from None
        for username, seqs in by_author.items():
            GameEvent.objects.filter(game=game, seq__in=seqs).update(author=self.user(username))

    def create_result(
        self, game: Game, keys: list[str], data: dict[str, Any], table_where: Any
    ) -> GameResult:
        round_number, table_number = game.table.round.number, game.table.number
        where = _where(W_RESULT, round=round_number, table=table_number)
        status = Game.objects.filter(pk=game.pk).values_list("status", flat=True).get()
        if status != Game.Status.FINISHED:
            raise ImportRefused(RESULT_BEFORE_END, params={"where": table_where})
        rows = _field(data, "placements", where, _array)
        placements = []
        for index, row in enumerate(rows, start=1):
            here = _where(W_PLACEMENT, round=round_number, table=table_number, index=index)
            placements.append(
                Placement(
                    player=self.player(_field(row, "player", here, _text), here),
                    place=_field(row, "place", here, _positive),
                    net_worth=_field(row, "net_worth", here, _whole),
                    bankrupt=_field(row, "bankrupt", here, _flag, default=False),
                    breakdown=_field(row, "breakdown", here, _object, default={}),
                )
            )
        if sorted(p.player.pk for p in placements) != sorted(self.players[k].pk for k in keys):
            raise ImportRefused(RESULT_PLAYERS, params={"where": table_where})
        result = GameResult.objects.create(
            game=game,
            status=_field(data, "status", where, _choice(GameResult.Status)),
            counted_at=_field(data, "counted_at", where, _moment, default=timezone.now()),
            counted_by=self.user(_field(data, "counted_by", where, _username, default=None)),
            confirmed_at=_field(data, "confirmed_at", where, _moment, default=None),
            confirmed_by=self.user(_field(data, "confirmed_by", where, _username, default=None)),
            confirmed_via=_field(data, "confirmed_via", where, _text, default="")[:20],
            dispute_note=_field(data, "dispute_note", where, _text, default=""),
            resolved_note=_field(data, "resolved_note", where, _text, default=""),
        )
        for placement in placements:
            placement.result = result
        Placement.objects.bulk_create(placements)
        return result

    @staticmethod
    def check_complete(round_: Round, table: Table, result: GameResult | None) -> None:
        if round_.status == Round.Status.COMPLETE and (
            result is None or result.status != GameResult.Status.CONFIRMED
        ):
            raise ImportRefused(
                ROUND_NOT_CONFIRMED, params={"round": round_.number, "table": table.number}
            )


def _reset_sequence(model) -> None:
    """After rows were inserted with explicit ids, the next generated id must follow them
    (PostgreSQL's sequences do not notice; SQLite needs nothing)."""
    statements = connection.ops.sequence_reset_sql(no_style(), [model])
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


def _object(value: Any) -> dict:
    if not isinstance(value, dict):
        raise ValueError
    return value


class _RefusalLine:
    """The engine's one-line refusal (``event 17 (build schlossallee): …``) in the language
    the message is shown in."""

    def __init__(self, refusal: referee_errors.EventRefused) -> None:
        self.violation = refusal.violation

    def __str__(self) -> str:
        language = translation.get_language() or "de"
        return self.violation.line("de" if language.startswith("de") else "en")
