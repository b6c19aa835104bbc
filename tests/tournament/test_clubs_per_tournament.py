"""Clubs belong to one tournament: a desk offers only its own tournament's clubs, and the
migration gives each tournament its own copy of a club they shared (bounding private notes)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from factories import OrganizerFactory, TournamentFactory
from migrating import SHIPPED, migrate

from tournament.models import Club
from tournament.players import services as players

pytestmark = pytest.mark.django_db


def test_a_desk_sees_only_its_own_tournaments_clubs():
    first = TournamentFactory(slug="eins")
    second = TournamentFactory(slug="zwei")
    players.add_player(tournament=first, name="Anna Erste", club="Spielfreunde Durlach")
    players.add_player(tournament=second, name="Ben Zweite", club="Familie Öztürk")
    players.add_player(tournament=second, name="Cem Zweite", club="Spielfreunde Durlach")
    organizer = OrganizerFactory(tournaments=[first])
    client = Client()
    client.force_login(organizer)
    page = client.get("/manage/eins/players/add/").content.decode()
    assert "Spielfreunde Durlach" in page and "Familie Öztürk" not in page
    durlach = Club.objects.filter(name="Spielfreunde Durlach")
    assert durlach.count() == 2  # each tournament has its own
    assert {club.tournament.slug for club in durlach} == {"eins", "zwei"}


@pytest.mark.django_db(transaction=True)
def test_the_migration_copies_a_shared_club_for_each_tournament_that_uses_it():
    """From the shipped schema with its data, and back (the copies joined again)."""
    old = migrate(SHIPPED)
    tournament_model = old.get_model("tournament", "Tournament")
    first = tournament_model.objects.create(name="A", slug="a", date=dt.date(2026, 3, 1))
    second = tournament_model.objects.create(name="B", slug="b", date=dt.date(2026, 4, 1))
    club_model = old.get_model("tournament", "Club")
    shared = club_model.objects.create(name="Spielfreunde Durlach", short_name="SFD")
    club_model.objects.create(name="Familie Niemand")
    player_model = old.get_model("tournament", "Player")
    player_model.objects.create(tournament=first, name="Anna", club=shared)
    player_model.objects.create(tournament=second, name="Ben", club=shared,
                                private_note="x" * 3000)
    try:
        new = migrate()
        clubs = new.get_model("tournament", "Club").objects.order_by("tournament__slug")
        assert [(club.tournament.slug, club.name, club.short_name) for club in clubs] == [
            ("a", "Spielfreunde Durlach", "SFD"), ("b", "Spielfreunde Durlach", "SFD")]
        for player in new.get_model("tournament", "Player").objects.all():
            assert player.club.tournament_id == player.tournament_id
            assert len(player.private_note) <= 2000
        back = migrate(SHIPPED)  # PostgreSQL: the joined clubs' checks run before the column goes
        assert list(back.get_model("tournament", "Club").objects.values_list("name", flat=True)) \
            == ["Spielfreunde Durlach"]
        assert {p.club.name for p in back.get_model("tournament", "Player").objects.all()} == {
            "Spielfreunde Durlach"}
    finally:
        migrate()
