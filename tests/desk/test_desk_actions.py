"""What the organizer and the head referee do on the round desk: close the round once every
result is confirmed, seat the final from the qualifiers, crown the winner, rule on a dispute."""

from __future__ import annotations

import re

import pytest
from factories import (
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    appoint,
)
from gameplay import make_round, minutes_ago
from gameplay import play as play_at

from referee import results as referee_results
from referee import services as referee
from referee.models import GameResult
from referee.results import revision_of
from scoring.models import StandingRow
from scoring.standings import selectors
from tournament import audit
from tournament import errors as tournament_errors
from tournament.models import Round, Tournament
from tournament.rounds import services as tournament_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]




def play(table, cash_by_player, **options):
    """A game that ended at the time limit a few minutes ago (the desk reads the clock)."""
    return play_at(table, cash_by_player, start=minutes_ago(100), **options)


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka", finalists=6,
                             preliminary_rounds=1)


@pytest.fixture
def players(tournament):
    return [PlayerFactory(tournament=tournament, name=f"Spieler {i:02d}") for i in range(12)]


def head_referee():
    user = UserFactory(username="mrmonopoly")
    appoint(user, "head_referee")
    return user


# --------------------------------------------------------------------------- closing a round


def test_close_is_refused_until_every_result_is_confirmed_then_allowed(
    organizer, django_capture_on_commit_callbacks, tournament, players
):
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    play(tables[0], {p: 1000 + 10 * i for i, p in enumerate(players[:6])})
    pending = play(tables[1], {p: 2000 + 10 * i for i, p in enumerate(players[6:])},
                   confirm=False)
    refused = organizer.post("/manage/ka/rounds/1/close/")
    assert refused.status_code == 409
    assert "tables 2 have no confirmed result" in refused.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING

    referee_results.confirm_result(game_id=pending.pk, revision=revision_of(pending.pk),
                                   code=pending.confirmation_code, by=None)
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post("/manage/ka/rounds/1/close/")
    assert response.status_code == 302 and response["Location"] == "/manage/ka/desk/"
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE and round_.closed_at is not None
    assert StandingRow.objects.filter(tournament=tournament, scope="live", points=6).count() == 2
    # next: the final (the only preliminary round is done); no second close
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert 'data-action="seat-final"' in html and 'data-action="create-round"' not in html
    assert organizer.post("/manage/ka/rounds/1/close/").status_code == 409


def test_the_desk_offers_the_next_preliminary_round(organizer, tournament, players):
    tournament.preliminary_rounds = 3
    tournament.save()
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    for table, group in zip(tables, (players[:6], players[6:]), strict=True):
        play(table, {p: 1000 + 10 * i for i, p in enumerate(group)})
    organizer.post("/manage/ka/rounds/1/close/")
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert 'data-action="create-round"' in html and "Create round 2" in html
    created = organizer.post("/manage/ka/rounds/new/", {"kind": "preliminary"})
    assert created.status_code == 302
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert 'data-action="seat-draft"' in html and "/manage/ka/rounds/2/" in html


# --------------------------------------------------------------------------- the final


def test_seat_the_final_from_the_qualifiers_and_crown_the_winner(
    organizer, django_capture_on_commit_callbacks, tournament, players
):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 1000 + 50 * i for i, p in enumerate(players[6:])})
        organizer.post("/manage/ka/rounds/1/close/")
    expected = {row.player_id for row in selectors.placed_rows(tournament, scope="live")[:6]}
    html = organizer.get("/manage/ka/desk/").content.decode()
    for player_id in expected:
        assert f'data-qualifier="{player_id}"' in html

    response = organizer.post("/manage/ka/final/seat/")
    assert response.status_code == 302 and response["Location"] == "/manage/ka/rounds/2/"
    final = tournament.rounds.get(number=2)
    assert final.kind == Round.Kind.FINAL and final.status == Round.Status.SEATED
    assert set(final.seats.values_list("player_id", flat=True)) == expected
    assert organizer.post("/manage/ka/final/seat/").status_code == 400  # only once

    final.status = Round.Status.RUNNING
    final.save()
    table = final.tables.get()
    seated = [seat.player for seat in table.seats.order_by("position")]
    play(table, {p: 500 + 10 * i for i, p in enumerate(seated)})
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert "Close the final and crown the winner" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post("/manage/ka/rounds/2/close/")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == seated[-1]
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert f'data-champion="{seated[-1].pk}"' in html and seated[-1].name in html


def test_the_final_cannot_be_seated_while_a_round_is_open(organizer, tournament, players):
    make_round(tournament, 1, [players[:6], players[6:]])
    response = organizer.post("/manage/ka/final/seat/")
    assert response.status_code == 400
    assert not tournament.rounds.filter(kind=Round.Kind.FINAL).exists()


