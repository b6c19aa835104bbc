"""The import: rebuild a tournament from an export document (see ``exchange``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from config.errors import DomainError
from exchange.document import (
    ImportRefused,
    _array,
    _choice,
    _day,
    _field,
    _flag,
    _invalid,
    _moment,
    _name,
    _object,
    _positive,
    _shown_name,
    _text,
    _username,
    _where,
    _whole,
    parse_document,
)
from exchange.errors import (
    DATABASE_REFUSED,
    DUPLICATE_ROUND,
    DUPLICATE_TABLE,
    EMPTY_TABLE,
    NOT_AN_OBJECT,
    SEATED_TWICE,
    SETTINGS_REFUSED,
    STANDINGS_DIFFER,
    W_DOCUMENT,
    W_ROUND,
    W_ROUND_AT,
    W_TABLE,
    W_TABLE_AT,
    W_TOURNAMENT,
)
from exchange.import_games import GameImport
from referee import engine_cache
from referee.models import Placement
from scoring.models import Scope
from scoring.standings import selectors
from scoring.standings.services import recompute_standings
from tournament import audit
from tournament import tournaments as tournament_settings
from tournament.models import (
    BankerLink,
    Incident,
    Player,
    Round,
    Seat,
    Signup,
    SignupSettings,
    Table,
    Tournament,
)
from tournament.players import services as tournament_players
from tournament.rounds import bankers
from tournament.signup import selectors as signup_selectors


@dataclass(frozen=True)
class ImportOutcome:
    tournament: Tournament
    #: The players kept their ids from the export (possible when those ids are free here).
    kept_ids: bool
    #: Warnings a person should read (lazily translated).
    warnings: list[Any]
    #: What came over as it was (moving up): player codes, banker links, audit entries.
    moved: Moved | None = None


@dataclass
class Moved:
    """Counts of what kept its identity on the importing server, and what did not."""

    codes_kept: int = 0
    codes_new: int = 0  # taken here already (or missing/invalid in the document)
    links_kept: int = 0
    links_new: int = 0
    audit_entries: int = 0


def import_tournament(data: bytes | str | dict, *, slug: str | None = None) -> Tournament:
    """Rebuild the tournament of an export; see :func:`import_document`."""
    return import_document(data, slug=slug).tournament


def import_document(
    data: bytes | str | dict, *, slug: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportOutcome:
    """Rebuild the tournament of an export; ``slug`` replaces the document's short name.

    One transaction: any refusal (a bad field, an unknown player, an event the rules engine
    refuses, a taken slug) raises :class:`ImportRefused` (or the settings' own DomainError)
    and nothing is saved.

    Players keep their ids from the export when those are all free here and not far above
    the ids this server gives out (always so in an empty database, unless a key is huge): the drawn lot (a hash of the seed and the player's id) then repeats
    exactly. Otherwise they get new ids, and the outcome warns if the recomputed standings
    differ from the ones in the document.
    """
    document = parse_document(data)
    importer = _Importer(document, slug=slug, progress=progress)
    try:
        with transaction.atomic():
            tournament = importer.run()
    except IntegrityError as exc:
        importer.forget_engines()
        raise ImportRefused(DATABASE_REFUSED, params={"reason": str(exc)}) from None
    except BaseException:
        importer.forget_engines()
        raise
    return ImportOutcome(tournament, importer.kept_ids, importer.warnings, importer.moved)


class _Importer(GameImport):
    """One import: the tournament, its clubs, players, rounds and tables, incidents, audit
    entries and sign-ups (the games: :class:`~exchange.import_games.GameImport`)."""

    def __init__(
        self, document: dict[str, Any], *, slug: str | None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.document = document
        self.slug = slug
        self.progress = progress or (lambda done, total: None)
        self.tables_done = 0
        self.tables_total = sum(
            len(row.get("tables") or []) for row in (document.get("rounds") or [])
            if isinstance(row, dict) and isinstance(row.get("tables") or [], list)
        )
        self.players: dict[str, Player] = {}  # document key -> new player
        self.users: dict[str, User] = {}
        self.game_ids: list[int] = []
        self.kept_ids = False
        self.warnings: list[Any] = []
        self.moved = Moved()

    def link(self, table: Table, banker: User, data: dict[str, Any]) -> None:
        """The exported link's nonce where it is free here (the card's token then verifies
        with the same secret key); else a new link."""
        nonce = data.get("link")
        if (isinstance(nonce, str) and 0 < len(nonce) <= 32
                and not BankerLink.objects.filter(nonce=nonce).exists()):
            BankerLink.objects.create(table=table, banker=banker, nonce=nonce)
            self.moved.links_kept += 1
        else:
            bankers.issue_link(table=table, banker=banker)
            self.moved.links_new += 1

    def create_incidents(self, tournament: Tournament, rows: list) -> None:
        """Penalties travel with the tournament: its standings depend on them."""
        for row in rows:
            Incident.objects.create(
                tournament=tournament,
                player=self.player(_field(row, "player", W_DOCUMENT, _text), W_DOCUMENT),
                level=_field(row, "level", W_DOCUMENT, _choice(Incident.Level)),
                points=_field(row, "points", W_DOCUMENT, _whole, default=0),
                note=_field(row, "note", W_DOCUMENT, _text, default=""),
                round_number=_field(row, "round", W_DOCUMENT, _positive, default=None),
                table_number=_field(row, "table", W_DOCUMENT, _positive, default=None),
                recorded_by=self.user(_field(row, "recorded_by", W_DOCUMENT, _username,
                                             default=None)),
            )

    def audit_target(self, tournament: Tournament) -> Callable[[dict], tuple[type, int] | None]:
        """Where an exported audit entry belongs here: an entry on a result's line (its
        ``target_key``: round, table, player key) under that line as imported, so that
        ``manage.py verify`` finds an amendment on the copy too. None: under the tournament
        (an older document's entries carry no key; a line that is not in the document)."""
        keys = {player.pk: key for key, player in self.players.items()}
        placements = {
            (round_number, table_number, keys.get(player)): pk
            for pk, round_number, table_number, player in Placement.objects.filter(
                result__game__table__round__tournament=tournament).values_list(
                "pk", "result__game__table__round__number", "result__game__table__number",
                "player_id")
        }

        def target(row: dict) -> tuple[type, int] | None:
            key = row.get("target_key")
            if row.get("model") != "placement" or not isinstance(key, dict):
                return None
            natural = (key.get("round"), key.get("table"), key.get("player"))
            if not (type(natural[0]) is int and type(natural[1]) is int
                    and isinstance(natural[2], str)):
                return None
            pk = placements.get(natural)
            return (Placement, pk) if pk is not None else None

        return target

    def create_signups(self, tournament: Tournament, signup: dict | None) -> None:
        """The public sign-up moves with the tournament: its settings and every sign-up (a
        registered one with its player, the waiting list in its order, the keys of the links
        already mailed). The mails stay in the old server's outbox."""
        if signup is None:
            return
        settings = _field(signup, "settings", W_DOCUMENT, _object)
        SignupSettings.objects.create(
            tournament=tournament,
            is_open=_field(settings, "open", W_DOCUMENT, _flag, default=False),
            opens_at=_field(settings, "opens_at", W_DOCUMENT, _moment, default=None),
            closes_at=_field(settings, "closes_at", W_DOCUMENT, _moment, default=None),
            capacity=_field(settings, "capacity", W_DOCUMENT, _positive, default=None),
            waiting_list=_field(settings, "waiting_list", W_DOCUMENT, _flag, default=True),
            entry_fee=_field(settings, "entry_fee", W_DOCUMENT, _text, default="")[:200],
        )
        for row in _field(signup, "signups", W_DOCUMENT, _array, default=[]):
            email = _field(row, "email", W_DOCUMENT, _name)
            if not tournament_players.valid_email(email):
                raise _invalid(W_DOCUMENT, "email", email)
            player = _field(row, "player", W_DOCUMENT, _text, default=None)
            status = _field(row, "status", W_DOCUMENT, _choice(Signup.Status))
            fields = {
                "name": _field(row, "name", W_DOCUMENT, _name)[:120], "email": email[:254],
                "email_key": signup_selectors.email_key(email)[:254],
                "club": _field(row, "club", W_DOCUMENT, _text, default="")[:120],
                "public_name_consent": _field(row, "public_name_consent", W_DOCUMENT, _flag,
                                              default=False),
                "language": _field(row, "language", W_DOCUMENT, _text, default="de")[:8],
                "status": status,
                "player": self.player(player, W_DOCUMENT) if player is not None else None,
                "confirmed_at": _field(row, "confirmed", W_DOCUMENT, _moment, default=None),
                "waiting_since": _field(row, "waiting_since", W_DOCUMENT, _moment, default=None),
                "withdrawn_at": _field(row, "withdrawn", W_DOCUMENT, _moment, default=None),
                "fee_paid_at": _field(row, "fee_paid", W_DOCUMENT, _moment, default=None),
            }
            key = _field(row, "key", W_DOCUMENT, _text, default="")
            if key and len(key) <= 64 and not Signup.objects.filter(token=key).exists():
                fields["token"] = key
            try:
                with transaction.atomic():
                    created = Signup.objects.create(tournament=tournament, **fields)
            except IntegrityError:  # the same address twice, a waiting one without a time
                raise _invalid(W_DOCUMENT, "signup", email) from None
            signed_up = _field(row, "signed_up", W_DOCUMENT, _moment, default=None)
            if signed_up is not None:
                Signup.objects.filter(pk=created.pk).update(created_at=signed_up)

    def forget_engines(self) -> None:
        # Engines cached for games that were rolled back must not outlive them.
        for game_id in self.game_ids:
            engine_cache.forget(game_id)

    # ----------------------------------------------------------------------- the parts

    def run(self) -> Tournament:
        doc = self.document
        tournament = self.tournament(_field(doc, "tournament", W_DOCUMENT, _object))
        clubs = self.clubs(tournament, _field(doc, "clubs", W_DOCUMENT, _array, default=[]))
        self.create_players(tournament, _field(doc, "players", W_DOCUMENT, _array), clubs)
        rounds = _field(doc, "rounds", W_DOCUMENT, _array, default=[])
        self.create_rounds(tournament, rounds)
        winner = _field(doc["tournament"], "winner", W_TOURNAMENT, _text, default=None)
        if winner is not None:
            tournament.winner = self.player(winner, W_TOURNAMENT)
            tournament.save(update_fields=["winner"])
        self.create_incidents(tournament, _field(doc, "incidents", W_DOCUMENT, _array, default=[]))
        self.moved.audit_entries = audit.import_entries(
            tournament, _field(doc, "audit", W_DOCUMENT, _array, default=[]),
            target=self.audit_target(tournament))
        self.create_signups(tournament, _field(doc, "signup", W_DOCUMENT, _object, default=None))
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
        values["name"] = _field(data, "name", where, _shown_name)
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
        layout = self.table_layout(number, _field(row, "tables", where, _array, default=[]))
        self.create_tables(round_, layout)

    def table_layout(self, number: int, tables: list) -> list[tuple[int, Any, list, Any]]:
        """(number, data, player keys, where) of each table of a round, each player once."""
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
        return layout

    def create_tables(self, round_: Round, layout: list[tuple[int, Any, list, Any]]) -> None:
        """The round's tables in their order, with bankers, seats and games."""
        seats = []
        created = []
        for table_number, data, keys, here in sorted(layout, key=lambda item: item[0]):
            banker_name = _field(data, "banker", here, _username, default=None)
            banker = (
                bankers.get_or_create_banker(
                    username=banker_name, tournament=round_.tournament
                )
                if banker_name is not None
                else None
            )
            table = Table.objects.create(round=round_, number=table_number, banker=banker)
            if banker is not None and round_.status != Round.Status.COMPLETE:
                self.link(table, banker, data)
            seats.extend(
                Seat(round=round_, table=table, player=self.players[key], position=position)
                for position, key in enumerate(keys, start=1)
            )
            created.append((table, data, keys, here))
        Seat.objects.bulk_create(seats)
        for table, data, keys, here in created:
            self.create_game(round_, table, data, keys, here)
            self.tables_done += 1
            self.progress(self.tables_done, self.tables_total)  # a job's progress bar
