"""The result of record: the count of an ended game, its confirmation by a second person, its
dispute, a count taken back, and the steps after a changed result. Every write locks the game
row; the event log and the clock's deadlines are ``referee.services``.
"""

from __future__ import annotations

import copy
import datetime as dt
import secrets

from auditlog.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import lazy

from referee import changes, engine_cache, errors, follow, rules
from referee.models import Game, GameResult, Placement
from tournament import access, audit
from tournament.models import Round, Table
from tournament.names import account_name


def result_changed(game: Game, *, kind: changes.Kind) -> None:
    """After commit: the steps that follow a changed result (``settings.RESULT_STEPS``: the
    game's new version, the public tables, the standings, the laptop's copy), in order. Also
    for rulings outside this module (amended, reopened, entered from paper)."""
    changes.announce(changes.change_of(game, kind=kind))
    # After the steps (the new version first): no follow poll answered from before.
    follow.changed([game.table_id])


#: A round's states before it starts: nothing of it is counted or entered yet.
NOT_STARTED = (Round.Status.DRAFT, Round.Status.SEATED, Round.Status.LOCKED)


def round_gate(game: Game, result: GameResult | None, *, by: User | None) -> str:
    """The console counts, disputes and confirms only while the table's round runs. A round
    not started yet (drafted, seated, locked) says so: start it first. Once the round is
    closed, a result changes only because the head referee reopened it — and then only the
    head referee (or an organizer) carries it on, told so by the returned words.
    The round read with the game (every locked read of a result path) is not read again."""
    if Game.table.is_cached(game) and Table.round.is_cached(game.table):
        played = game.table.round
        number, status, tournament_id = played.number, played.status, played.tournament_id
    else:
        number, status, tournament_id = (
            Table.objects.filter(pk=game.table_id)
            .values_list("round__number", "round__status", "round__tournament_id").get()
        )
    if status == Round.Status.RUNNING:
        return ""
    if status in NOT_STARTED:
        raise errors.RoundNotStarted(errors.ROUND_NOT_STARTED, params={"number": number})
    reopened = result is not None and result.reopened_at is not None
    if reopened and by is not None and access.is_head_referee(by, tournament_id):
        return str(errors.ROUND_CLOSED_REOPENED % {"number": number})
    raise errors.RoundClosed(errors.ROUND_CLOSED_CONSOLE, params={"number": number})


def current_revision(game: Game, result: GameResult | None) -> int:
    """The revision a page decides against: its result's, or (no result) the one its game
    keeps from the result a reopened count took away (0: never counted)."""
    return result.revision if result is not None else game.result_revision


def revision_of(game_id: int) -> int:
    """The current revision of a game's result, for callers that have no page (commands, the
    tests' builders): they decide against the result as it is now."""
    revision = (GameResult.objects.filter(game_id=game_id)
                .values_list("revision", flat=True).first())
    if revision is not None:
        return revision
    return Game.objects.filter(pk=game_id).values_list("result_revision", flat=True).get()


def standing_record(result: GameResult | None, *, amended: bool | None = None) -> str:
    """What staff recorded in a pending result, which no console count replaces: "paper" (the
    sheet), "amended" (the officials' figures), "disputed"; "" for a plain count.
    ``amended``: whether a placement carries an amended figure (read from the placements
    when not given: a caller that has them passes it, no query)."""
    if result is None or result.status == GameResult.Status.CONFIRMED:
        return ""
    if result.from_paper:
        return "paper"
    if result.status == GameResult.Status.DISPUTED:
        return "disputed"
    if amended is None:
        amended = any(p.breakdown.get("amended") for p in result.placements.all())
    return "amended" if amended else ""


def note_label(result: GameResult, *, amended: bool | None = None) -> str:
    """What the head referee's note on a result is, by the write that left it: the ruling on a
    dispute (or the note of a plain confirmation as head referee), the reason of the last
    reopening or amendment, the note of the paper sheet. ``amended``: whether a placement
    carries an amended figure (read from the placements when not given). A confirmation by
    the head referee of a result reopened after a ruled dispute is named as a ruling too (the
    dispute's note stays; when it was made is not kept)."""
    if (result.status == GameResult.Status.CONFIRMED
            and result.confirmed_via == "head_referee"):
        return str(errors.NOTE_RULING if result.dispute_note else errors.NOTE_CONFIRMATION)
    reopened = result.reopened_at is not None
    if reopened and result.reopened_at >= result.counted_at:
        return str(errors.NOTE_REOPENED)
    if result.from_paper:
        return str(errors.NOTE_PAPER)
    if amended is None:
        amended = any(p.breakdown.get("amended") for p in result.placements.all())
    if amended:
        return str(errors.NOTE_AMENDED)
    # a plain count keeps only a reopening's reason (a count writes no note)
    return str(errors.NOTE_REOPENED if reopened else errors.NOTE_OTHER)


