"""The import's games: each table's record replayed through the rules engine, its result
checked against the record (see :mod:`exchange.importer`)."""

from __future__ import annotations

import secrets
from collections import defaultdict
from typing import Any

from django.utils import timezone, translation

from exchange.document import (
    PLAYER_FIELDS,
    ImportRefused,
    _array,
    _choice,
    _field,
    _flag,
    _invalid,
    _moment,
    _object,
    _positive,
    _text,
    _username,
    _where,
    _whole,
)
from exchange.errors import (
    AUTHORS_LENGTH,
    BAD_RECORD,
    EVENT_REFUSED,
    RECORD_PLAYERS,
    RESULT_BEFORE_END,
    RESULT_CONTRADICTS,
    RESULT_PLAYERS,
    RESULT_WITHOUT_GAME,
    ROUND_NOT_CONFIRMED,
    W_PLACEMENT,
    W_RESULT,
)
from exchange.import_players import PlayerImport
from referee import engine_cache, rules
from referee import errors as referee_errors
from referee import services as referee_services
from referee.models import Game, GameEvent, GameResult, Placement
from tournament.models import Round, Table


class GameImport(PlayerImport):
    """The games part of the importer, on its players: ``game_ids`` notes each game (the
    importer forgets their engines if the import is rolled back)."""

    game_ids: list[int]

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
        events = self.check_record(record, keys, here)
        game = self.new_game(table, record, game_data, here)
        self.replay(game, events, here)
        authors = _field(game_data, "authors", here, _array, default=[])
        if authors:
            self.set_authors(game, authors, len(events), here)
        seen = _field(game_data, "banker_seen_at", here, _moment, default=None)
        if seen is not None:
            Game.objects.filter(pk=game.pk).update(banker_seen_at=seen)
        result = self.create_result(game, keys, result_data, here) if result_data else None
        self.check_complete(round_, table, result)

    def check_record(self, record: dict[str, Any], keys: list[str], here: Any) -> list:
        """The record's events, once its players are the table's."""
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
        return events

    def new_game(
        self, table: Table, record: dict[str, Any], game_data: dict[str, Any], here: Any
    ) -> Game:
        """The game as the record starts it (ruleset, board, overrides, players), no events."""
        envelope = {**record, "players": [self.new_key(k) for k in record["players"]],
                    "events": []}
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
        return game

    def replay(self, game: Game, events: list, here: Any) -> None:
        """Every event through the rules engine; one it refuses refuses the document."""
        mapped = [self.map_event(event) for event in events]
        try:
            referee_services.load_events(game_id=game.pk, events=mapped)
        except referee_errors.EventRefused as refusal:
            raise ImportRefused(
                EVENT_REFUSED, params={"where": here, "reason": _RefusalLine(refusal)}
            ) from None
        except rules.RefereeError as exc:  # e.g. an unreadable "at"
            raise ImportRefused(BAD_RECORD, params={"where": here, "reason": str(exc)}) from None

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
                raise _invalid(here, "authors", username) from None
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




class _RefusalLine:
    """The engine's one-line refusal (``event 17 (build schlossallee): …``) in the language
    the message is shown in."""

    def __init__(self, refusal: referee_errors.EventRefused) -> None:
        self.violation = refusal.violation

    def __str__(self) -> str:
        language = translation.get_language() or "de"
        return self.violation.line("de" if language.startswith("de") else "en")
