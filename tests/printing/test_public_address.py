"""The tournament's public address (the QR codes' target): a checked setting, warned about on
the print page while the prints would carry a loopback address, and printed into the documents."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, TournamentFactory, seated_table

from tournament import tournaments
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_public_address_is_a_checked_setting():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    tournaments.update_tournament(
        tournament=tournament, public_base_url=" https://mcs.example.org/ ", strict_cash=True
    )
    tournament.refresh_from_db()
    assert (tournament.public_base_url, tournament.strict_cash) == (
        "https://mcs.example.org", True)
    with pytest.raises(tournaments.SettingsInvalid) as refused:
        tournaments.update_tournament(tournament=tournament, public_base_url="mcs/t/x")
    assert refused.value.problems[0].code == "public_base_url_invalid"


def test_print_page_warns_about_a_loopback_address(client, settings):
    client.force_login(OrganizerFactory(is_superuser=True))  # tournaments made after the login
    settings.PUBLIC_BASE_URL = ""
    table = seated_table(tournament_kwargs={"slug": "ka"})
    page = client.get("/manage/ka/print/1/", HTTP_HOST="127.0.0.1").content.decode()
    assert "data-loopback-warning" in page and "http://127.0.0.1" in page
    tournament = table.round.tournament
    tournament.public_base_url = "https://mcs.example.org"
    tournament.save()
    page = client.get("/manage/ka/print/1/", HTTP_HOST="127.0.0.1").content.decode()
    assert "data-loopback-warning" not in page and "https://mcs.example.org" in page


def test_the_public_address_goes_into_the_prints():
    from printing import documents as printing

    table = seated_table()
    tournament = table.round.tournament
    tournament.public_base_url = "https://mcs.example.org"
    ctx = printing.context_for("scoresheets", tournament=tournament, round_=table.round)
    assert ctx.public_table_url(1).startswith("https://mcs.example.org/t/")
    assert printing.is_loopback("http://127.0.0.1:8000") and printing.is_loopback("http://localhost")
    assert not printing.is_loopback("http://192.168.1.20:8000")
