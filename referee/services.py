"""Writes of the referee console: the game from its seating, the event log, the clock's
deadlines (the count and its confirmation: ``referee.results``). Every write locks the game
row, so two bankers racing on one table get one winner and one 409, never two events with one
sequence number.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.prepared import PreparedInsert, PreparedRead, PreparedUpdate
from referee import (
    engine_cache,
    errors,
    follow,
    glance,
    offline,
    rules,
    signals,
    writability,
)
from referee.event_schema import check_event_shape
from referee.models import (
    Game,
    GameEvent,
)
from tournament.models import Round, Table

SERVER_EVENTS = ("auction_stop", "time_up")


@dataclass(frozen=True)
class PostOutcome:
    event: GameEvent
    created: bool
    game: Game
    #: The game's result as ``selectors.result_summary`` gives it, read with the writability
    #: check (the answer's state needs no query of its own); ``UNREAD`` for a replayed post.
    result: dict[str, Any] | None | object = None


#: A result summary that was not read (the state's selector reads it then).
UNREAD = object()


# --------------------------------------------------------------------------- set-up


def tournament_overrides(tournament) -> dict[str, Any]:
    """The tournament's changes to its ruleset (time limit, auction stop, end mode)."""
    overrides: dict[str, Any] = {}
    if tournament.time_limit_minutes:
        overrides["time_limit_minutes"] = tournament.time_limit_minutes
    if tournament.auction_stop_minutes:
        overrides["auction_stop_minute"] = tournament.auction_stop_minutes
    if tournament.time_limit_mode:
        overrides["time_limit_mode"] = tournament.time_limit_mode
    return overrides


def player_key(player_id: int) -> str:
    """The opaque identifier a player has in game records."""
    return str(player_id)


def game_from_seating(*, table: Table) -> Game:
    """The game a table gets from its seating, not saved: a read shows it before anybody
    opened the console (GET requests never write); ``ensure_game`` saves it."""
    tournament = table.round.tournament
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    if not seats:
        raise errors.GameNotReady(errors.NO_SEATS, params={"table": table.number})
    return Game(
        table=table,
        ruleset=tournament.ruleset,
        board=tournament.board,
        overrides=tournament_overrides(tournament),
        players=[player_key(pid) for pid in seats],
        ledger=bool(getattr(tournament, "strict_cash", False)),
        confirmation_code=f"{secrets.randbelow(10_000):04d}",
    )


def follow_seating(game: Game, *, table: Table) -> dict[str, Any]:
    """An untouched game (no event yet) follows its table's seating and the tournament's time
    settings, in memory only: the changed fields (``ensure_game`` stores them; a read shows
    them without writing)."""
    if game.event_count != 0:
        return {}
    changed: dict[str, Any] = {}
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    players = [player_key(pid) for pid in seats]
    if seats and players != game.players:
        changed["players"] = players
    # A change of the time settings applies to every game that has not begun (one with the
    # head referee's extra minutes keeps its own times).
    overrides = tournament_overrides(table.round.tournament)
    if not game.extra_minutes and overrides != game.overrides:
        changed["overrides"] = overrides
    for field, value in changed.items():
        setattr(game, field, value)
    return changed


def ensure_game(*, table: Table) -> Game:
    """The table's game, created from its seating the first time it is needed (by a write:
    a read shows the unsaved :func:`game_from_seating`; not read again when the table was read
    with it: ``select_related("game")``)."""
    if Table.game.is_cached(table):
        existing = Table.game.related.get_cached_value(table)
    else:
        existing = Game.objects.filter(table=table).first()
    if existing is not None:
        changed = follow_seating(existing, table=table)
        if changed:
            existing.summary = changed["summary"] = summarize(engine_cache.new_engine(existing))
            Game.objects.filter(pk=existing.pk, event_count=0).update(**changed)
            engine_cache.forget(existing.pk)
            # A new state without an event: its ETag, the public tables and the follow poll
            # follow the new seating (the state API answered the old players with a 304).
            existing.table = table  # read with its round and tournament: no lookup again
            _after_change(existing)
        return existing
    game = game_from_seating(table=table)
    # Refuses an unknown ruleset/board before saving; the overview pages read the summary.
    game.summary = summarize(engine_cache.new_engine(game))
    try:
        with transaction.atomic():
            game.save()
    except IntegrityError:  # another request created it a moment earlier
        return Game.objects.get(table=table)
    return game


# --------------------------------------------------------------------------- the clock


def _minutes(value: int | None) -> dt.timedelta | None:
    return None if value is None else dt.timedelta(minutes=value)


