"""Issue 29, a full hall on two cores: a console's follow poll naming its table's current ETag
is a 304 with no query at all, answered before the session (``referee.follow``); after any
change of the state the next poll is the new state, never a stale 304; and nobody reads a
table they could not read before.
"""

from __future__ import annotations

import pytest
import time_machine
from consoles import keys
from django.db import transaction
from django.test import Client
from factories import PlayerFactory, TournamentFactory, seated_table
from gameplay import at, held_results_round, make_round
from queries import explain, state_poll

from desk.rounds import close_round
from referee import follow, results, rulings, services, timers
from referee.models import Game
from referee.results import revision_of
from scoring.standings import trigger
from tournament import privacy
from tournament.models import Round, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """A change as production makes it: committed, its after-commit work done."""
    return django_capture_on_commit_callbacks


def followed(client, table):
    """The reader's state (200), once its next poll is a 304 that asked the database nothing."""
    first, _ = state_poll(client, table)
    assert first.status_code == 200, first.content
    again, queries = state_poll(client, table, etag=first["ETag"])
    assert again.status_code == 304
    assert queries == [], explain(queries)
    assert again["ETag"] == first["ETag"]
    # What the 200 said about caching still holds (RFC 9110: a 304 repeats it).
    assert directives(again["Cache-Control"]) == directives(first["Cache-Control"])
    assert directives(again["Vary"]) >= directives(first["Vary"])
    return first


def directives(header):
    return {part.strip().lower() for part in header.split(",")}


def moved_on(client, table, before):
    """The poll after a change: the new state, not a 304 of the old one."""
    after, _ = state_poll(client, table, etag=before["ETag"])
    assert after.status_code == 200, "a stale 304 after a change"
    assert after["ETag"] != before["ETag"]
    return after.json()


@pytest.mark.parametrize("who", ["banker", "public"])
def test_a_poll_naming_the_current_etag_asks_the_database_nothing(linked, who):
    client, table, _game = linked
    reader = client if who == "banker" else Client()
    with time_machine.travel(at(30), tick=False):
        state = followed(reader, table)
        for _ in range(3):
            again, queries = state_poll(reader, table, etag=state["ETag"])
            assert (again.status_code, queries) == (304, [])
        # The coded variants of the same ETag (a phone's brotli answer) are the same state.
        coded, queries = state_poll(reader, table, etag=state["ETag"][:-1] + '-br"')
        assert (coded.status_code, queries) == (304, [])
        assert "Set-Cookie" not in coded


def _player(table, seat=1):
    return Seat.objects.get(table=table, position=seat).player


def _post(game, table):
    services.post_event(game_id=game.pk, event={"type": "pause"}, author=None)
    return lambda state: state["seq"] == 2


def _extra_time(game, table):
    rulings.extra_time(game_id=game.pk, minutes=5, reason="Brett neu aufgebaut", by=None)
    return lambda state: state["clock"]["extra_minutes"] == 5


def _rename(game, table):
    player = _player(table)
    player.name = "Zora Umbenannt"
    player.save()
    return lambda state: "Zora Umbenannt" in str(state)


def _erasure(game, table):
    player = _player(table)
    privacy.erase_player(player=player, actor=None, reason="Bitte löschen")
    return lambda state: "Anna Test" not in str(state)


CHANGES = {"post": _post, "extra time": _extra_time, "rename": _rename, "erasure": _erasure}


@pytest.mark.parametrize("who", ["banker", "public"])
@pytest.mark.parametrize("change", CHANGES)
def test_after_a_change_the_next_poll_is_the_new_state(linked, who, change, committed):
    client, table, game = linked
    reader = client if who == "banker" else Client()
    with time_machine.travel(at(30), tick=False):
        before = followed(reader, table)
        with committed(execute=True):
            shows = CHANGES[change](game, table)
        state = moved_on(reader, table, before)
    assert shows(state), state


def test_a_voided_event_is_a_new_state(linked, committed):
    client, table, game = linked
    with time_machine.travel(at(30), tick=False):
        services.post_event(game_id=game.pk, event={"type": "pause"}, author=None)
        before = followed(client, table)
        with committed(execute=True):
            services.post_event(game_id=game.pk,
                                event={"type": "void", "event": 1, "reason": "falsch getippt"},
                                author=None)
        state = moved_on(client, table, before)
    assert state["seq"] == 3


