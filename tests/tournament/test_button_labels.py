"""Accessible names on the organizer's pages: a screen reader's list of buttons says
"Zuteilen – Tisch 2", not six times "Zuteilen"; a player's actions name the player, and the
list's filter has a label. (The desk's buttons: tests/desk/test_desk_alerts.py.)"""

from __future__ import annotations

import re

import pytest
from factories import (
    OrganizerFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)

from tournament.models import Round, Tournament

# the organizer (a superuser): tests/tournament/conftest.py
pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def test_repeated_buttons_name_their_table_or_person(organizer):
    """A screen reader's list of buttons: "Zuteilen – Tisch 2", not six times "Zuteilen"."""
    from tournament import banker_links
    from tournament.staff import appoint

    tournament = TournamentFactory(slug="cup", status=Tournament.Status.RUNNING)
    round_1 = RoundFactory(tournament=tournament, number=1, status=Round.Status.SEATED)
    banker = UserFactory(username="bank-zwei")
    for number in (1, 2):
        table = TableFactory(round=round_1, number=number, banker=banker if number == 2 else None)
        SeatFactory(table=table, position=1)
    banker_links.issue_link(table=round_1.tables.get(number=2), banker=banker)
    page = organizer.get("/manage/cup/rounds/1/bankers/", HTTP_ACCEPT_LANGUAGE="de")
    body = page.content.decode()
    for number in (1, 2):
        assert f'aria-label="Zuteilen – Tisch {number}">Zuteilen</button>' in body
    assert 'aria-label="Link widerrufen – Tisch 2">Link widerrufen</button>' in body
    assert 'aria-label="Kopieren – Tisch 2">Kopieren</button>' in body
    appoint(tournament=tournament, username="bank-zwei", role="banker",
            by=UserFactory(is_superuser=True))
    staff = organizer.get("/manage/cup/staff/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'aria-label="Entfernen – bank-zwei (' in staff


def test_player_actions_name_the_player_and_the_select_has_a_label(client):
    tournament = TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)
    PlayerFactory(tournament=tournament, name="Jörg Weiß", checked_in=True)
    client.force_login(OrganizerFactory())
    body = client.get("/manage/cup/players/", **DE).content.decode()
    assert 'aria-label="Check-in von Jörg Weiß zurücknehmen"' in body
    assert re.search(r'<label class="visually-hidden" for="id_show">', body)
    desk = client.get("/manage/cup/check-in/", **DE).content.decode()
    assert 'aria-label="Check-in von Jörg Weiß zurücknehmen"' in desk