def plan_deadlines(game: Game, engine: rules.Game) -> None:
    """Derive the clock fields and the wall-clock deadlines from the engine's state."""
    state = engine.state
    game.status = engine.status
    game.end_reason = engine.end_reason or ""
    game.started_at = state.clock_start
    game.paused_at = state.pause_started if state.paused else None
    game.paused_seconds = state.paused_total.total_seconds()
    game.auction_stop_done = bool(state.auction_stop)
    running = game.started_at is not None and not state.paused
    base = game.started_at + state.paused_total if game.started_at is not None else None
    stop = _minutes(engine.ruleset.auction_stop_minute)
    limit = _minutes(engine.ruleset.time_limit_minutes)
    live = game.status in (Game.Status.SETUP, Game.Status.RUNNING)
    game.auction_stop_due = (
        base + stop if running and live and stop and not state.auction_stop else None
    )
    game.time_up_due = base + limit if running and live and limit else None


def summarize(engine: rules.Game) -> dict[str, Any]:
    """What overview pages need without replaying: net worth per player and the leader — the
    one player still in the game ahead of all others; equal at the top, nobody leads (the first
    seat among equals read as "leading" on the public cards)."""
    state = engine.state
    worth = {key: rules.net_worth(state, key).total for key in state.players}
    active = [key for key in state.players if key not in state.bankrupt_set]
    top = sorted((worth[key] for key in active), reverse=True)
    ahead = len(top) == 1 or (len(top) > 1 and top[0] > top[1])
    leader = max(active, key=lambda key: worth[key]) if ahead else None
    return {
        "net_worth": worth,
        "leader": leader,
        "bankrupt": list(state.bankrupt),
        "unowned": len(rules.unowned_deeds(state)),
    }


def _due_server_event(game: Game, now: dt.datetime) -> dict | None:
    if game.auction_stop_due is not None and game.auction_stop_due <= now:
        return {"type": "auction_stop", "at": game.auction_stop_due.isoformat()}
    if game.time_up_due is not None and game.time_up_due <= now:
        return {"type": "time_up", "at": game.time_up_due.isoformat()}
    return None


def _enforce_locked(game: Game, engine: rules.Game, now: dt.datetime) -> list[GameEvent]:
    """Record the auction stop and the time limit that are due; safe to call any number of times."""
    recorded = []
    while (event := _due_server_event(game, now)) is not None:
        try:
            engine.apply(event)
        except rules.RuleViolation:
            # The state moved on (e.g. the game ended); nothing is due any more.
            game.auction_stop_due = game.time_up_due = None
            break
        recorded.append(_store(game, engine, event, author=None, key="", now=now))
    return recorded


