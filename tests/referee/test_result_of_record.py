"""The result of record (issue 24): what the software calls confirmed is what was played.

Finding 1: no event after the count (the console hides the count form and offers "Reopen the
count"); finding 3: four eyes inside ``confirm_result``, on every path; finding 6 (its console
part): a closed round's results change only when the head referee reopened them.
"""

from __future__ import annotations

import datetime as dt

import pytest
from consoles import result_revision
from django.test import Client
from factories import UserFactory, appoint, seated_table
from gameplay import T0, cash_by_seat, play

from referee import (
    errors,
    paper,
    results,
    rulings,
    services,
)
from referee.models import Game, GameResult
from referee.results import revision_of
from tournament import audit
from tournament.models import Round, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(banker):
    return seated_table(banker=banker, players=4)




def console(client, table, action, data=None, language="de"):
    form = {"revision": result_revision(table), **(data or {})}  # as the page carries it
    return client.post(f"/banker/table/{table.pk}/{action}/", form,
                       HTTP_ACCEPT_LANGUAGE=language)


# --------------------------------------------------------------------------- finding 1


def test_after_the_count_the_console_offers_no_cash_form_only_reopening(client, banker, table):
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    client.force_login(banker)
    fragment = client.get(f"/banker/table/{table.pk}/main/").content.decode()
    assert 'data-action="count"' not in fragment  # the cash count can no longer be used
    assert 'data-testid="reopen-count"' in fragment
    assert "Count again" not in fragment and "Neu zählen" not in fragment

    reopened = console(client, table, "reopen-count")
    assert reopened.status_code == 200
    assert "wieder geöffnet" in reopened.content.decode()
    assert not GameResult.objects.filter(game=game).exists()
    assert 'data-action="count"' in reopened.content.decode()
    entry = audit.lines(audit.entries(table.round.tournament, what="result.reopen_count"))
    assert entry and entry[0].actor == banker.username

    # corrected, counted and confirmed again: the result is the record's replay
    cash = next(iter(cash_by_seat(table)))
    services.post_event(game_id=game.pk, event={"type": "cash", "player": str(cash.pk),
                                                "amount": 5000}, author=banker,
                        now=T0 + dt.timedelta(minutes=95))
    results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=banker)
    winner = GameResult.objects.get(game=game).placements.get(place=1)
    assert (winner.player_id, winner.net_worth) == (cash.pk, 5000 + winner.breakdown["deeds"])


def test_a_confirmed_count_cannot_be_reopened_at_the_table(client, banker, table):
    play(table, cash_by_seat(table), author=banker)
    client.force_login(banker)
    answer = console(client, table, "reopen-count", language="en").content.decode()
    assert "confirmed" in answer
    assert GameResult.objects.get(game__table=table).status == GameResult.Status.CONFIRMED


# --------------------------------------------------------------------------- finding 3


def test_who_counted_does_not_confirm_as_head_referee_on_the_console(client, judge, table):
    """The head referee ran the table's console and counted: a second person confirms."""
    game = play(table, cash_by_seat(table), confirm=False, author=judge)
    client.force_login(judge)
    answer = console(client, table, "confirm", {"head_referee": "1"}, language="en")
    assert "second person" in answer.content.decode()
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED
    # a player of the table, typing the slip's code on the same phone, is the second person
    console(client, table, "confirm", {"code": game.confirmation_code})
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED


def _paper(table, by):
    seats = list(table.seats.order_by("position"))
    lines = [paper.PaperLine(player_id=s.player_id, net_worth=3000 - 100 * s.position)
             for s in seats]
    return paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit",
                                    ended_at=None, by=by)


@pytest.mark.parametrize("path", ["console_head_referee", "console_code", "desk_code",
                                  "desk_resolve", "service"])
def test_who_entered_a_paper_result_does_not_confirm_it_on_any_path(path, judge, table):
    result = _paper(table, judge)
    game = Game.objects.get(pk=result.game_id)
    client = Client()
    client.force_login(judge)
    slug = table.round.tournament.slug
    if path == "console_head_referee":
        console(client, table, "confirm", {"head_referee": "1"})
    elif path == "console_code":
        console(client, table, "confirm", {"code": game.confirmation_code})
    elif path == "desk_code":
        answer = client.post(f"/manage/{slug}/results/{game.pk}/code/",
                             {"code": game.confirmation_code, "revision": revision_of(game.pk)})
        assert answer.status_code == 403
    elif path == "desk_resolve":
        answer = client.post(f"/manage/{slug}/results/{game.pk}/resolve/",
                             {"note": "ok", "revision": revision_of(game.pk)})
        assert answer.status_code == 403
    else:
        with pytest.raises(errors.SecondPersonRequired):
            results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                   code=None, by=judge, head_referee=True)
    result.refresh_from_db()
    assert result.status == GameResult.Status.COUNTED
    assert result.confirmed_by is None


def test_a_second_head_referee_confirms_a_paper_result(judge, table):
    result = _paper(table, judge)
    other = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, table.round.tournament)
    results.confirm_result(game_id=result.game_id, revision=revision_of(result.game_id),
                           code=None, by=other, head_referee=True)
    result.refresh_from_db()
    assert result.status == GameResult.Status.CONFIRMED and result.confirmed_by == other


# --------------------------------------------------------------------------- finding 6


def _close_round(table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.COMPLETE)


def test_a_closed_rounds_result_is_not_recounted_or_confirmed_by_the_banker(
    client, banker, judge, table
):
    game = play(table, cash_by_seat(table), author=banker)
    _close_round(table)
    rulings.reopen_result(game_id=game.pk, revision=revision_of(game.pk),
                          reason="Zählfehler gemeldet", by=judge)
    client.force_login(banker)
    for action, data in (("count", {"seq": game.event_count}),
                         ("dispute", {"note": "falsch"}),
                         ("confirm", {"code": game.confirmation_code}),
                         ("reopen-count", {})):
        answer = console(client, table, action, data, language="en").content.decode()
        assert "Round 1 is closed" in answer, action
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED
    with pytest.raises(errors.RoundClosed):
        results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=banker)


def test_the_head_referee_confirms_a_reopened_result_of_a_closed_round_and_is_told(
    judge, banker, table
):
    game = play(table, cash_by_seat(table), author=banker)
    _close_round(table)
    rulings.reopen_result(game_id=game.pk, revision=revision_of(game.pk),
                          reason="Zählfehler gemeldet", by=judge)
    client = Client()
    client.force_login(judge)
    page = client.get(f"/banker/table/{table.pk}/main/", HTTP_ACCEPT_LANGUAGE="en")
    assert "the head referee reopened this result" in page.content.decode()
    console(client, table, "confirm", {"code": game.confirmation_code})
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
