"""Nothing to learn by guessing: a hall screen's key is random, not the slugified name; a banker
is assigned only from the tournament's candidates (an id from elsewhere is a 404 like an id of
nobody), and the banker API answers a taken and an unknown user name alike."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import UserFactory, seated_table

from scoring import screens
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_hall_screen_keys_are_random_not_the_slugified_name():
    tournament = seated_table().round.tournament
    first = screens.add_screen(tournament=tournament, name="Halle vorne")
    other = seated_table().round.tournament
    second = screens.add_screen(tournament=other, name="Halle vorne")
    assert first.key != "halle-vorne" and first.key.startswith("halle-vorne-")
    assert first.key != second.key
    assert len(first.key.removeprefix("halle-vorne-")) == 24  # 96 random bits
    assert Client().get(f"/t/{tournament.slug}/hall/halle-vorne/").status_code == 404
    assert Client().get(f"/t/{tournament.slug}/hall/{first.key}/").status_code == 200
    assert isinstance(tournament, Tournament)


# --------------------------------------------------------------------------- 14. invisible


HIDDEN = "\u202eevil\u202c Zo\u200bë\u2066 \ufeffKrüger\u00ad\u2069"


def test_a_banker_is_assigned_only_from_the_tournaments_candidates():
    from factories import OrganizerFactory, appoint

    from tournament.models import StaffRole

    table = seated_table()
    tournament = table.round.tournament
    outsider = UserFactory(username="outsider-admin")
    own = appoint(UserFactory(username="own-banker"), StaffRole.Role.BANKER, tournament)
    organizer = Client()
    organizer.force_login(OrganizerFactory(tournaments=[tournament]))
    assign = f"/manage/{tournament.slug}/rounds/1/bankers/{table.number}/assign/"
    for user_id in (outsider.pk, 10**6):  # an account elsewhere, an id of nobody: the same
        answer = organizer.post(assign, {"banker": user_id}, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 404
        assert "outsider" not in answer.content.decode()
    assert not outsider.staff_roles.exists()
    table.refresh_from_db()
    assert table.banker is None
    assert organizer.post(assign, {"banker": own.pk}).status_code == 302
    table.refresh_from_db()
    assert table.banker == own


def test_the_banker_api_is_no_user_name_oracle():
    from factories import OrganizerFactory

    table = seated_table()
    tournament = table.round.tournament
    outsider = UserFactory(username="outsider-admin")
    organizer = Client()
    organizer.force_login(OrganizerFactory(tournaments=[tournament]))
    url = f"/api/v1/tables/{table.pk}/banker/"
    known = organizer.post(url, {"username": "outsider-admin"}, content_type="application/json")
    unknown = organizer.post(url, {"username": "nobody-here"}, content_type="application/json")
    assert known.status_code == unknown.status_code == 404
    assert known.json()["code"] == unknown.json()["code"] == "unknown_banker"
    assert not outsider.staff_roles.exists()
    # create=true under a taken name makes no role for the other account either
    taken = organizer.post(url, {"username": "OUTSIDER-admin", "create": True},
                           content_type="application/json")
    assert taken.status_code == 409 and not outsider.staff_roles.exists()
    made = organizer.post(url, {"username": "neu-bank", "create": True},
                          content_type="application/json")
    assert made.status_code == 200 and made.json()["banker"] == "neu-bank"
    again = organizer.post(url, {"username": "Neu-Bank"}, content_type="application/json")
    assert again.status_code == 200
