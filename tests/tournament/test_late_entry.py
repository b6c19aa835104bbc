"""Late entry in one step: a player added from the check-in desk is checked in and told the
round they play from; added before the start from the desk, checked in too."""

from __future__ import annotations

import pytest
from factories import RoundFactory, SeatFactory, TableFactory, TournamentFactory

from tournament.models import Player, Round, Tournament

# the organizer (a superuser): tests/tournament/conftest.py
pytestmark = pytest.mark.django_db


def test_late_entry_from_the_desk_checks_in_and_says_the_round(organizer):
    tournament = TournamentFactory(slug="cup", status=Tournament.Status.RUNNING)
    round_1 = RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    SeatFactory(table=TableFactory(round=round_1, number=1), position=1)
    desk = organizer.get("/manage/cup/check-in/").content.decode()
    assert "/manage/cup/players/add/?from=desk" in desk
    form = organizer.get("/manage/cup/players/add/?from=desk").content.decode()
    assert 'name="from" value="desk"' in form and "ab Runde 2" in form
    response = organizer.post(
        "/manage/cup/players/add/?from=desk", {"name": "Käthe Spät", "from": "desk"}
    )
    assert response.status_code == 302
    assert response["Location"].startswith("/manage/cup/check-in/?q=")
    player = Player.objects.get(name="Käthe Spät")
    assert player.checked_in
    page = organizer.get(response["Location"]).content.decode()
    assert "Käthe Spät" in page and 'data-seated-from="2"' in page
    assert "spielt ab Runde 2" in page and "hinzugefügt und eingecheckt" in page


def test_late_entry_before_the_start_is_checked_in_too(organizer):
    TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)
    organizer.post("/manage/cup/players/add/", {"name": "Früh Dran", "from": "desk"})
    assert Player.objects.get(name="Früh Dran").checked_in
    organizer.post("/manage/cup/players/add/", {"name": "Nur Gemeldet"})
    assert not Player.objects.get(name="Nur Gemeldet").checked_in