STANDS = {"paper": errors.STANDS_PAPER, "amended": errors.STANDS_AMENDED,
          "disputed": errors.STANDS_DISPUTED}


def write_label(code: str, changed: dict) -> str:
    """An audit entry's action in words: a head referee's confirmation of a result that was
    not disputed is no ruling on a dispute."""
    if code == "result.resolve":
        status = changed.get("status") or [None, None]
        if status[0] != GameResult.Status.DISPUTED:
            return str(errors.CONFIRMED_BY_HEAD_REFEREE)
    return audit.label(code)


def latest_write(result: GameResult):
    """The newest audit entry of a result (its own row or its placements'): the write that
    made a page showing an older revision stale. None when nothing is recorded."""
    return (result_entries(result).select_related("actor")
            .order_by("-timestamp", "-pk").first())


def result_entries(result: GameResult):
    """The audit entries of a result: its own row's and its placements' (placements' entries
    name their result: ``Placement.get_additional_data``)."""
    kinds = ContentType.objects.get_for_models(GameResult, Placement)
    return LogEntry.objects.filter(
        Q(content_type=kinds[GameResult], object_id=result.pk)
        | Q(content_type=kinds[Placement], additional_data__result=result.pk))


def _changed_words(result: GameResult | None):
    """The change that made the page stale — the latest write to the result, with who made it
    (lazy: in the reader's language); what the result is now when nothing is recorded."""
    if result is None:
        return errors.CHANGED_GONE
    entry = latest_write(result)
    code = ((entry.additional_data or {}).get("action", "") if entry is not None else "")
    if code:
        who = account_name(entry.actor) if entry.actor is not None else ""
        changed = entry.changes_dict or {}
        if not who:
            return lazy(lambda: str(errors.CHANGED_LATEST) % {
                "what": write_label(code, changed)}, str)()
        return lazy(lambda: str(errors.CHANGED_LATEST_BY) % {
            "what": write_label(code, changed), "who": who}, str)()
    return _state_words(result)


def _state_words(result: GameResult):
    """What the result is now (no audit entry names the write)."""
    Status = GameResult.Status
    record = standing_record(result)
    if result.status == Status.CONFIRMED:
        what, who = errors.CHANGED_CONFIRMED, result.confirmed_by
    elif record == "disputed":
        what, who = errors.CHANGED_DISPUTED, result.disputed_by
    elif record == "amended":
        what, who = errors.CHANGED_AMENDED, None
    elif record == "paper":
        what, who = errors.CHANGED_PAPER, result.counted_by
    elif result.reopened_at is not None and result.reopened_at >= result.counted_at:
        what, who = errors.CHANGED_REOPENED, result.reopened_by
    else:
        what, who = errors.CHANGED_COUNTED, result.counted_by
    if who is None:
        return what
    name = who.get_full_name() or who.get_username()
    return lazy(lambda: str(errors.CHANGED_BY) % {"what": what, "who": name}, str)()


def check_revision(game: Game, result: GameResult | None, revision: int) -> None:
    """Refuse a write decided against a result that has changed since (under the game's
    lock): ``revision`` is the one the page showed (``current_revision``)."""
    if revision != current_revision(game, result):
        raise errors.ResultChanged(errors.RESULT_CHANGED, params={
            "table": game.table.number, "what": _changed_words(result)})


def _same_count(result: GameResult, standings) -> bool:
    """The result's placements are exactly what a count now gives (a plain count again)."""
    have = {(p.player_id, p.place, p.net_worth, p.bankrupt, tuple(sorted(p.breakdown.items())))
            for p in result.placements.all()}
    want = {(int(row.player), row.place, row.net_worth, row.bankrupt,
             tuple(sorted(row.breakdown.as_dict().items()))) for row in standings}
    return have == want