# --------------------------------------------------------------------------- the head referee


def test_the_head_referee_resolves_a_dispute_with_a_ruling(client, tournament, players):
    _, tables = make_round(tournament, 1, [players[:6]])
    game = play(tables[0], {p: 1000 + 10 * i for i, p in enumerate(players[:6])}, confirm=False)
    referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                   note="Die Hypothek auf der Parkstraße fehlt", by=None)
    judge = head_referee()
    client.force_login(judge)
    url = f"/manage/ka/results/{game.pk}/resolve/"
    # a disputed result needs the ruling written down
    refused = client.post(url, {"note": "  ", "revision": revision_of(game.pk)})
    assert refused.status_code == 400
    assert GameResult.objects.get(game=game).status == GameResult.Status.DISPUTED
    response = client.post(url, {"note": "Hypothek war eingetragen; Zählung gilt.",
                                 "revision": revision_of(game.pk)})
    assert response.status_code == 302 and response["Location"] == "/manage/ka/desk/"
    result = GameResult.objects.get(game=game)
    assert result.status == GameResult.Status.CONFIRMED
    assert result.confirmed_via == "head_referee" and result.confirmed_by == judge
    assert result.resolved_note == "Hypothek war eingetragen; Zählung gilt."
    assert result.dispute_note == "Die Hypothek auf der Parkstraße fehlt"
    # shown on the table's card; a second ruling is refused
    html = client.get("/manage/ka/desk/").content.decode()
    assert "Hypothek war eingetragen; Zählung gilt." in html
    again = client.post(url, {"note": "nochmal", "revision": revision_of(game.pk)})
    assert again.status_code == 409


@pytest.mark.parametrize("note, code", [("gilt\x00", "note_nul"), ("x" * 2001, "note_too_long")])
def test_a_ruling_that_cannot_be_stored_is_refused_with_a_message(organizer, tournament,
                                                                  players, note, code):
    """Found by the form fuzz: a NUL in the ruling was a database error on PostgreSQL."""
    _, tables = make_round(tournament, 1, [players[:6]])
    game = play(tables[0], dict.fromkeys(players[:6], 1000), confirm=False)
    response = organizer.post(f"/manage/ka/results/{game.pk}/resolve/",
                              {"note": note, "revision": revision_of(game.pk)})
    assert response.status_code == 400
    assert f'data-code="{code}"' in response.content.decode()
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED


def test_an_organizer_may_confirm_a_counted_result_as_head_referee(organizer, tournament,
                                                                  players):
    _, tables = make_round(tournament, 1, [players[:6]])
    game = play(tables[0], dict.fromkeys(players[:6], 1000), confirm=False)
    response = organizer.post(f"/manage/ka/results/{game.pk}/resolve/",
                              {"revision": revision_of(game.pk)})
    assert response.status_code == 302
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED


def test_a_result_of_another_tournament_is_not_found(organizer, tournament, players):
    other = TournamentFactory(status=Tournament.Status.RUNNING, slug="other")
    other_players = [PlayerFactory(tournament=other) for _ in range(6)]
    _, tables = make_round(other, 1, [other_players])
    game = play(tables[0], dict.fromkeys(other_players, 1000), confirm=False)
    assert organizer.post(f"/manage/ka/results/{game.pk}/resolve/").status_code == 404


# --------------------------------------------------------------------------- permissions


@pytest.mark.parametrize("who", ["anonymous", "banker", "head_referee"])
def test_only_organizers_close_rounds_and_seat_finals(client, tournament, players, who):
    round_, tables = make_round(tournament, 1, [players[:6]])
    play(tables[0], dict.fromkeys(players[:6], 1000))
    if who == "banker":
        banker = UserFactory(username="banker1")
        tables[0].banker = banker
        tables[0].save()
        client.force_login(banker)
    elif who == "head_referee":
        client.force_login(head_referee())
    close = client.post("/manage/ka/rounds/1/close/")
    final = client.post("/manage/ka/final/seat/")
    export = client.get("/manage/ka/export/")
    if who == "anonymous":
        assert close.status_code == final.status_code == export.status_code == 302
    else:
        assert close.status_code == final.status_code == export.status_code == 403
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING


@pytest.mark.parametrize("who", ["anonymous", "banker"])
def test_bankers_and_visitors_cannot_rule_on_a_dispute(client, tournament, players, who):
    _, tables = make_round(tournament, 1, [players[:6]])
    game = play(tables[0], dict.fromkeys(players[:6], 1000), confirm=False)
    referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                   note="?", by=None)
    if who == "banker":
        banker = UserFactory(username="banker1")
        tables[0].banker = banker
        tables[0].save()
        client.force_login(banker)
    response = client.post(f"/manage/ka/results/{game.pk}/resolve/", {"note": "gilt"})
    assert response.status_code == (302 if who == "anonymous" else 403)
    assert GameResult.objects.get(game=game).status == GameResult.Status.DISPUTED


