"""The import: rebuild a tournament from an export document (see ``scoring.exchange``)."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation

from config.errors import DomainError
from referee import engine_cache, rules
from referee import errors as referee_errors
from referee import services as referee_services
from referee.models import Game, GameEvent, GameResult, Placement
from scoring.models import Scope
from scoring.standings import selectors
from scoring.standings.services import recompute_standings
from tournament import services as tournament_services
from tournament import tournaments as tournament_settings
from tournament.models import Club, Incident, Player, Round, Seat, Table, Tournament

from ..errors import (
    AUTHORS_LENGTH,
    BAD_RECORD,
    DATABASE_REFUSED,
    DUPLICATE_CLUB,
    DUPLICATE_PLAYER_KEY,
    DUPLICATE_PLAYER_NAME,
    DUPLICATE_ROUND,
    DUPLICATE_TABLE,
    EMPTY_TABLE,
    EVENT_REFUSED,
    FIELD_INVALID,
    NOT_AN_OBJECT,
    RECORD_PLAYERS,
    RESULT_BEFORE_END,
    RESULT_CONTRADICTS,
    RESULT_PLAYERS,
    RESULT_WITHOUT_GAME,
    ROUND_NOT_CONFIRMED,
    SEATED_TWICE,
    SETTINGS_REFUSED,
    STANDINGS_DIFFER,
    UNKNOWN_CLUB,
    UNKNOWN_PLAYER,
    W_CLUB,
    W_DOCUMENT,
    W_PLACEMENT,
    W_PLAYER,
    W_RESULT,
    W_ROUND,
    W_ROUND_AT,
    W_TABLE,
    W_TABLE_AT,
    W_TOURNAMENT,
)
from .document import (
    PLAYER_FIELDS,
    ImportRefused,
    _array,
    _choice,
    _day,
    _field,
    _flag,
    _moment,
    _name,
    _object,
    _positive,
    _short,
    _text,
    _username,
    _where,
    _whole,
    parse_document,
)


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


def import_document(
    data: bytes | str | dict, *, slug: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportOutcome:
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
    return ImportOutcome(tournament, importer.kept_ids, importer.warnings)


class _Importer:
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

    def create_incidents(self, tournament: Tournament, rows: list) -> None:
        """Penalties travel with the tournament: its standings depend on them."""
        for row in rows:
            Incident.objects.create(
                tournament=tournament,
                player=self.player(_field(row, "player", W_DOCUMENT, _text), W_DOCUMENT),
                level=_field(row, "level", W_DOCUMENT, _choice(Incident.Level)),
                points=_field(row, "points", W_DOCUMENT, _whole, default=0),
                note=_field(row, "note", W_DOCUMENT, _text, default=""),
                recorded_by=self.user(_field(row, "recorded_by", W_DOCUMENT, _username,
                                             default=None)),
            )

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
        self.create_incidents(tournament, _field(doc, "incidents", W_DOCUMENT, _array, default=[]))
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
        ranks: set[int] = set()
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
                alternate_rank=_field(row, "alternate_rank", where, _positive, default=None),
            )
            rank = player.alternate_rank
            if rank is not None and (rank > 32767 or rank in ranks):  # a standby's rank: unique
                raise ImportRefused(
                    FIELD_INVALID, params={"where": where, "field": "alternate_rank", "value": rank}
                )
            ranks.add(rank)
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
                tournament_services.get_or_create_banker(
                    username=banker_name, tournament=round_.tournament
                )
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
            self.tables_done += 1
            self.progress(self.tables_done, self.tables_total)  # a job's progress bar

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
        from_paper = _field(data, "from_paper", where, _flag, default=False)
        if status != Game.Status.FINISHED:
            if not from_paper:
                raise ImportRefused(RESULT_BEFORE_END, params={"where": table_where})
            Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
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
        if not from_paper:
            self.check_against_record(game, placements, table_where)
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
            from_paper=from_paper,
        )
        for placement in placements:
            placement.result = result
        Placement.objects.bulk_create(placements)
        return result

    @staticmethod
    def check_against_record(game: Game, placements: list[Placement], where: Any) -> None:
        """A stored result must be what its record replays to (issue 14): otherwise the public
        state and the standings would contradict each other. Amended results say so."""
        game = Game.objects.get(pk=game.pk)
        replayed = {
            int(row.player): (row.place, row.net_worth)
            for row in rules.standings(engine_cache.engine_for(game).state)
        }
        for placement in placements:
            if placement.breakdown.get("amended"):
                continue
            place, worth = replayed.get(placement.player.pk, (None, None))
            if (place, worth) != (placement.place, placement.net_worth):
                raise ImportRefused(RESULT_CONTRADICTS, params={
                    "where": where, "player": placement.player.name, "replayed": place,
                    "worth": worth, "stored": placement.place,
                    "stored_worth": placement.net_worth,
                })

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



class _RefusalLine:
    """The engine's one-line refusal (``event 17 (build schlossallee): …``) in the language
    the message is shown in."""

    def __init__(self, refusal: referee_errors.EventRefused) -> None:
        self.violation = refusal.violation

    def __str__(self) -> str:
        language = translation.get_language() or "de"
        return self.violation.line("de" if language.startswith("de") else "en")