def test_a_deadline_that_became_due_is_enforced_by_the_next_poll(linked):
    """The auction stop falls due at 45 minutes: the poll after it is the full view, which
    records the stop; no 304 of the state before it."""
    client, table, _game = linked
    with time_machine.travel(at(44.9), tick=False):
        before = followed(client, table)
        assert before.json()["clock"]["auction_stop_done"] is False
    with time_machine.travel(at(45.1), tick=False):  # well before the kept entry expires
        state = moved_on(client, table, before)
    assert state["clock"]["auction_stop_done"] is True


def test_a_counted_and_a_confirmed_result_are_new_states(linked, committed):
    client, table, game = linked
    anna, *_ = keys(table)
    with time_machine.travel(at(100), tick=False):
        services.post_event(game_id=game.pk, event={"type": "cash", "player": anna,
                                                    "amount": 1500}, author=None, now=at(10))
        services.enforce_deadlines(game_id=game.pk, now=at(100))
        ended = followed(client, table)
        with committed(execute=True):
            results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=None)
        counted_state = moved_on(client, table, ended)
        counted_poll = followed(client, table)
        game.refresh_from_db()
        with committed(execute=True):
            results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                   code=game.confirmation_code, by=None)
        confirmed = moved_on(client, table, counted_poll)
    assert counted_state != confirmed
    assert "confirmed" in str(confirmed)


@pytest.fixture
def held():
    """Results held until the round closes; one table's game confirmed."""
    return held_results_round([4000 - 1000 * n for n in range(4)])


def test_closing_the_round_releases_the_results_to_a_following_spectator(held, committed):
    round_, table = held
    spectator = Client()
    before = followed(spectator, table)
    assert before.json()["results_held"] is True
    with committed(execute=True):
        close_round(round_=round_)
    state = moved_on(spectator, table, before)
    assert state["results_held"] is False
    assert [row["place"] for row in state["standings"]] == [1, 2, 3, 4]


def test_results_held_again_are_not_shown_from_a_poll_before(held, committed):
    """A round closed (results public), then running again: its results are held again."""
    round_, table = held
    close_round(round_=round_)
    spectator = Client()
    before = followed(spectator, table)
    assert before.json()["results_held"] is False
    with committed(execute=True):
        round_.status = Round.Status.RUNNING
        round_.save()
    state = moved_on(spectator, table, before)
    assert state["results_held"] is True