def count_result(
    *, game_id: int, author: User | None, revision: int, now: dt.datetime | None = None
) -> GameResult:
    """Freeze the net-worth count of an ended game into placements awaiting confirmation.

    The placements are the replay of the record at this moment; the record then takes no
    event until the count is reopened, so they stay its replay (``scoring.verify`` checks).
    A pending result from the paper sheet, amended or disputed stands (``ResultStands``); the
    same plain count again is answered with the result as it is (nothing written); any other
    count decided against an older ``revision`` is refused (``ResultChanged``)."""
    now = now or timezone.now()
    with transaction.atomic():
        # The same rows locked as ever (the game's and its table's); the round and tournament
        # come along unlocked, for the audit entry and the receivers after commit.
        game = (
            Game.objects.select_for_update(of=("self", "table"))
            .select_related("table__round__tournament").get(pk=game_id)
        )
        if game.status != Game.Status.FINISHED:
            raise errors.ResultNotReady(errors.GAME_NOT_ENDED)
        result = GameResult.objects.filter(game=game).first()
        if result is not None and result.status == GameResult.Status.CONFIRMED:
            raise errors.ResultNotReady(errors.RESULT_ALREADY_FINAL)
        round_gate(game, result, by=author)
        record = standing_record(result)
        if record:
            raise errors.ResultStands(STANDS[record], params={"table": game.table.number})
        engine = engine_cache.engine_for(game)
        standings = rules.standings(engine.state)
        if result is not None and _same_count(result, standings):
            result.game = game
            return result  # the same count again (a second tap, a stale tab): nothing changes
        check_revision(game, result, revision)
        # Whoever counted is the entry's author (a banker's link has no login of its own).
        with audit.action(tournament=None, actor=author, what="result.count", fallback=True):
            if result is None:
                result = GameResult.objects.create(game=game, counted_by=author, counted_at=now,
                                                   revision=game.result_revision + 1)
            else:
                result.status = GameResult.Status.COUNTED
                result.counted_by, result.counted_at = author, now
                result.from_paper = False
                result.revision += 1
                result.save()
                result.placements.all().delete()
        Placement.objects.bulk_create(
            [
                Placement(
                    result=result,
                    player_id=int(row.player),
                    place=row.place,
                    net_worth=row.net_worth,
                    breakdown=row.breakdown.as_dict(),
                    bankrupt=row.bankrupt,
                )
                for row in standings
            ]
        )
    result.game = game  # the answer shows both: neither is read again
    result_changed(game, kind=changes.Kind.COUNTED)
    return result


def reopen_count(*, game_id: int, by: User | None, revision: int, reason: str = "") -> None:
    """Take back a count that is not confirmed yet, so the game can be corrected: the result
    and its placements go (the audit log keeps them), the record takes events again, and the
    table counts and confirms anew. The game keeps the result's revision (a page that saw it
    never matches the next count).

    Refused for a result from the paper sheet (the desk replaces the sheet, or the head
    referee rules), for an amended or disputed one unless the head referee takes it back,
    and wherever the count that must follow would be refused: the same round gate as a count
    without a result, so nobody deletes a result they could not count again."""
    with transaction.atomic():
        # The rows locked as ever (game, table, round); the tournament comes along for the
        # steps after commit.
        game = (
            Game.objects.select_for_update(of=("self", "table", "table__round"))
            .select_related("table__round__tournament").get(pk=game_id)
        )
        result = GameResult.objects.filter(game=game).first()
        if result is None:
            raise errors.ResultNotReady(errors.NOTHING_TO_REOPEN)
        if result.status == GameResult.Status.CONFIRMED:
            raise errors.ResultConfirmed(errors.RESULT_CONFIRMED,
                                         params={"table": game.table.number})
        try:
            round_gate(game, None, by=by)  # the gate of the count that must follow
        except errors.RoundClosed:
            raise errors.RoundClosed(errors.REOPEN_COUNT_CLOSED,
                                     params={"number": game.table.round.number}) from None
        record = standing_record(result)
        if record == "paper" or (record and not (
                by is not None and access.is_head_referee(by, game.table.round.tournament_id))):
            raise errors.ResultStands(STANDS[record], params={"table": game.table.number})
        check_revision(game, result, revision)
        with audit.action(tournament=game.table.round.tournament_id, actor=by,
                          what="result.reopen_count", reason=reason.strip()):
            result.placements.all().delete()
            result.delete()
            game.result_revision = result.revision + 1
            Game.objects.filter(pk=game.pk).update(result_revision=game.result_revision)
    result_changed(game, kind=changes.Kind.COUNT_REOPENED)


def _locked_result(game_id: int) -> tuple[Game, GameResult]:
    """The game (locked) and its counted result; ResultNotReady when nothing is counted.

    The game comes with its table, round and tournament (only the game's row is locked), and
    the result with that game: the audit entry and the receivers after commit read none of
    them again."""
    game = (
        Game.objects.select_for_update(of=("self",)).select_related("table__round__tournament")
        .get(pk=game_id)
    )
    result = GameResult.objects.filter(game=game).first()
    if result is None:
        raise errors.ResultNotReady(errors.RESULT_NOT_COUNTED)
    result.game = game
    return game, result


def check_second_person(result: GameResult, *, by: User | None, head_referee: bool) -> None:
    """Four eyes, on every path that confirms: whoever counted a result does not confirm it as
    head referee, and whoever entered a paper result or amended its figures does not confirm
    it at all (staff can read the table's code). A player typing the slip's code on the banker's own phone is the second
    person of a console count."""
    if by is None:
        return
    if result.counted_by_id is not None and result.counted_by_id == by.pk:
        if result.from_paper:
            raise errors.SecondPersonRequired(errors.SECOND_PERSON)
        if head_referee:
            raise errors.SecondPersonRequired(errors.SECOND_PERSON_COUNT)
    # An amendment always leaves its reason (and a later reopening its own): a result without
    # a note has no amended figures, and costs no query here.
    if result.resolved_note and by.pk in amenders(result):
        raise errors.SecondPersonRequired(errors.SECOND_PERSON_AMENDED)


