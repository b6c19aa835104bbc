"""Reads for the printouts, a chunk of tables at a time so that memory stays flat.

Each chunk is read with plain queries (a handful per chunk, whatever its size) into objects
that do not refer back to each other: ``prefetch_related`` and reverse ``select_related`` link
instances both ways, and such cycles are freed only by the cycle collector, late, so memory
would grow with the round.

Only public names leave this module for the public documents (score sheets, seating lists,
standings); the certificates use the full name, since they are handed to the player.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import transaction
from django.db.models import Count

from referee import engine_cache, rules
from referee import services as referee_services
from referee.models import Game, GameResult, Placement
from tournament import banker_links, names
from tournament.models import (
    BankerLink,
    Round,
    Seat,
    Table,
)
from tournament.players.services import pass_code_display
from tournament.rounds import services

#: Tables read per query batch: bounded memory for any size of round.
CHUNK = 50


@dataclass(frozen=True)
class SeatLine:
    position: int
    key: str  # the player's id in the game record
    name: str  # public name
    club: str


@dataclass(frozen=True)
class Worth:
    """A player's count; a part is None where a paper sheet gave the total alone."""

    place: int
    cash: int | None
    deeds: int | None
    mortgaged: int | None
    houses: int | None
    hotels: int | None
    total: int
    bankrupt: bool = False
    bankrupt_order: int | None = None  # from the paper sheet: 1 = first out


@dataclass(frozen=True)
class DeedMark:
    owner: int | None  # seat position of the owner
    houses: int
    hotel: bool
    mortgaged: bool


@dataclass
class SheetData:
    """Everything one score sheet shows."""

    table: int
    banker: str
    seats: list[SeatLine]
    code: str
    ruleset: rules.Ruleset
    board: rules.Board
    started_at: dt.datetime | None = None
    paused_seconds: float = 0.0
    ended_at: dt.datetime | None = None
    finished: bool = False
    result: str | None = None  # counted / confirmed / disputed
    from_paper: bool = False  # the result was entered from the paper sheet (no console record)
    deeds: dict[str, DeedMark] = field(default_factory=dict)
    worth: dict[str, Worth] = field(default_factory=dict)

    @property
    def prefilled(self) -> bool:
        return self.finished and bool(self.worth)


@lru_cache(maxsize=32)
def _ruleset(key: str, board_key: str, overrides: str) -> rules.Ruleset:
    ruleset = rules.get_ruleset(key)
    if overrides:
        ruleset = ruleset.with_overrides(json.loads(overrides))
    return ruleset.for_board(rules.get_board(board_key))


def ruleset_of(game: Game) -> rules.Ruleset:
    return _ruleset(game.ruleset, game.board, json.dumps(game.overrides or {}, sort_keys=True))


def seated_tables(round_: Round):
    return Table.objects.filter(round=round_).annotate(seat_count=Count("seats")).filter(
        seat_count__gt=0
    )


def largest_table(round_: Round) -> int:
    """The most players at one table of the round (0 if none is seated)."""
    return (
        Seat.objects.filter(round=round_)
        .values("table_id")
        .annotate(n=Count("pk"))
        .order_by("-n")
        .values_list("n", flat=True)
        .first()
        or 0
    )


def count_seated_tables(round_: Round) -> int:
    return seated_tables(round_).count()


def table_chunks(round_: Round) -> Iterator[list[Table]]:
    """The round's seated tables by number, ``CHUNK`` at a time (banker joined)."""
    ids = list(seated_tables(round_).order_by("number").values_list("pk", flat=True))
    for start in range(0, len(ids), CHUNK):
        part = ids[start:start + CHUNK]
        yield list(Table.objects.filter(pk__in=part).select_related("banker").order_by("number"))


def seats_by_table(tables: list[Table]) -> dict[int, list[SeatLine]]:
    seats = (
        Seat.objects.filter(table__in=tables)
        .select_related("player__club")
        .order_by("table_id", "position")
    )
    out: dict[int, list[SeatLine]] = {table.pk: [] for table in tables}
    for seat in seats:
        player = seat.player
        out[seat.table_id].append(SeatLine(
            position=seat.position,
            key=referee_services.player_key(seat.player_id),
            name=player.public_name,
            club=player.club.label if player.club_id and player.club else "",
        ))
    return out