def enforce_deadlines(*, game_id: int, now: dt.datetime | None = None) -> list[GameEvent]:
    """Timer entry point (Celery task, sweep, or the next request for the table)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if _due_server_event(game, now) is None:
            return []
        engine = engine_cache.engine_to_change(game)
        try:
            recorded = _enforce_locked(game, engine, now)
            game.save()
        except Exception:
            engine_cache.forget(game.pk)
            raise
    engine_cache.publish(game, engine)  # committed: readers may have it now
    if recorded:
        _after_change(game, events_added=True)
    return recorded


def due_games(*, now: dt.datetime | None = None) -> list[int]:
    now = now or timezone.now()
    from django.db.models import Q

    return list(
        Game.objects.filter(Q(auction_stop_due__lte=now) | Q(time_up_due__lte=now)).values_list(
            "pk", flat=True
        )
    )


# --------------------------------------------------------------------------- events


#: What a post changes in the game's row: ``_store`` (the count, the clock from
#: ``plan_deadlines``, the summary, the end) and the banker's last sight; ``updated_at`` is
#: ``auto_now`` (saved only when named).
POSTED_FIELDS = (
    "event_count", "last_event_at", "status", "end_reason", "started_at", "paused_at",
    "paused_seconds", "auction_stop_done", "auction_stop_due", "time_up_due", "summary",
    "ended_at", "banker_seen_at", "updated_at",
)


#: The post's two writes with their SQL written once (``config.prepared``; issue 29: their
#: compilation was half of the write's remaining CPU). Nobody listens to these models'
#: save signals (``tests/referee/test_prepared_reads.py`` checks).
_SAVE_POSTED = PreparedUpdate(Game, POSTED_FIELDS)
_INSERT_EVENT = PreparedInsert(GameEvent)


def _store(
    game: Game, engine: rules.Game, event: dict, *, author: User | None, key: str, now: dt.datetime
) -> GameEvent:
    row = _INSERT_EVENT.create(
        game=game,
        seq=game.event_count,
        type=event["type"],
        data=event,
        author=author,
        recorded_at=now,
        game_seconds=game.game_seconds(now) if game.started_at else None,
        idempotency_key=key,
    )
    game.event_count += 1
    game.last_event_at = now
    plan_deadlines(game, engine)
    game.summary = summarize(engine)
    if game.status == Game.Status.FINISHED and game.ended_at is None:
        # A time limit noticed late still ends the game at its deadline.
        game.ended_at = dt.datetime.fromisoformat(event["at"]) if event.get("at") else now
    elif game.status != Game.Status.FINISHED:
        game.ended_at = None
    return row


_LOCKED_GAME = PreparedRead(lambda table_id: Game.objects.select_for_update().filter(
    table_id=table_id))


def _locked_game(*, game_id: int | None, table: Table | None) -> tuple[Game, bool]:
    """The game row, locked, and whether it followed its seating in memory. By its table (the
    console API's path: the one query that finds the game also locks it; the first event
    creates the game from the seating, or follows a seating change made since the console was
    opened, in memory until the post saves the row: a refused first post stores nothing, a
    read follows the seating again), or by id."""
    followed = False
    if table is None:
        return Game.objects.select_for_update().get(pk=game_id), followed
    game = _LOCKED_GAME.first(table.pk)
    if game is None:
        game = Game.objects.select_for_update().get(pk=ensure_game(table=table).pk)
    elif follow_seating(game, table=table):
        # Untouched and the seating (or the time settings) changed: what ``ensure_game``
        # would store, on the row already locked (no second read); the post's save keeps it.
        engine_cache.forget(game.pk)
        followed = True
    game.table = table  # loaded by the caller with its round and tournament
    return game, followed


def _without_time(event: dict[str, Any]) -> dict[str, Any]:
    """An event as the banker sent it: the server sets ``at`` (and ``made_at``)."""
    return {key: value for key, value in event.items() if key not in ("at", "made_at")}


def post_event(
    *,
    game_id: int | None = None,
    table: Table | None = None,
    event: dict[str, Any],
    author: User | None,
    expected_seq: int | None = None,
    idempotency_key: str = "",
    now: dt.datetime | None = None,
    waited: dt.timedelta | None = None,
) -> PostOutcome:
    """Append one banker event, checked by the rules engine.

    The server's clock stamps the event (``at``): the rules' times (the auction stop, the
    limit, a clock that never goes back) are the server's. An action that ``waited`` on the
    phone (its offline queue) also keeps when it was made, ``made_at`` (:func:`made_at`), a
    record for people that no rule reads: a phone's clock can be wrong and an offline action
    made before the auction stop still arrives after it.

    A retry with the same idempotency key returns the first answer and adds nothing; the same
    key with another event is refused (422). A stale ``expected_seq`` is refused with 409
    before the engine is asked. Unknown fields and oversized events are refused (400) before
    anything is locked (:mod:`referee.event_schema`).

    The game is named by ``game_id`` or by its ``table`` (the console API: the table as it
    loaded it, with its round and tournament; the game is created on the first event).
    """
    if (game_id is None) == (table is None):
        raise TypeError("post_event takes a game_id or a table")
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise errors.DomainError(errors.BAD_EVENT, code="bad_event")
    check_event_shape(event)
    refusal: errors.DomainError | None = None
    with transaction.atomic():
        game, followed = _locked_game(game_id=game_id, table=table)
        seen = glance.of(game)
        # The server's clock is the game's clock: a client's own "at" is replaced, read once
        # the game is ours — read before the lock, a post that waited for another one would
        # be older than the event stored meanwhile ("time goes backwards", seen in the rehearsal).
        now = now or timezone.now()
        made = offline.made_at(now=now, waited=waited)
        event = {**event, "at": now.isoformat(),
                 **({"made_at": made.isoformat(timespec="seconds")} if made else {})}
        # Read after the lock, in one statement (a statement of its own: on PostgreSQL its
        # snapshot is taken once the lock is ours, so it sees a count or a first post with
        # this key committed while this post waited for the lock).
        facts = writability.read_facts(game, idempotency_key)
        if facts.replayed is not None:
            first = GameEvent.objects.get(pk=facts.replayed)
            if _without_time(first.data) != _without_time(event):
                raise errors.KeyReused(errors.KEY_REUSED, params={"seq": first.seq})
            return PostOutcome(first, False, game, UNREAD)
        result = writability.check_writable(game, facts=facts)
        engine = engine_cache.engine_to_change(game)  # ours until the commit: readers go on
        deadlines = (game.auction_stop_due, game.time_up_due)
        try:
            # Deadlines that passed are recorded first, and stay recorded even if the
            # banker's event is then refused.
            server_events = _enforce_locked(game, engine, now)
            if expected_seq is not None and expected_seq != game.event_count:
                refusal = errors.StaleSequence(
                    errors.STALE_SEQUENCE,
                    params={"expected": expected_seq, "current": game.event_count},
                )
            else:
                try:
                    engine.apply(event)
                except rules.RuleViolation as violation:
                    refusal = errors.EventRefused(violation)
            if refusal is None:
                row = _store(game, engine, event, author=author, key=idempotency_key, now=now)
                if author is not None:
                    game.banker_seen_at = now
            if refusal is None or server_events:
                # The fields a post changes (``_store``), not the whole row; all of them when
                # the untouched game followed a new seating (players, overrides).
                if followed:
                    game.save()
                else:
                    _SAVE_POSTED.save(game)
        except Exception:
            engine_cache.forget(game.pk)
            raise
    if refusal is None or server_events:
        engine_cache.publish(game, engine)  # committed: readers may have it now
    slug = table.round.tournament.slug if table is not None else None
    if refusal is not None:
        if server_events:
            _after_change(game, replan=True, slug=slug, events_added=True,
                          glance_changed=glance.of(game) != seen)
        raise refusal
    _after_change(game, replan=deadlines != (game.auction_stop_due, game.time_up_due), slug=slug,
                  events_added=True, glance_changed=glance.of(game) != seen)
    return PostOutcome(row, True, game, result)


def load_events(
    *, game_id: int, events: list[dict[str, Any]], author: User | None = None
) -> int:
    """Append a whole list of events at once (an imported record, the demo): every event is
    checked by the engine, stored with its own ``at`` as server time, in one transaction."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        engine = engine_cache.engine_to_change(game)
        rows = []
        try:
            for event in events:
                try:
                    engine.apply(event)
                except rules.RuleViolation as violation:
                    raise errors.EventRefused(violation) from None
                at = dt.datetime.fromisoformat(event["at"]) if event.get("at") else timezone.now()
                played = engine.state.game_time(at)
                rows.append(
                    GameEvent(
                        game=game, seq=game.event_count, type=event["type"], data=event,
                        author=author, recorded_at=at,
                        game_seconds=played.total_seconds() if played is not None else None,
                    )
                )
                game.event_count += 1
                game.last_event_at = at
                if engine.status == Game.Status.FINISHED and game.ended_at is None:
                    game.ended_at = at
        except Exception:
            engine_cache.forget(game.pk)
            raise
        GameEvent.objects.bulk_create(rows)
        plan_deadlines(game, engine)
        game.summary = summarize(engine)
        game.save()
    engine_cache.publish(game, engine)
    _after_change(game, replan=True, events_added=bool(rows))
    return len(rows)


