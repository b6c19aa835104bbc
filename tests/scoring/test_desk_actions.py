"""What the organizer and the head referee do on the round desk: close the round once every
result is confirmed, seat the final from the qualifiers, crown the winner, rule on a dispute."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, minutes_ago
from gameplay import play as play_at

from referee import services as referee
from referee.models import GameResult
from scoring.models import StandingRow
from tournament.models import Round, Tournament

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


@pytest.fixture
def organizer_client(client):
    # Global (a superuser): these tests make their tournaments after logging in; the scope of
    # organizers is tested in tests/tournament/test_access_routes.py.
    client.force_login(OrganizerFactory(is_superuser=True))
    return client


def head_referee():
    user = UserFactory(username="mrmonopoly")
    appoint(user, "head_referee")
    return user


# --------------------------------------------------------------------------- closing a round


def test_close_is_refused_until_every_result_is_confirmed_then_allowed(
    organizer_client, django_capture_on_commit_callbacks, tournament, players
):
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    play(tables[0], {p: 1000 + 10 * i for i, p in enumerate(players[:6])})
    pending = play(tables[1], {p: 2000 + 10 * i for i, p in enumerate(players[6:])},
                   confirm=False)
    refused = organizer_client.post("/manage/ka/rounds/1/close/")
    assert refused.status_code == 409
    assert "tables 2 have no confirmed result" in refused.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING

    referee.confirm_result(game_id=pending.pk, code=pending.confirmation_code, by=None)
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_client.post("/manage/ka/rounds/1/close/")
    assert response.status_code == 302 and response["Location"] == "/manage/ka/desk/"
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE and round_.closed_at is not None
    assert StandingRow.objects.filter(tournament=tournament, scope="live", points=6).count() == 2
    # next: the final (the only preliminary round is done); no second close
    html = organizer_client.get("/manage/ka/desk/").content.decode()
    assert 'data-action="seat-final"' in html and 'data-action="create-round"' not in html
    assert organizer_client.post("/manage/ka/rounds/1/close/").status_code == 409


def test_the_desk_offers_the_next_preliminary_round(organizer_client, tournament, players):
    tournament.preliminary_rounds = 3
    tournament.save()
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    for table, group in zip(tables, (players[:6], players[6:]), strict=True):
        play(table, {p: 1000 + 10 * i for i, p in enumerate(group)})
    organizer_client.post("/manage/ka/rounds/1/close/")
    html = organizer_client.get("/manage/ka/desk/").content.decode()
    assert 'data-action="create-round"' in html and "Create round 2" in html
    created = organizer_client.post("/manage/ka/rounds/new/", {"kind": "preliminary"})
    assert created.status_code == 302
    html = organizer_client.get("/manage/ka/desk/").content.decode()
    assert 'data-action="seat-draft"' in html and "/manage/ka/rounds/2/" in html


# --------------------------------------------------------------------------- the final


def test_seat_the_final_from_the_qualifiers_and_crown_the_winner(
    organizer_client, django_capture_on_commit_callbacks, tournament, players
):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 1000 + 50 * i for i, p in enumerate(players[6:])})
        organizer_client.post("/manage/ka/rounds/1/close/")
    expected = set(
        StandingRow.objects.filter(tournament=tournament, scope="live")
        .order_by("position").values_list("player_id", flat=True)[:6]
    )
    html = organizer_client.get("/manage/ka/desk/").content.decode()
    for player_id in expected:
        assert f'data-qualifier="{player_id}"' in html

    response = organizer_client.post("/manage/ka/final/seat/")
    assert response.status_code == 302 and response["Location"] == "/manage/ka/rounds/2/"
    final = tournament.rounds.get(number=2)
    assert final.kind == Round.Kind.FINAL and final.status == Round.Status.SEATED
    assert set(final.seats.values_list("player_id", flat=True)) == expected
    assert organizer_client.post("/manage/ka/final/seat/").status_code == 400  # only once

    final.status = Round.Status.RUNNING
    final.save()
    table = final.tables.get()
    seated = [seat.player for seat in table.seats.order_by("position")]
    play(table, {p: 500 + 10 * i for i, p in enumerate(seated)})
    html = organizer_client.get("/manage/ka/desk/").content.decode()
    assert "Close the final and crown the winner" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_client.post("/manage/ka/rounds/2/close/")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == seated[-1]
    html = organizer_client.get("/manage/ka/desk/").content.decode()
    assert f'data-champion="{seated[-1].pk}"' in html and seated[-1].name in html


def test_the_final_cannot_be_seated_while_a_round_is_open(organizer_client, tournament, players):
    make_round(tournament, 1, [players[:6], players[6:]])
    response = organizer_client.post("/manage/ka/final/seat/")
    assert response.status_code == 400
    assert not tournament.rounds.filter(kind=Round.Kind.FINAL).exists()


# --------------------------------------------------------------------------- the head referee


def test_the_head_referee_resolves_a_dispute_with_a_ruling(client, tournament, players):
    _, tables = make_round(tournament, 1, [players[:6]])
    game = play(tables[0], {p: 1000 + 10 * i for i, p in enumerate(players[:6])}, confirm=False)
    referee.dispute_result(game_id=game.pk, note="Die Hypothek auf der Parkstraße fehlt", by=None)
    judge = head_referee()
    client.force_login(judge)
    url = f"/manage/ka/results/{game.pk}/resolve/"
    # a disputed result needs the ruling written down
    refused = client.post(url, {"note": "  "})
    assert refused.status_code == 400
    assert GameResult.objects.get(game=game).status == GameResult.Status.DISPUTED
    response = client.post(url, {"note": "Hypothek war eingetragen; Zählung gilt."})
    assert response.status_code == 302 and response["Location"] == "/manage/ka/desk/"
    result = GameResult.objects.get(game=game)
    assert result.status == GameResult.Status.CONFIRMED
    assert result.confirmed_via == "head_referee" and result.confirmed_by == judge
    assert result.resolved_note == "Hypothek war eingetragen; Zählung gilt."
    assert result.dispute_note == "Die Hypothek auf der Parkstraße fehlt"
    # shown on the table's card; a second ruling is refused
    html = client.get("/manage/ka/desk/").content.decode()
    assert "Hypothek war eingetragen; Zählung gilt." in html
    assert client.post(url, {"note": "nochmal"}).status_code == 409


@pytest.mark.parametrize("note, code", [("gilt\x00", "note_nul"), ("x" * 2001, "note_too_long")])
def test_a_ruling_that_cannot_be_stored_is_refused_with_a_message(organizer_client, tournament,
                                                                  players, note, code):
    """Found by the form fuzz: a NUL in the ruling was a database error on PostgreSQL."""
    _, tables = make_round(tournament, 1, [players[:6]])
    game = play(tables[0], dict.fromkeys(players[:6], 1000), confirm=False)
    response = organizer_client.post(f"/manage/ka/results/{game.pk}/resolve/", {"note": note})
    assert response.status_code == 400
    assert f'data-code="{code}"' in response.content.decode()
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED


def test_an_organizer_may_confirm_a_counted_result_as_head_referee(organizer_client, tournament,
                                                                  players):
    _, tables = make_round(tournament, 1, [players[:6]])
    game = play(tables[0], dict.fromkeys(players[:6], 1000), confirm=False)
    response = organizer_client.post(f"/manage/ka/results/{game.pk}/resolve/")
    assert response.status_code == 302
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED


def test_a_result_of_another_tournament_is_not_found(organizer_client, tournament, players):
    other = TournamentFactory(status=Tournament.Status.RUNNING, slug="other")
    other_players = [PlayerFactory(tournament=other) for _ in range(6)]
    _, tables = make_round(other, 1, [other_players])
    game = play(tables[0], dict.fromkeys(other_players, 1000), confirm=False)
    assert organizer_client.post(f"/manage/ka/results/{game.pk}/resolve/").status_code == 404


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
    referee.dispute_result(game_id=game.pk, note="?", by=None)
    if who == "banker":
        banker = UserFactory(username="banker1")
        tables[0].banker = banker
        tables[0].save()
        client.force_login(banker)
    response = client.post(f"/manage/ka/results/{game.pk}/resolve/", {"note": "gilt"})
    assert response.status_code == (302 if who == "anonymous" else 403)
    assert GameResult.objects.get(game=game).status == GameResult.Status.DISPUTED


def test_get_is_not_allowed_on_actions(organizer_client, tournament, players):
    make_round(tournament, 1, [players[:6]])
    assert organizer_client.get("/manage/ka/rounds/1/close/").status_code == 405
    assert organizer_client.get("/manage/ka/final/seat/").status_code == 405