def _replayed(game: Game) -> rules.Game:
    """The engine at the game's last event, without filling the console's engine cache."""
    engine = engine_cache.new_engine(game)
    engine.extend(list(game.events.order_by("seq").values_list("data", flat=True)))
    return engine


def _paper_prefill(sheet: SheetData, placements: list[Placement]) -> None:
    """A result from the paper sheet prints as entered: the parts written (blank where only the
    total was), the total, the place and the bankruptcy order; no deeds (the sheet entered
    none, and the interrupted record's are not the end of the game)."""
    for placement in placements:
        parts = placement.breakdown or {}
        written = not placement.bankrupt and any(key in parts for key in PARTS)
        sheet.worth[referee_services.player_key(placement.player_id)] = Worth(
            place=placement.place,
            **{key: (int(parts.get(key, 0)) if written else None) for key in PARTS},
            total=placement.net_worth,
            bankrupt=placement.bankrupt,
            bankrupt_order=parts.get("bankrupt_order"),
        )


PARTS = ("cash", "deeds", "mortgaged", "houses", "hotels")


def _prefill(sheet: SheetData, game: Game, placements: list[Placement]) -> None:
    if sheet.from_paper:
        _paper_prefill(sheet, placements)
        return
    engine = _replayed(game)
    state = engine.state
    position = {line.key: line.position for line in sheet.seats}
    max_houses = state.rules.max_houses
    for deed in sheet.board.deeds:
        owner = state.owner.get(deed.key)
        level = state.level.get(deed.key, 0)
        sheet.deeds[deed.key] = DeedMark(
            owner=position.get(owner) if owner else None,
            houses=0 if level > max_houses else level,
            hotel=level > max_houses,
            mortgaged=deed.key in state.mortgaged,
        )
    if placements:
        for placement in placements:
            parts = placement.breakdown or {}
            sheet.worth[referee_services.player_key(placement.player_id)] = Worth(
                place=placement.place,
                cash=parts.get("cash", 0),
                deeds=parts.get("deeds", 0),
                mortgaged=parts.get("mortgaged", 0),
                houses=parts.get("houses", 0),
                hotels=parts.get("hotels", 0),
                total=placement.net_worth,
                bankrupt=placement.bankrupt,
            )
        return
    for standing in rules.standings(state):
        parts = standing.breakdown
        sheet.worth[standing.player] = Worth(
            place=standing.place,
            cash=parts.cash,
            deeds=parts.deeds,
            mortgaged=parts.mortgaged,
            houses=parts.houses,
            hotels=parts.hotels,
            total=standing.net_worth,
            bankrupt=standing.bankrupt,
        )


def score_sheets(round_: Round) -> Iterator[SheetData]:
    """One :class:`SheetData` per seated table of the round, by table number.

    A read (printing is a GET): a table without a game yet gets the one its seating would
    give, unsaved. A finished game comes pre-filled from its record: the counted placements if
    there are any, else the engine's standings.
    """
    for tables in table_chunks(round_):
        seats = seats_by_table(tables)
        games = {game.table_id: game for game in Game.objects.filter(table__in=tables)}
        results = {
            result.game_id: result for result in GameResult.objects.filter(game__table__in=tables)
        }
        placements: dict[int, list[Placement]] = {}
        for placement in Placement.objects.filter(result__game__table__in=tables).order_by(
            "place"
        ):
            placements.setdefault(placement.result_id, []).append(placement)
        for table in tables:
            game = games.get(table.pk) or referee_services.game_from_seating(table=table)
            result = results.get(game.pk)
            sheet = SheetData(
                table=table.number,
                banker=names.account_name(table.banker),
                seats=seats[table.pk],
                code=game.confirmation_code if game.pk is not None else "",
                ruleset=ruleset_of(game),
                board=rules.get_board(game.board),
                started_at=game.started_at,
                paused_seconds=game.paused_seconds,
                ended_at=game.ended_at,
                finished=game.status == Game.Status.FINISHED,
                result=result.status if result is not None else None,
                from_paper=bool(result is not None and result.from_paper),
            )
            if sheet.finished:
                _prefill(sheet, game, placements.get(result.pk, []) if result else [])
            yield sheet


# --- seating, cards --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatingTable:
    number: int
    banker: str
    seats: list[SeatLine]


def seating(round_: Round) -> Iterator[SeatingTable]:
    for tables in table_chunks(round_):
        seats = seats_by_table(tables)
        for table in tables:
            yield SeatingTable(table.number, names.account_name(table.banker), seats[table.pk])


