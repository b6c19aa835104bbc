"""factory_boy factories for the models; tests build exactly the data they need."""

from __future__ import annotations

import datetime as dt
import itertools

import factory
from django.contrib.auth.models import User

from tournament.models import (
    Club,
    Player,
    Round,
    Seat,
    StaffRole,
    Table,
    Tournament,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        # The hooks below write other rows (StaffRole), never the user itself: no second save
        # (factory_boy 3.3 warns about its implicit one; inherited by the subclasses).
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


class OrganizerFactory(UserFactory):
    """A staff account that organizes ``tournaments`` (default: every tournament that exists)."""

    username = factory.Sequence(lambda n: f"organizer{n}")
    is_staff = True

    @factory.post_generation
    def tournaments(self, create, extracted, **kwargs):
        if not create:
            return
        chosen = Tournament.objects.all() if extracted is None else extracted
        for tournament in chosen:
            StaffRole.objects.get_or_create(
                tournament=tournament, user=self, role=StaffRole.Role.ORGANIZER
            )


def appoint(user: User, role: str, *tournaments: Tournament) -> User:
    """Give ``user`` the role in each tournament (default: every tournament that exists)."""
    for tournament in tournaments or Tournament.objects.all():
        StaffRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    return user


class StaffFactory(UserFactory):
    """An account with ``role`` in ``tournament`` (both required)."""

    username = factory.Sequence(lambda n: f"staff{n}")

    @factory.post_generation
    def role(self, create, extracted, tournament=None, **kwargs):
        if create and extracted:
            StaffRole.objects.get_or_create(tournament=tournament, user=self, role=extracted)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Stadtmeisterschaft {n}")
    slug = factory.Sequence(lambda n: f"turnier-{n}")
    date = dt.date(2026, 11, 28)
    venue = "Karlsruhe"
    status = Tournament.Status.REGISTRATION


class ClubFactory(factory.django.DjangoModelFactory):
    """A club of ``tournament`` (clubs are per tournament; default: the newest tournament, or
    a new one when there is none)."""

    class Meta:
        model = Club
        django_get_or_create = ("tournament", "name")

    tournament = factory.LazyFunction(
        lambda: Tournament.objects.order_by("-pk").first() or TournamentFactory()
    )
    name = factory.Sequence(lambda n: f"Spielclub {n}")
    short_name = factory.Sequence(lambda n: f"SC{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Spieler Nummer {n}")
    checked_in = True
    public_name_consent = True


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    round = factory.SelfAttribute("table.round")
    player = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..table.round.tournament"))
    position = factory.Sequence(lambda n: n + 1)


def seated_table(*, players: int = 6, banker=None, tournament_kwargs=None) -> Table:
    """A running table of a running tournament with ``players`` seated in turn order."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, **(tournament_kwargs or {}))
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    table = TableFactory(round=round_, number=1, banker=banker)
    names = ["Anna", "Ben", "Carla", "Dieter", "Eva", "Frank", "Gül", "Hannes"]
    for position in range(1, players + 1):
        player = PlayerFactory(tournament=tournament, name=f"{names[position - 1]} Test")
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    return table


def checked_in_players(tournament: Tournament, count: int, *, clubs: int = 0) -> list[Player]:
    """``count`` checked-in players of ``tournament``; with ``clubs``, spread over that many clubs."""
    club_objects = [ClubFactory(tournament=tournament) for _ in range(clubs)]
    return [
        PlayerFactory(
            tournament=tournament,
            name=f"Teilnehmer {next(_participant_numbers):04d}",
            club=club_objects[index % clubs] if clubs else None,
        )
        for index in range(count)
    ]


_participant_numbers = itertools.count(1)