def check_event(*, game: Game, event: dict[str, Any], now: dt.datetime | None = None) -> None:
    """Dry run: would the engine accept this event now? Raises EventRefused if not."""
    now = now or timezone.now()
    engine = engine_cache.engine_for(game)
    try:
        engine.check({**event, "at": now.isoformat()})
    except rules.RuleViolation as violation:
        raise errors.EventRefused(violation) from None


def _after_change(game: Game, *, replan: bool = False, slug: str | None = None,
                  events_added: bool = False, glance_changed: bool = True) -> None:
    """After commit: tell the public pages something changed (and the timers, through
    ``referee.receivers``, whether the deadlines moved). ``slug``: the tournament's, when the
    caller has it (receivers need not look it up); ``events_added``: the change appended
    events (the event count moved: the game's version need not, ``timers.bump_version``);
    ``glance_changed``: False when the post left the game's glance as it was (``glance``: no
    card on the public overview changed).
    A changed result: ``referee.results.result_changed``."""
    game_id = game.pk
    if slug is None:
        known = tournament_of(game)
        slug = known[1] if known else None
    # The deadlines as written (the timers need not read them back).
    due = (game.auction_stop_due, game.time_up_due)

    def notify() -> None:
        signals.game_changed.send(sender=Game, game_id=game_id, replan=replan,
                                  tournament_slug=slug, due=due, events_added=events_added,
                                  glance_changed=glance_changed)

    transaction.on_commit(notify)
    # After the new version (``notify``): no follow poll answered from before (referee.follow).
    follow.changed([game.table_id])


def tournament_of(game: Game) -> tuple[int, str] | None:
    """The game's tournament (id, slug) when it was read with the game (no query), else None:
    the change carries it to the receivers, who then look nothing up."""
    if not Game.table.is_cached(game):
        return None
    table = game.table
    if not Table.round.is_cached(table) or not Round.tournament.is_cached(table.round):
        return None
    tournament = table.round.tournament
    return tournament.pk, tournament.slug


def times_changed(game: Game) -> None:
    """For rulings outside this module: the deadlines moved (extra minutes), timers follow."""
    _after_change(game, replan=True)