def test_get_is_not_allowed_on_actions(organizer, tournament, players):
    make_round(tournament, 1, [players[:6]])
    assert organizer.get("/manage/ka/rounds/1/close/").status_code == 405
    assert organizer.get("/manage/ka/final/seat/").status_code == 405


# --------------------------------------------------------------------------- undoing a round
# Issue 24, finding 6: "Neu auslosen" on a seated final seated every checked-in player (18 at 3
# tables) with no confirmation and no way back; a final could be seated early without a word.


def _closed_round_one(client, tournament, players, callbacks):
    _, tables = make_round(tournament, 1, [players[:6], players[6:12], players[12:18]])
    with callbacks(execute=True):
        for table, group in zip(tables, (players[:6], players[6:12], players[12:18]),
                                strict=True):
            play(table, {p: 1000 + 100 * i for i, p in enumerate(group)})
        assert client.post("/manage/ka/rounds/1/close/").status_code == 302


def test_seating_a_final_again_takes_the_qualifiers_only_and_asks_first(
    organizer, django_capture_on_commit_callbacks, tournament, players
):
    players += [PlayerFactory(tournament=tournament, name=f"Spieler {i:02d}") for i in range(12, 18)]
    _closed_round_one(organizer, tournament, players, django_capture_on_commit_callbacks)
    assert organizer.post("/manage/ka/final/seat/").status_code == 302
    final = tournament.rounds.get(kind=Round.Kind.FINAL)
    qualified = set(final.seats.values_list("player_id", flat=True))
    assert len(qualified) == 6 and final.tables.count() == 1

    # the round page's "seat again" of a final: refused, with the reason in both languages
    refused = organizer.post(f"/manage/ka/rounds/{final.number}/seat/",
                                    {"version": final.version})
    assert refused.status_code == 409
    assert 'data-code="final_from_qualifiers"' in refused.content.decode()
    assert "qualifiers" in refused.content.decode()
    german = organizer.post(f"/manage/ka/rounds/{final.number}/seat/",
                                   {"version": final.version}, HTTP_ACCEPT_LANGUAGE="de")
    assert "Qualifizierten" in german.content.decode()
    assert final.seats.count() == 6 and final.tables.count() == 1
    page = organizer.get(f"/manage/ka/rounds/{final.number}/").content.decode()
    assert f"/manage/ka/rounds/{final.number}/reseat/" in page
    assert f'action="/manage/ka/rounds/{final.number}/seat/"' not in page

    # the desk's own step asks first: the question names the qualifiers, nothing changes yet
    url = f"/manage/ka/rounds/{final.number}/reseat/"
    version = Round.objects.get(pk=final.pk).version
    for asked in (organizer.get(url), organizer.post(url, {"seed": "5"})):
        html = asked.content.decode()
        assert asked.status_code == 200 and 'data-action="confirm-reseat"' in html
        assert {int(pk) for pk in re.findall(r'data-qualifier="(\d+)"', html)} == qualified
    assert Round.objects.get(pk=final.pk).version == version

    done = organizer.post(url, {"confirm": "1", "seed": "5", "reason": "Tisch getauscht"})
    assert done.status_code == 302
    final.refresh_from_db()
    assert final.version > version and final.status == Round.Status.SEATED
    assert set(final.seats.values_list("player_id", flat=True)) == qualified
    assert final.tables.count() == 1
    entry = audit.lines(audit.entries(tournament, what="round.reseat"))[0]
    assert entry.reason == "Tisch getauscht"


def test_the_api_cannot_seat_a_final_with_everyone_either(tournament, players):
    final = RoundFactory(tournament=tournament, number=1, kind=Round.Kind.FINAL)
    with pytest.raises(tournament_errors.InvalidTransition) as refused:
        tournament_services.seat_round(round_=final)
    assert refused.value.code == "final_from_qualifiers"
    assert not final.seats.exists()


def test_a_round_whose_games_have_not_begun_is_deleted_after_asking(organizer, tournament,
                                                                   players):
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    referee.ensure_game(table=tables[0])  # the console was opened, nothing recorded
    url = "/manage/ka/rounds/1/delete/"
    asked = organizer.get(url)
    assert asked.status_code == 200 and 'data-action="confirm-delete"' in asked.content.decode()
    assert organizer.post(url).status_code == 200  # no "confirm": asked again
    assert Round.objects.filter(pk=round_.pk).exists()
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert 'data-action="delete-round"' in html and 'data-action="reseat"' in html

    done = organizer.post(url, {"confirm": "1", "reason": "falsch ausgelost"})
    assert done.status_code == 302 and done["Location"] == "/manage/ka/desk/"
    assert not Round.objects.filter(pk=round_.pk).exists()
    assert audit.lines(audit.entries(tournament, what="round.delete"))
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert "No round has been seated yet." in html  # round 1 can be created afresh


