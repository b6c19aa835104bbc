"""Players: add, edit, late entry, check-in and its undo, drop-out and its undo, public name,
the private note's bound (service, API and database)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError
from django.test import Client
from factories import ClubFactory, OrganizerFactory, PlayerFactory, SeatFactory, TournamentFactory

from tournament.models import (
    Club,
    Player,
    Round,
    Tournament,
)
from tournament.players import services as players
from tournament.rounds import services

pytestmark = pytest.mark.django_db

S = Tournament.Status


def test_add_player_before_the_day_is_not_checked_in():
    tournament = TournamentFactory(status=S.REGISTRATION)
    player = players.add_player(
        tournament=tournament,
        name="  Anna   Müller ",
        club="Spielfreunde Durlach",
        email="anna@example.org",
        public_name_consent=True,
        private_note="bringt Kuchen",
    )
    assert player.name == "Anna Müller"
    assert player.club.name == "Spielfreunde Durlach"
    assert not player.checked_in and not player.dropped_out
    assert player.private_note == "bringt Kuchen"


def test_late_entry_while_running_is_checked_in_and_seated_next_round():
    tournament = TournamentFactory(status=S.RUNNING)
    player = players.add_player(tournament=tournament, name="Zoë Spät")
    assert player.checked_in
    assert player in services.active_players(tournament=tournament)


def test_add_in_draft_is_allowed_but_not_checked_in():
    tournament = TournamentFactory(status=S.DRAFT)
    assert not players.add_player(tournament=tournament, name="Früh").checked_in
    with pytest.raises(players.CheckInRefused) as info:
        players.add_player(tournament=tournament, name="Zu früh", checked_in=True)
    assert info.value.code == "check_in_not_open"


def test_add_refused_when_finished():
    tournament = TournamentFactory(status=S.FINISHED)
    with pytest.raises(players.PlayersLocked) as info:
        players.add_player(tournament=tournament, name="Zu spät")
    assert info.value.code == "tournament_finished"


@pytest.mark.parametrize("name", ["anna müller", "ANNA MÜLLER", "Anna  Müller"])
def test_names_are_unique_per_tournament_case_insensitively(name):
    tournament = TournamentFactory()
    PlayerFactory(tournament=tournament, name="Anna Müller")
    with pytest.raises(players.PlayerNameTaken) as info:
        players.add_player(tournament=tournament, name=name)
    assert info.value.code == "player_name_taken"
    assert info.value.http_status == 409
    # another tournament may have an Anna Müller of its own
    assert players.add_player(tournament=TournamentFactory(), name=name)


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"name": "   "}, "player_name_missing", "name"),
        ({"name": "x" * 121}, "player_name_too_long", "name"),
        ({"name": "Anna", "email": "anna@"}, "player_email_invalid", "email"),
        ({"name": "Anna", "club": "c" * 121}, "player_club_too_long", "club"),
    ],
)
def test_invalid_players_are_refused(fields, code, field):
    tournament = TournamentFactory()
    with pytest.raises(players.PlayerInvalid) as info:
        players.add_player(tournament=tournament, **fields)
    assert (info.value.code, info.value.field) == (code, field)
    assert not Player.objects.exists() and not Club.objects.exists()


def test_existing_club_is_found_by_name_or_short_name_case_insensitively():
    tournament = TournamentFactory()
    club = ClubFactory(tournament=tournament, name="Monopoly-Club Karlsruhe", short_name="MC KA")
    assert (
        players.add_player(tournament=tournament, name="A", club="monopoly-club karlsruhe").club
        == club
    )
    assert players.add_player(tournament=tournament, name="B", club="mc ka").club == club
    assert Club.objects.count() == 1


def test_edit_player():
    tournament = TournamentFactory()
    PlayerFactory(tournament=tournament, name="Ben Becker")
    player = PlayerFactory(tournament=tournament, name="Anna Müller")
    players.update_player(player=player, name="Anna Müller-Lang", club="KIT", email="")
    player.refresh_from_db()
    assert player.name == "Anna Müller-Lang" and player.club.name == "KIT"
    # keeping one's own name in another case is fine; taking another's is not
    players.update_player(player=player, name="anna müller-lang")
    with pytest.raises(players.PlayerNameTaken):
        players.update_player(player=player, name="BEN BECKER")


def test_check_in_and_undo():
    player = PlayerFactory(checked_in=False, tournament__status=S.REGISTRATION)
    assert players.check_in(player=player).checked_in
    assert players.check_in(player=player).checked_in  # a second tap changes nothing
    assert not players.undo_check_in(player=player).checked_in
    assert not players.undo_check_in(player=player).checked_in


def test_check_in_refused_in_draft_and_for_dropped_out():
    draft = PlayerFactory(checked_in=False, tournament__status=S.DRAFT)
    with pytest.raises(players.CheckInRefused) as info:
        players.check_in(player=draft)
    assert info.value.code == "check_in_not_open"
    gone = PlayerFactory(checked_in=False, dropped_out=True)
    with pytest.raises(players.CheckInRefused) as info:
        players.check_in(player=gone)
    assert info.value.code == "player_dropped_out"
    assert gone.name in info.value.message_in("en")


@pytest.mark.parametrize(
    ("round_status", "refused"),
    [
        (Round.Status.DRAFT, False),
        (Round.Status.SEATED, False),
        (Round.Status.LOCKED, True),
        (Round.Status.RUNNING, True),
        (Round.Status.COMPLETE, True),
    ],
)
def test_undo_check_in_refused_once_the_player_sat_at_a_fixed_seating(round_status, refused):
    seat = SeatFactory(table__round__status=round_status)
    player = seat.player
    if refused:
        with pytest.raises(players.CheckInRefused) as info:
            players.undo_check_in(player=player)
        assert info.value.code == "player_already_played"
        player.refresh_from_db()
        assert player.checked_in
    else:
        assert not players.undo_check_in(player=player).checked_in


def test_drop_out_keeps_past_rounds_and_skips_future_seating():
    seat = SeatFactory(table__round__status=Round.Status.COMPLETE)
    player, tournament = seat.player, seat.round.tournament
    tournament.status = S.RUNNING
    tournament.save()
    players.drop_out(player=player)
    player.refresh_from_db()
    assert player.dropped_out and player.dropped_out_at is not None
    assert player.seats.count() == 1  # still in the past round
    assert player not in services.active_players(tournament=tournament)
    first_time = player.dropped_out_at
    assert players.drop_out(player=player).dropped_out_at == first_time  # idempotent


def test_undo_drop_out():
    player = PlayerFactory()
    players.drop_out(player=player)
    player = players.undo_drop_out(player=player)
    assert not player.dropped_out and player.dropped_out_at is None
    assert player in services.active_players(tournament=player.tournament)


def test_nothing_changes_after_the_tournament_is_finished():
    player = PlayerFactory(tournament__status=S.FINISHED)
    for service in (
        players.check_in,
        players.undo_check_in,
        players.drop_out,
        players.undo_drop_out,
    ):
        with pytest.raises(players.PlayersLocked):
            service(player=player)
    with pytest.raises(players.PlayersLocked):
        players.update_player(player=player, name="Neu")


def test_public_name_without_consent_is_initials_and_club():
    tournament = TournamentFactory()
    club = ClubFactory(tournament=tournament, name="Spielfreunde Durlach", short_name="SF Durlach")
    shown = players.add_player(tournament=tournament, name="Anna Müller", public_name_consent=True)
    hidden = players.add_player(
        tournament=tournament, name="Jörg Weiß-Gärber", club=club.name, public_name_consent=False
    )
    assert shown.public_name == "Anna Müller"
    assert hidden.public_name == "J.W.G. (SF Durlach)"


def test_search_matches_every_word_in_name_or_club():
    tournament = TournamentFactory()
    durlach = ClubFactory(name="Spielfreunde Durlach", short_name="SFD")
    PlayerFactory(tournament=tournament, name="Anna Müller", club=durlach)
    PlayerFactory(tournament=tournament, name="Anna Schmidt")
    PlayerFactory(tournament=tournament, name="Ben Müller", checked_in=False)
    names = lambda query, **kw: [p.name for p in players.search_players(tournament, query, **kw)]  # noqa: E731
    assert names("anna") == ["Anna Müller", "Anna Schmidt"]
    assert names("müller") == ["Anna Müller", "Ben Müller"]
    assert names("durlach") == ["Anna Müller"]
    assert names("sfd anna") == ["Anna Müller"]
    assert names("") == ["Anna Müller", "Anna Schmidt", "Ben Müller"]
    assert names("", show="missing") == ["Ben Müller"]
    assert names("müller", show="checked_in") == ["Anna Müller"]


def test_desk_counts():
    tournament = TournamentFactory()
    PlayerFactory.create_batch(3, tournament=tournament, checked_in=True)
    PlayerFactory.create_batch(2, tournament=tournament, checked_in=False)
    PlayerFactory(tournament=tournament, checked_in=True, dropped_out=True)
    counts = players.desk_counts(tournament)
    assert (counts.registered, counts.checked_in, counts.dropped_out, counts.missing) == (
        5,
        3,
        1,
        2,
    )


def test_a_name_registered_in_the_same_instant_is_refused_by_the_database(monkeypatch):
    tournament = TournamentFactory()
    PlayerFactory(tournament=tournament, name="Anna Mueller")
    # as if a second desk saved the same name between our check and our insert
    monkeypatch.setattr(players, "_check_name_free", lambda **kwargs: None)
    with pytest.raises(players.PlayerNameTaken):
        players.add_player(tournament=tournament, name="ANNA MUELLER")
    assert tournament.players.count() == 1


def test_a_private_note_is_bounded_with_a_clear_refusal():
    tournament = TournamentFactory(slug="notiz")
    with pytest.raises(players.PlayerInvalid) as refused:
        players.add_player(tournament=tournament, name="Anna", private_note="x" * 2001)
    assert refused.value.code == "player_note_too_long"
    words = refused.value.as_dict()
    assert "2001" in words["message_en"] and "2000" in words["message_en"]
    assert "Notiz" in words["message_de"]
    players.add_player(tournament=tournament, name="Anna", private_note="x" * 2000)
    organizer = OrganizerFactory(tournaments=[tournament])
    api = Client()
    api.force_login(organizer)
    answer = api.post("/api/v1/tournaments/notiz/players/", {
        "name": "Ben", "private_note": "y" * 1_000_000}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "player_note_too_long"
    assert not Player.objects.filter(name="Ben").exists()
    with pytest.raises(IntegrityError):  # the database holds the bound too
        Player.objects.create(tournament=tournament, name="Cem", private_note="z" * 2001)
