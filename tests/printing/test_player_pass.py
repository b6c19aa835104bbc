"""A player's own page by personal code (issue 17): where to sit (table, seat, banker) and the
clock, the next round's table once seated, results and standing; no login, not guessable,
renewed by the desk (the old code then opens nothing); the player card and the staff's seating
list carry the code."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from factories import OrganizerFactory, TournamentFactory, UserFactory, appoint

from printing import data as print_data
from tournament.models import (
    PASS_CODE_ALPHABET,
    Player,
    Round,
    StaffRole,
    Tournament,
)
from tournament.players.services import normal_pass_code, pass_code_display

pytestmark = pytest.mark.django_db
from gameplay import make_round, play, twelve_at_two_tables  # noqa: E402

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka", finalists=6)


@pytest.fixture
def hall(tournament):
    players, tables = twelve_at_two_tables(tournament)
    banker = UserFactory(first_name="Bea", last_name="Bank")
    tables[1].banker = banker
    tables[1].save()
    return players, tables


def test_every_player_has_a_code_nobody_guesses(hall):
    players, _ = hall
    codes = {p.pass_code for p in Player.objects.all()}
    assert len(codes) == len(players)
    for code in codes:
        assert len(code) == 8 and set(code) <= set(PASS_CODE_ALPHABET)
    assert normal_pass_code(" km7q-4xpz ") == "KM7Q4XPZ"
    assert pass_code_display("KM7Q4XPZ") == "KM7Q-4XPZ"


def test_the_page_shows_table_seat_banker_and_clock(client, hall):
    players, tables = hall
    player = Player.objects.get(pk=players[7].pk)
    answer = client.get(f"/p/{player.pass_code}/", **EN)
    body = answer.content.decode()
    assert answer.status_code == 200
    assert re.search(r'class="me-table">2<', body) and re.search(r'class="me-pos">2<', body)
    assert "Bea Bank" in body and "data-clock" in body and player.name in body
    assert answer["Referrer-Policy"] == "no-referrer" and "private" in answer["Cache-Control"]
    # typed from the card, in any case and with the dash
    typed = client.get("/p/", {"code": pass_code_display(player.pass_code).lower()})
    assert typed.status_code == 302 and typed["Location"] == f"/p/{player.pass_code}/"
    # a wrong code opens nothing and says so
    wrong = client.get("/p/ZZZZZZZZ/", **EN)
    assert wrong.status_code == 404 and "opens no page" in wrong.content.decode()
    assert client.get("/p/ZZZZZZZZ/live").status_code == 404


def test_the_result_appears_after_confirmation_and_the_next_table_once_seated(
        client, hall, tournament, django_capture_on_commit_callbacks):
    players, tables = hall
    player = Player.objects.get(pk=players[5].pk)
    url = f"/p/{player.pass_code}/"
    assert "Not played yet" in client.get(url, **EN).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    body = client.get(url, **EN).content.decode()
    assert "1st place" in body and "Place</dt><dd>1st</dd>" in body
    make_round(tournament, 2, [players[6:], players[:6]], status=Round.Status.SEATED)
    body = client.get(url, **EN).content.decode()
    assert "data-me-next" in body and "Round 2" in body


def test_a_players_poll_is_one_query_and_a_rebuild_a_handful(
        client, hall, tournament, django_assert_num_queries, django_assert_max_num_queries,
        django_capture_on_commit_callbacks):
    """1,000 phones poll this page: a repeated poll only looks up the code; after a change one
    rebuild reads the player's games, results and standing in a few queries (not one per game)."""
    players, tables = hall
    live = f"/p/{players[0].pass_code}/live"
    client.get(live)
    with django_assert_num_queries(1):  # the code; the body comes from the cache
        assert client.get(live).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    _, second = make_round(tournament, 2, [players[6:], players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        play(second[1], {p: 2000 + 100 * i for i, p in enumerate(players[:6])})
    with django_assert_max_num_queries(7):  # two games played
        assert client.get(live).status_code == 200
    with django_assert_num_queries(1):
        assert client.get(live).status_code == 200


def test_the_desk_renews_a_lost_code_and_the_old_one_stops_at_once(client, hall, tournament):
    players, _ = hall
    player = Player.objects.get(pk=players[0].pk)
    old = player.pass_code
    desk = appoint(UserFactory(), StaffRole.Role.DESK, tournament)
    banker = appoint(UserFactory(), StaffRole.Role.BANKER, tournament)
    stranger = Client()
    stranger.force_login(banker)
    refused = stranger.post(f"/manage/ka/players/{player.pk}/new-code/")
    assert refused.status_code == 403
    assert Player.objects.get(pk=player.pk).pass_code == old
    staff = Client()
    staff.force_login(desk)
    staff.post(f"/manage/ka/players/{player.pk}/new-code/", {"next": "/manage/ka/check-in/"})
    new = Player.objects.get(pk=player.pk).pass_code
    assert new != old
    assert client.get(f"/p/{old}/").status_code == 404
    assert client.get(f"/p/{new}/").status_code == 200


def test_the_player_card_and_the_staff_seating_list_carry_the_code(hall, tournament):
    players, tables = hall
    desk = Client()
    desk.force_login(appoint(UserFactory(), StaffRole.Role.DESK, tournament))
    card = desk.get(f"/manage/ka/print/players/{players[0].pk}/card.pdf")
    assert card.status_code == 200 and card["Content-Type"] == "application/pdf"
    assert card.content.startswith(b"%PDF")
    organizer = Client()
    organizer.force_login(OrganizerFactory(tournaments=[tournament]))
    batch = organizer.get("/manage/ka/print/1/player-cards.pdf")
    assert batch.status_code == 200 and b"".join(batch.streaming_content).startswith(b"%PDF")
    staff_lines = print_data.seating_by_name(tables[0].round, full_names=True)
    codes = {pass_code_display(p.pass_code) for p in Player.objects.all()}
    assert {line.code for line in staff_lines} == codes
    assert {line.code for line in print_data.seating_by_name(tables[0].round)} == {""}