@pytest.mark.django_db(transaction=True)
def test_a_swap_at_an_untouched_table_is_a_new_state(banker):
    """Two players swapped by the head referee before the game began: the console's seating
    follows (the untouched game follows its table's seating, and so does its ETag)."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, table_size=4)
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(8)]
    round_, (first, second) = make_round(tournament, 1, [players[:4], players[4:]])
    for table in (first, second):
        services.ensure_game(table=table)
    spectator = Client()
    before = followed(spectator, first)
    rulings.swap_players(round_id=round_.pk, a=players[0].pk, b=players[4].pk,
                         reason="Vereinskameraden", by=None)
    state = moved_on(spectator, first, before)
    assert "Spieler 4" in str(state) and "Spieler 0" not in str(state)


@pytest.mark.django_db(transaction=True)
def test_a_poll_that_read_the_table_before_a_commit_keeps_nothing_that_answers_after_it(linked):
    """The race the token closes: a poll reads the token, then the old rows; the change
    commits; the poll keeps the old ETag. That ETag must not be answered as current."""
    client, table, game = linked
    with time_machine.travel(at(30), tick=False):
        before = followed(client, table)
        with transaction.atomic():
            services.post_event(game_id=game.pk, event={"type": "pause"}, author=None)
            slow_poll = follow.Follow(table.pk)  # read the token inside the change's window
        # ...and keeps the old state's ETag
        slow_poll.keep(etag=before["ETag"], private=True, public=True, due=())
        moved_on(client, table, before)


@pytest.mark.django_db(transaction=True)
def test_a_poll_between_the_commit_and_the_new_version_keeps_nothing_stale(linked, monkeypatch):
    """Extra time changes no event count: the ETag moves with the game's version, bumped
    after the commit. A console polling in between reads the new rows under the old version
    (the old ETag): that answer must not be kept under the token that follows the change."""
    client, table, game = linked
    bump = timers.bump_version

    def polled_first(game_id):  # a console's poll arrives just before the version moves
        assert state_poll(client, table, etag=before["ETag"])[0].status_code == 304
        bump(game_id)

    with time_machine.travel(at(30), tick=False):
        before = followed(client, table)
        monkeypatch.setattr(timers, "bump_version", polled_first)
        rulings.extra_time(game_id=game.pk, minutes=5, reason="Brett neu aufgebaut", by=None)
        monkeypatch.undo()
        state = moved_on(client, table, before)
    assert state["clock"]["extra_minutes"] == 5


@pytest.mark.django_db(transaction=True)
def test_no_stale_304_while_the_standings_of_a_new_result_are_recomputed(linked, monkeypatch):
    """After a result's commit the standings take seconds (1,000 players): the follow poll
    must show the counted result from the first step on, not after the last."""
    client, table, game = linked
    anna, *_ = keys(table)
    seen = []
    recompute = trigger.on_result

    def polled_first(change):  # a console polls while the standings are recomputed
        seen.append(state_poll(client, table, etag=ended["ETag"])[0].status_code)
        recompute(change)

    monkeypatch.setattr(trigger, "on_result", polled_first)
    with time_machine.travel(at(100), tick=False):
        services.post_event(game_id=game.pk, event={"type": "cash", "player": anna,
                                                    "amount": 1500}, author=None, now=at(10))
        services.enforce_deadlines(game_id=game.pk, now=at(100))
        ended = followed(client, table)
        with transaction.atomic():
            results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=None)
            # a poll that read the token and the old rows before the commit
            follow.Follow(table.pk).keep(etag=ended["ETag"], private=True, public=True, due=())
    assert seen == [200]


@pytest.mark.parametrize("place", ["seated round", "draft tournament"])
def test_a_table_the_public_may_not_read_is_never_answered_early(client, banker, place):
    """The banker follows (their ETag kept), a stranger sends it: the full view refuses."""
    table = seated_table(banker=banker)
    if place == "seated round":
        Round.objects.filter(pk=table.round_id).update(status=Round.Status.SEATED)
    else:
        Tournament.objects.filter(pk=table.round.tournament_id).update(
            status=Tournament.Status.DRAFT)
    client.force_login(banker)
    services.ensure_game(table=table)
    mine, _ = state_poll(client, table)
    assert mine.status_code == 200
    assert state_poll(client, table, etag=mine["ETag"])[0].status_code == 304
    stranger, _ = state_poll(Client(), table, etag=mine["ETag"])
    assert stranger.status_code == 404


def test_a_stranger_still_cannot_write_to_a_followed_table(linked):
    """The early 304 is for reads: a post still needs the table's banker."""
    client, table, _game = linked
    with time_machine.travel(at(30), tick=False):
        followed(client, table)
        answer = Client(enforce_csrf_checks=False).post(
            f"/api/v1/tables/{table.pk}/events", {"event": {"type": "pause"}},
            content_type="application/json")
    assert answer.status_code in (403, 401)
    assert Game.objects.get(table=table).event_count == 1


def test_the_gate_sees_only_the_state_poll(linked):
    """The record's answer is never a 304 for the state's ETag."""
    client, table, _game = linked
    with time_machine.travel(at(30), tick=False):
        state = followed(client, table)
        record = client.get(f"/api/v1/tables/{table.pk}/record",
                            HTTP_IF_NONE_MATCH=state["ETag"])
    assert record.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_change_outside_a_transaction_replaces_the_token_once(monkeypatch):
    """A post calls ``changed`` after its commit: "now" and "once committed" are one moment
    there, and each replacement is a file written on the embedded default (issue 29). Inside
    a transaction: now and again at the commit."""
    replaced = []
    monkeypatch.setattr(follow, "replace_tokens", lambda ids: replaced.append(list(ids)))
    follow.changed([3])
    assert replaced == [[3]]
    with transaction.atomic():
        follow.changed([4])
        assert replaced == [[3], [4]]
    assert replaced == [[3], [4], [4]]
