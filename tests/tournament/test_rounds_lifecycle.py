"""Rounds: create, seat (with history, clubs apart, drop-outs skipped), lock, start; refusals."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, RoundFactory, TournamentFactory, checked_in_players
from gameplay import seating_layout

from tournament import errors
from tournament.models import Round, Seat, Tournament
from tournament.rounds import services
from tournament.seating import count_repeats, count_same_club, pair_meetings

pytestmark = pytest.mark.django_db

FAST = 2.0  # seconds of search: the instances here reach their lower bound at once


def _complete(round_: Round) -> None:
    """Stand-in for closing a round (results come from the referee app)."""
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING)


def test_create_seat_lock_start(tournament):
    checked_in_players(tournament, 36)
    round_ = services.create_round(tournament=tournament)
    assert (round_.number, round_.status, round_.version) == (1, Round.Status.DRAFT, 0)

    outcome = services.seat_round(round_=round_, seconds=FAST)
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED
    assert round_.version == 1
    assert [t.number for t in outcome.tables] == [1, 2, 3, 4, 5, 6]
    assert sorted(len(t) for t in seating_layout(round_)) == [6] * 6
    for table in outcome.tables:
        positions = sorted(table.seats.values_list("position", flat=True))
        assert positions == [1, 2, 3, 4, 5, 6]

    services.lock_round(round_=round_, version=1)
    round_.refresh_from_db()
    assert (round_.status, round_.version) == (Round.Status.LOCKED, 2)

    services.start_round(round_=round_, version=2)
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING
    assert round_.started_at is not None
    assert round_.closed_at is None


def test_round_two_has_no_repeated_pairs(tournament):
    checked_in_players(tournament, 36)
    first = services.create_round(tournament=tournament)
    services.seat_round(round_=first, seconds=FAST)
    _complete(first)
    second = services.create_round(tournament=tournament)
    outcome = services.seat_round(round_=second, seconds=FAST)
    assert second.number == 2
    assert outcome.repeated_pairs == 0
    history = [seating_layout(first)]
    assert count_repeats(rounds=[seating_layout(second)], history=history) == 0
    assert max(pair_meetings(rounds=[*history, seating_layout(second)]).values()) == 1


def test_dropped_out_and_absent_players_are_not_seated(tournament):
    players = checked_in_players(tournament, 14)
    players[0].dropped_out = True
    players[0].save()
    players[1].checked_in = False
    players[1].save()
    round_ = services.create_round(tournament=tournament)
    services.seat_round(round_=round_, seconds=FAST)
    seated = set(Seat.objects.filter(round=round_).values_list("player_id", flat=True))
    assert len(seated) == 12
    assert players[0].pk not in seated and players[1].pk not in seated


def test_dropout_after_round_one_is_skipped_in_round_two_but_stays_in_round_one(tournament):
    players = checked_in_players(tournament, 12)
    first = services.create_round(tournament=tournament)
    services.seat_round(round_=first, seconds=FAST)
    _complete(first)
    players[3].dropped_out = True
    players[3].save()
    second = services.create_round(tournament=tournament)
    services.seat_round(round_=second, seconds=FAST, min_size=4)
    assert Seat.objects.filter(round=first, player=players[3]).exists()
    assert not Seat.objects.filter(round=second, player=players[3]).exists()
    assert Seat.objects.filter(round=second).count() == 11


def test_35_players_sit_at_tables_of_six_and_five(tournament):
    checked_in_players(tournament, 35)
    round_ = services.create_round(tournament=tournament)
    services.seat_round(round_=round_, seconds=FAST)
    assert sorted(len(table) for table in seating_layout(round_)) == [5, 6, 6, 6, 6, 6]


def test_clubs_are_kept_apart(tournament):
    players = checked_in_players(tournament, 24, clubs=6)  # 4 per club, 4 tables of 6
    round_ = services.create_round(tournament=tournament)
    services.seat_round(round_=round_, seconds=FAST)
    clubs = {p.pk: p.club_id for p in players}
    assert count_same_club(rounds=[seating_layout(round_)], clubs=clubs) == 0


def test_turn_order_is_seeded_and_repeatable(tournament):
    checked_in_players(tournament, 12)
    round_ = services.create_round(tournament=tournament)
    first = services.seat_round(round_=round_, seed=7, seconds=FAST)
    order = seating_layout(round_)
    services.seat_round(round_=round_, seed=7, seconds=FAST)
    assert first.seed == 7
    assert seating_layout(round_) == order


def test_reseat_keeps_table_rows_and_bankers(tournament):
    checked_in_players(tournament, 12)
    round_ = services.create_round(tournament=tournament)
    tables = services.seat_round(round_=round_, seconds=FAST).tables
    banker = OrganizerFactory(is_staff=False, username="bank1")
    services.assign_banker(table=tables[0], banker=banker)
    again = services.seat_round(round_=round_, seconds=FAST).tables
    assert [t.pk for t in again] == [t.pk for t in tables]
    again[0].refresh_from_db()
    assert again[0].banker == banker


def test_reseat_refused_once_locked_naming_the_rule(tournament):
    checked_in_players(tournament, 12)
    round_ = services.create_round(tournament=tournament)
    services.seat_round(round_=round_, seconds=FAST)
    services.lock_round(round_=round_)
    with pytest.raises(errors.InvalidTransition) as refused:
        services.seat_round(round_=round_, seconds=FAST)
    assert "unlock a locked round first" in refused.value.message_in("en")
    services.unlock_round(round_=round_)
    services.seat_round(round_=round_, seconds=FAST)


@pytest.mark.parametrize(
    ("status", "call"),
    [
        (Round.Status.DRAFT, services.lock_round),
        (Round.Status.DRAFT, services.start_round),
        (Round.Status.SEATED, services.start_round),
        (Round.Status.SEATED, services.unlock_round),
        (Round.Status.RUNNING, services.lock_round),
        (Round.Status.RUNNING, services.unlock_round),
        (Round.Status.COMPLETE, services.start_round),
    ],
)
def test_invalid_transitions_are_refused(tournament, status, call):
    round_ = RoundFactory(tournament=tournament, number=1, status=status)
    with pytest.raises(errors.InvalidTransition) as refused:
        call(round_=round_)
    assert refused.value.http_status == 409
    assert "Rule:" in refused.value.message_in("en")
    round_.refresh_from_db()
    assert (round_.status, round_.version) == (status, 0)


def test_start_refused_while_tournament_in_registration(tournament):
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save()
    checked_in_players(tournament, 6)
    round_ = services.create_round(tournament=tournament)  # seating ahead is allowed
    services.seat_round(round_=round_, seconds=FAST)
    services.lock_round(round_=round_)
    with pytest.raises(errors.TournamentNotRunning) as refused:
        services.start_round(round_=round_)
    message = refused.value.message_in("en")
    assert "Registration" in message and "only start while the tournament is running" in message
    round_.refresh_from_db()
    assert round_.status == Round.Status.LOCKED and round_.started_at is None


def test_only_one_round_runs_at_a_time(tournament):
    RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    second = RoundFactory(tournament=tournament, number=2, status=Round.Status.LOCKED)
    with pytest.raises(errors.InvalidTransition):
        services.start_round(round_=second)


def test_next_round_needs_the_previous_one_complete(tournament):
    RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    with pytest.raises(errors.RoundNotComplete) as refused:
        services.create_round(tournament=tournament)
    assert "Round 1 is not complete" in refused.value.message_in("en")


@pytest.mark.parametrize("status", [Tournament.Status.DRAFT, Tournament.Status.FINISHED])
def test_no_rounds_in_a_draft_or_finished_tournament(status):
    with pytest.raises(errors.TournamentClosedForRounds):
        services.create_round(tournament=TournamentFactory(status=status))


def test_too_few_players_and_impossible_splits_are_refused(tournament):
    checked_in_players(tournament, 4)
    round_ = services.create_round(tournament=tournament)
    with pytest.raises(errors.NotEnoughPlayers):
        services.seat_round(round_=round_, seconds=FAST)
    checked_in_players(tournament, 3)  # 7 players: tables of 4 and 3 only
    with pytest.raises(errors.SeatingImpossible) as refused:
        services.seat_round(round_=round_, seconds=FAST)
    assert refused.value.message_in("de") == (
        "7 Spieler lassen sich nicht an 2 Tische mit mindestens 5 setzen: ein Tisch hätte nur 3. "
        "Unter „Optionen“ kleinere Tische erlauben („Kleinster Tisch“) oder mehr Spieler "
        "einchecken."
    )
    assert refused.value.message_in("en").startswith(
        "7 players cannot be seated at 2 tables of at least 5: one table would have only 3."
    )
    services.seat_round(round_=round_, seconds=FAST, min_size=3)
    assert sorted(len(t) for t in seating_layout(round_)) == [3, 4]
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED


def test_stale_version_refuses_seat_and_start(tournament):
    checked_in_players(tournament, 6)
    round_ = services.create_round(tournament=tournament)
    services.seat_round(round_=round_, seconds=FAST, version=0)
    with pytest.raises(errors.StaleVersion):
        services.seat_round(round_=round_, seconds=FAST, version=0)
    with pytest.raises(errors.StaleVersion):
        services.lock_round(round_=round_, version=0)
    round_.refresh_from_db()
    assert (round_.status, round_.version) == (Round.Status.SEATED, 1)


# --- Organizer pages ------------------------------------------------------------------------


def test_organizer_walks_a_round_through_the_pages(client, tournament):
    checked_in_players(tournament, 35)
    client.force_login(OrganizerFactory())
    base = f"/manage/{tournament.slug}/rounds/"
    page = client.get(base)
    assert page.status_code == 200
    assert "35" in page.content.decode()

    response = client.post(base + "new/", {"kind": "preliminary"})
    assert response.status_code == 302 and response["Location"] == base + "1/"
    response = client.post(base + "1/seat/", {"version": 0})
    assert response.status_code == 302
    page = client.get(base + "1/")
    assert page.status_code == 200
    overview = page.context["overview"]
    assert sorted(len(line.seats) for line in overview.tables) == [5, 6, 6, 6, 6, 6]
    assert overview.repeats == 0
    assert client.post(base + "1/lock/", {"version": 1}).status_code == 302
    assert client.post(base + "1/start/", {"version": 2}).status_code == 302
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert round_.status == Round.Status.RUNNING


def test_refused_transition_page_names_the_rule(client, tournament):
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save()
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.LOCKED)
    client.force_login(OrganizerFactory())
    url = f"/manage/{tournament.slug}/rounds/1/start/"
    response = client.post(url, {"version": round_.version}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    body = response.content.decode()
    assert 'data-code="tournament_not_running"' in body
    assert "only start while the tournament is running" in body


def test_round_pages_are_for_organizers_only(client, tournament):
    RoundFactory(tournament=tournament, number=1)
    base = f"/manage/{tournament.slug}/rounds/"
    assert client.get(base).status_code == 302
    assert client.post(base + "new/").status_code == 302
    client.force_login(OrganizerFactory(tournaments=[]))  # staff, but not of this tournament
    assert client.get(base + "1/").status_code == 403
    assert client.post(base + "1/lock/", {"version": 0}).status_code == 403
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.DRAFT
