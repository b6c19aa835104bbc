"""Two registrants confirming the last place at the same moment: one gets it, the other
waits at position 1; both withdrawing at once never deadlock.

Needs PostgreSQL (row locks): the tournament's row lock orders the places."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from factories import TournamentFactory

from tournament.models import (
    Player,
    Signup,
    SignupSettings,
    Tournament,
)
from tournament.signup import selectors, services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(*calls) -> list[BaseException]:
    barrier = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            call()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors


def test_two_confirmations_for_the_last_place_one_registers_one_waits(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    SignupSettings.objects.create(tournament=tournament, is_open=True, capacity=1)
    a = services.sign_up(tournament=tournament, name="Anna A", email="a@example.org")
    b = services.sign_up(tournament=tournament, name="Bert B", email="b@example.org")
    for _ in range(3):
        assert _race(lambda t=a.token: services.confirm(token=t),
                     lambda t=b.token: services.confirm(token=t)) == []
        statuses = sorted(Signup.objects.filter(tournament=tournament)
                          .values_list("status", flat=True))
        assert statuses == ["registered", "waiting"]
        assert Player.objects.filter(tournament=tournament).count() == 1
        # Both withdraw at once, the registered one (whose place goes to the waiting one) and
        # the waiting one: no deadlock, nobody left.
        first = Signup.objects.get(tournament=tournament, status="registered")
        waiting = Signup.objects.get(tournament=tournament, status="waiting")
        assert selectors.position(waiting) == 1
        assert _race(lambda t=first.token: services.withdraw(token=t),
                     lambda t=waiting.token: services.withdraw(token=t)) == []
        assert set(Signup.objects.filter(tournament=tournament)
                   .values_list("status", flat=True)) == {"withdrawn"}
        assert not Player.objects.filter(tournament=tournament).exists()
        a = services.sign_up(tournament=tournament, name="Anna A", email="a@example.org")
        b = services.sign_up(tournament=tournament, name="Bert B", email="b@example.org")
