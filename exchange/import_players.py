"""The import's people: the clubs and players of the document, checked and created, and the
accounts it names (see :mod:`exchange.importer`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Max

from config.inputs import visible_text
from exchange.document import (
    ImportRefused,
    _field,
    _flag,
    _invalid,
    _moment,
    _name,
    _positive,
    _short,
    _shown_name,
    _text,
    _where,
)
from exchange.errors import (
    DUPLICATE_CLUB,
    DUPLICATE_PLAYER_KEY,
    DUPLICATE_PLAYER_NAME,
    UNKNOWN_CLUB,
    UNKNOWN_PLAYER,
    W_CLUB,
    W_PLAYER,
)
from referee import rules
from tournament.models import (
    PASS_CODE_ALPHABET,
    PASS_CODE_LENGTH,
    PRIVATE_NOTE_MAX,
    Club,
    Player,
    Tournament,
)

#: How far above this server's highest player id an import may keep the document's ids.
KEEP_IDS_WITHIN = 1_000_000


class PlayerImport:
    """The players part of the importer: clubs, players (``players``: document key →
    player) and the accounts named (``users``); counts what kept its identity in ``moved``."""

    players: dict[str, Player]
    users: dict[str, User]
    kept_ids: bool

    @staticmethod
    def code_is_free(code: str, new: list) -> bool:
        """A well-formed personal code nobody here (nor another imported player) has."""
        well_formed = len(code) == PASS_CODE_LENGTH and all(c in PASS_CODE_ALPHABET for c in code)
        return (well_formed and all(player.pass_code != code for _, player in new)
                and not Player.objects.filter(pass_code=code).exists())

    def clubs(self, tournament: Tournament, rows: list) -> dict[str, Club]:
        clubs: dict[str, Club] = {}
        for index, row in enumerate(rows, start=1):
            where = _where(W_CLUB, index=index)
            name = _field(row, "name", where, _shown_name)
            short = _field(row, "short_name", where, _text, default="").strip()
            if name in clubs:
                raise ImportRefused(DUPLICATE_CLUB, params={"name": name})
            if len(name) > 120 or len(short) > 20:
                raise _invalid(where, "name", name)
            clubs[name] = Club.objects.create(tournament=tournament, name=name, short_name=short)
        return clubs

    def create_players(self, tournament: Tournament, rows: list, clubs: dict[str, Club]) -> None:
        new: list[tuple[str, Player]] = []
        names: set[str] = set()
        ranks: set[int] = set()
        for index, row in enumerate(rows, start=1):
            where = _where(W_PLAYER, index=index)
            key = _field(row, "key", where, _name)
            if key == rules.BANK:
                raise _invalid(where, "key", key)
            if key in self.players or any(key == k for k, _ in new):
                raise ImportRefused(DUPLICATE_PLAYER_KEY, params={"key": key})
            player = self.new_player(tournament, row, where, clubs, names=names)
            code = _field(row, "pass_code", where, _text, default="")
            if self.code_is_free(code, new):
                player.pass_code = code
                self.moved.codes_kept += 1
            else:
                self.moved.codes_new += 1
            rank = player.alternate_rank
            if rank is not None and (rank > 32767 or rank in ranks):  # a standby's rank: unique
                raise _invalid(where, "alternate_rank", rank)
            ranks.add(rank)
            new.append((key, player))
        self.keep_ids(new)
        # In the document's order (the exporting server's id order): ties that fall back on
        # the order of ids break the same way here.
        created = Player.objects.bulk_create([player for _, player in new])
        if self.kept_ids:
            _reset_sequence(Player)
        self.players = {key: player for (key, _), player in zip(new, created, strict=True)}

    @staticmethod
    def new_player(
        tournament: Tournament, row: Any, where: Any, clubs: dict[str, Club], *, names: set[str]
    ) -> Player:
        """A player of the document, checked (not saved); ``names`` are those seen so far."""
        name = _field(row, "name", where, _shown_name)
        if len(name) > 120:
            raise _invalid(where, "name", name)
        if name.lower() in names:
            raise ImportRefused(DUPLICATE_PLAYER_NAME, params={"name": name})
        names.add(name.lower())
        club_name = _field(row, "club", where, _text, default=None)
        if club_name is not None:  # named as the clubs above were cleaned
            club_name = " ".join(visible_text(club_name).split())
        if club_name is not None and club_name not in clubs:
            raise ImportRefused(UNKNOWN_CLUB, params={"where": where, "club": club_name})
        email = _field(row, "email", where, _text, default="").strip()
        if len(email) > 254:
            raise _invalid(where, "email", email)
        note = _field(row, "private_note", where, _text, default="")
        if len(note) > PRIVATE_NOTE_MAX:
            raise _invalid(where, "private_note", note)
        return Player(
            tournament=tournament,
            name=name,
            club=clubs[club_name] if club_name is not None else None,
            email=email,
            public_name_consent=_field(row, "public_name_consent", where, _flag, default=False),
            checked_in=_field(row, "checked_in", where, _flag, default=False),
            dropped_out=_field(row, "dropped_out", where, _flag, default=False),
            dropped_out_at=_field(row, "dropped_out_at", where, _moment, default=None),
            private_note=note,
            alternate_rank=_field(row, "alternate_rank", where, _positive, default=None),
        )

    def keep_ids(self, new: list[tuple[str, Player]]) -> None:
        """The players keep the document's keys as ids where all are free here and near."""
        ids = [int(key) if key.isdigit() and len(key) < 19 else 0 for key, _ in new]
        # Kept only near the ids this server gives out: the next generated id follows the
        # highest, so a key of 999999999999999999 would move every later player's id to
        # 10^18 (beyond what JavaScript counts exactly) — those players get new ids instead.
        highest = Player.objects.aggregate(highest=Max("pk"))["highest"] or 0
        self.kept_ids = (
            bool(new) and all(ids) and max(ids) <= highest + len(new) + KEEP_IDS_WITHIN
            and not Player.objects.filter(pk__in=ids).exists()
        )
        if self.kept_ids:
            for player_id, (_, player) in zip(ids, new, strict=True):
                player.pk = player_id

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


def _reset_sequence(model) -> None:
    """After rows were inserted with explicit ids, the next generated id must follow them
    (PostgreSQL's sequences do not notice; SQLite needs nothing)."""
    statements = connection.ops.sequence_reset_sql(no_style(), [model])
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