@dataclass(frozen=True)
class NameLine:
    name: str
    club: str
    table: int
    seat: int
    letter: str = ""  # the index letter: of the last name ("#" when not a letter)
    code: str = ""  # the staff copy: the player's personal code (their own page)


def seating_by_name(round_: Round, *, full_names: bool = False) -> list[NameLine]:
    """Every seated player by last name (DIN 5007), shown "Müller, Anna" where the name may
    be public (else initials and club, as on every public print); ``full_names``: the staff's
    copy, everyone by full name."""
    rows = Seat.objects.filter(round=round_).select_related("player__club", "table")
    keyed = []
    for seat in rows.iterator(chunk_size=500):
        player = seat.player
        public = full_names or player.public_name_consent
        shown = names.last_name_first(player.name) if public else None
        initial = names.sort_key(names.last_name(player.name))[0][:1].upper()
        line = NameLine(
            name=shown or player.public_name,
            club=player.club.label if player.club_id and player.club else "",
            table=seat.table.number,
            seat=seat.position,
            letter=initial if initial.isalpha() else "#",
            code=pass_code_display(player.pass_code) if full_names else "",
        )
        keyed.append(((names.last_name_key(player.name), line.table, line.seat), line))
    keyed.sort(key=lambda item: item[0])
    return [line for _key, line in keyed]


@dataclass(frozen=True)
class CardData:
    number: int
    banker: str
    link: str  # site-relative path of the live banker link
    players: int = 0  # seated at the table (4 or 5 at official tournaments, 6 at Karlsruhe)


def ensure_links(round_: Round) -> int:
    """Issue a banker link for each seated table without a live one (one transaction);
    returns how many were issued. Live links are kept: a card printed earlier stays valid."""
    tables = list(
        seated_tables(round_)
        .exclude(banker_links__revoked_at__isnull=True)
        .select_related("banker")
        .order_by("number")
    )
    with transaction.atomic():
        for table in tables:
            services.issue_link(table=table)
    return len(tables)


def _seat_counts(table_ids) -> dict[int, int]:
    return dict(
        Seat.objects.filter(table_id__in=table_ids)
        .values("table_id")
        .annotate(n=Count("pk"))
        .values_list("table_id", "n")
    )


def unchanged_cards(round_: Round) -> set[int]:
    """Tables whose last-round card still tells the truth: the live link is carried over (same
    banker, same table number, so the old card opens this table) and the table seats as many
    players as the card says (tables of 4 and 5 change from round to round)."""
    carried = dict(
        BankerLink.objects.filter(
            table__round=round_, revoked_at__isnull=True, carried_from__isnull=False
        ).values_list("table_id", "carried_from__table_id")
    )
    counts = _seat_counts([*carried, *carried.values()])
    return {now for now, before in carried.items() if counts.get(now) == counts.get(before)}


def cards(round_: Round, *, changed_only: bool = False) -> Iterator[CardData]:
    """Each seated table with its live banker link (issued first where missing). With
    ``changed_only`` only the tables whose card changed (see :func:`unchanged_cards`)."""
    ensure_links(round_)
    unchanged = unchanged_cards(round_) if changed_only else set()
    for tables in table_chunks(round_):
        links = {
            link.table_id: link
            for link in BankerLink.objects.filter(table__in=tables, revoked_at__isnull=True)
        }
        counts = _seat_counts([table.pk for table in tables])
        for table in tables:
            link = links.get(table.pk) or services.issue_link(table=table)  # issued meanwhile
            if table.pk in unchanged:
                continue
            yield CardData(table.number, names.account_name(table.banker),
                           banker_links.link_path(link), counts.get(table.pk, 0))


def count_changed_cards(round_: Round) -> int:
    """Tables whose card must be printed anew."""
    return seated_tables(round_).exclude(pk__in=unchanged_cards(round_)).count()


@dataclass(frozen=True)
class SlipData:
    table: int
    code: str


def code_slips(round_: Round) -> list[SlipData]:
    """Each seated table's confirmation code, by table number. A read: the games (and their
    codes) are created when the round is seated; a table without one yet has no code ("")."""
    codes = dict(Game.objects.filter(table__round=round_).values_list("table_id", "confirmation_code"))
    tables = (Table.objects.filter(round=round_, seats__isnull=False).distinct()
              .order_by("number").values_list("pk", "number"))
    return [SlipData(number, codes.get(pk, "")) for pk, number in tables]