def test_a_running_round_not_yet_begun_is_seated_again_and_goes_back_to_seated(
    organizer, tournament, players
):
    round_, _tables = make_round(tournament, 1, [players[:6], players[6:]],
                                 started_at=minutes_ago(1))
    done = organizer.post("/manage/ka/rounds/1/reseat/", {"confirm": "1"})
    assert done.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED and round_.started_at is None
    assert round_.seats.count() == 12


@pytest.mark.parametrize("step", ["delete", "reseat"])
def test_once_a_game_has_begun_the_round_is_neither_deleted_nor_seated_again(
    organizer, tournament, players, step
):
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    game = referee.ensure_game(table=tables[1])
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    layout = list(round_.seats.order_by("pk").values_list("player_id", "table_id"))
    url = f"/manage/ka/rounds/1/{step}/"
    asked = organizer.get(url).content.decode()
    assert 'data-refused="round_begun"' in asked and 'data-action="confirm-' not in asked
    refused = organizer.post(url, {"confirm": "1"})
    assert refused.status_code == 409
    html = refused.content.decode()
    assert 'data-code="round_begun"' in html and "table 2 has begun" in html
    german = organizer.post(url, {"confirm": "1"}, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 409 and "Tisch 2" in german.content.decode()
    assert list(round_.seats.order_by("pk").values_list("player_id", "table_id")) == layout
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert 'data-action="delete-round"' not in html


def test_seating_the_final_early_warns_and_needs_a_tick(
    organizer, django_capture_on_commit_callbacks, tournament, players
):
    tournament.preliminary_rounds = 3
    tournament.save()
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        for table, group in zip(tables, (players[:6], players[6:]), strict=True):
            play(table, {p: 1000 + 10 * i for i, p in enumerate(group)})
        organizer.post("/manage/ka/rounds/1/close/")
    html = organizer.get("/manage/ka/desk/").content.decode()
    assert 'data-warning="final-early"' in html
    assert "Closed so far: 1 of the 3 preliminary rounds" in html and 'name="early"' in html
    german = organizer.get("/manage/ka/desk/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Bisher abgeschlossen: 1 von 3" in german  # one round or three: no "1 … sind"

    refused = organizer.post("/manage/ka/final/seat/")
    assert refused.status_code == 409
    assert 'data-code="final_early"' in refused.content.decode()
    assert "Closed so far: 1 of the 3 preliminary rounds" in refused.content.decode()
    assert not tournament.rounds.filter(kind=Round.Kind.FINAL).exists()

    assert organizer.post("/manage/ka/final/seat/", {"early": "on"}).status_code == 302
    assert tournament.rounds.filter(kind=Round.Kind.FINAL).exists()
    assert audit.lines(audit.entries(tournament, what="final.seat"))


def test_a_final_created_on_the_rounds_page_is_seated_from_the_qualifiers_too(
    organizer, django_capture_on_commit_callbacks, tournament, players
):
    """The rounds page can create a round of kind "final": its first seating, too, takes the
    qualifiers only (on the desk's page, which asks first and wants the early tick)."""
    tournament.preliminary_rounds = 2
    tournament.save()
    players += [PlayerFactory(tournament=tournament, name=f"Spieler {i:02d}") for i in range(12, 18)]
    _closed_round_one(organizer, tournament, players, django_capture_on_commit_callbacks)
    assert organizer.post("/manage/ka/rounds/new/", {"kind": "final"}).status_code == 302
    page = organizer.get("/manage/ka/rounds/2/").content.decode()
    assert 'href="/manage/ka/rounds/2/reseat/"' in page
    assert 'action="/manage/ka/rounds/2/seat/"' not in page
    asked = organizer.get("/manage/ka/rounds/2/reseat/").content.decode()
    assert 'data-warning="final-early"' in asked and 'name="early"' in asked
    refused = organizer.post("/manage/ka/rounds/2/reseat/", {"confirm": "1"})
    assert refused.status_code == 409 and 'data-code="final_early"' in refused.content.decode()
    done = organizer.post("/manage/ka/rounds/2/reseat/", {"confirm": "1", "early": "on"})
    assert done.status_code == 302
    final = tournament.rounds.get(number=2)
    assert final.seats.count() == 6 and final.tables.count() == 1