def amenders(result: GameResult) -> set[int]:
    """Who amended the figures the result now has: the authors of its amendments since its
    last paper sheet (a sheet replaces the figures; a count never replaces amended ones)."""
    rows = (
        result_entries(result).filter(additional_data__action__in=[
            "result.amend", "result.paper", "result.paper.replace"])
        .order_by("-timestamp", "-pk").values_list("additional_data__action", "actor_id")
    )
    out: set[int] = set()
    for action, actor in rows:
        if action != "result.amend":
            break
        if actor is not None:
            out.add(actor)
    return out


def confirm_result(
    *,
    game_id: int,
    code: str | None,
    by: User | None,
    revision: int,
    head_referee: bool = False,
    ruling: str | None = None,
    now: dt.datetime | None = None,
) -> GameResult:
    """A second person makes the count final: a player's code, or the head referee. A
    disputed result only by the head referee's ruling (``ruling``: its note, given by
    ``rulings.resolve_dispute``); a result changed since ``revision`` not at all."""
    now = now or timezone.now()
    wrong: errors.DomainError | None = None
    with transaction.atomic():
        game, result = _locked_result(game_id)
        if result.status == GameResult.Status.CONFIRMED:
            return result
        round_gate(game, result, by=by)
        if result.status == GameResult.Status.DISPUTED and not head_referee:
            raise errors.ResultStands(errors.STANDS_DISPUTED,
                                      params={"table": game.table.number})
        if result.status == GameResult.Status.DISPUTED and not (ruling or "").strip():
            raise errors.ReasonRequired(errors.RULING_REQUIRED, code="ruling_required")
        check_revision(game, result, revision)
        check_second_person(result, by=by, head_referee=head_referee)
        if not head_referee:
            if game.wrong_codes >= Game.WRONG_CODES_MAX:
                raise errors.CodesExhausted(errors.CODES_EXHAUSTED,
                                            params={"max": Game.WRONG_CODES_MAX})
            if not secrets.compare_digest(  # bytes: any text may be typed
                (code or "").strip().encode(), game.confirmation_code.encode()
            ):
                # Counted in the database (kept when the refusal is raised below): the cap
                # holds whatever address or device the guesses come from.
                game.wrong_codes += 1
                Game.objects.filter(pk=game.pk).update(wrong_codes=game.wrong_codes)
                left = Game.WRONG_CODES_MAX - game.wrong_codes
                wrong = (
                    errors.WrongConfirmationCode(errors.WRONG_CODE_LEFT, params={"left": left})
                    if left else errors.CodesExhausted(errors.CODES_EXHAUSTED,
                                                       params={"max": Game.WRONG_CODES_MAX})
                )
        if wrong is None:
            before = copy.copy(result)  # read under the game's lock: the audit's "before"
            with audit.action(tournament=None, actor=by, what="result.confirm", fallback=True):
                result.status = GameResult.Status.CONFIRMED
                result.confirmed_at = now
                result.confirmed_by = by
                result.confirmed_via = "head_referee" if head_referee else "player_code"
                if head_referee and ruling is not None:  # the ruling, in the same entry
                    result.resolved_note = ruling.strip()
                result.revision += 1
                audit.save_known(result, before=before)
    if wrong is not None:
        raise wrong
    result_changed(game, kind=changes.Kind.CONFIRMED)
    return result


def dispute_result(*, game_id: int, note: str, by: User | None, revision: int) -> GameResult:
    """Dispute a pending result with a note for the head referee. A disputed result is not
    disputed again (``AlreadyDisputed``, naming the first note): the second note replaced
    the first unseen; the head referee rules on the dispute that stands."""
    with transaction.atomic():
        game, result = _locked_result(game_id)
        if result.status == GameResult.Status.CONFIRMED:
            raise errors.ResultNotReady(errors.RESULT_ALREADY_FINAL)
        round_gate(game, result, by=by)
        if result.status == GameResult.Status.DISPUTED:
            raise errors.AlreadyDisputed(errors.DISPUTED_ALREADY, params={
                "table": game.table.number, "note": result.dispute_note})
        check_revision(game, result, revision)
        before = copy.copy(result)  # read under the game's lock: the audit's "before"
        with audit.action(tournament=None, actor=by, what="result.dispute", fallback=True):
            result.status = GameResult.Status.DISPUTED
            result.dispute_note = note.strip()
            result.disputed_by = by
            result.revision += 1
            audit.save_known(result, before=before)
    result_changed(game, kind=changes.Kind.DISPUTED)
    return result
