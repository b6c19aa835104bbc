"""Links and QR codes for phones use the public address (issue 25, finding 9): the bankers
page with its "Copy" links and QR codes too, and on the event laptop the public address
defaults to the laptop's LAN address, not the 127.0.0.1 the page was opened with."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, seated_table

from config import addresses
from tournament.rounds import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def bankers_page(client):
    table = seated_table()
    services.issue_link(table=table)
    tournament = table.round.tournament
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    url = f"/manage/{tournament.slug}/rounds/1/bankers/"

    def get(**headers) -> str:
        answer = client.get(url, HTTP_HOST="127.0.0.1:8000", **headers)
        assert answer.status_code == 200
        return answer.text

    get.tournament = tournament
    return get


def test_the_bankers_page_uses_the_tournaments_public_address(bankers_page, settings):
    settings.ALLOWED_HOSTS = ["*"]
    tournament = bankers_page.tournament
    tournament.public_base_url = "https://mcs.example.org"
    tournament.save(update_fields=["public_base_url"])
    text = bankers_page()
    assert "https://mcs.example.org/b/" in text
    assert "http://127.0.0.1:8000/b/" not in text


def test_on_the_laptop_phones_get_its_lan_address(bankers_page, settings, monkeypatch):
    settings.ALLOWED_HOSTS = ["*"]
    settings.PUBLIC_BASE_URL = ""
    settings.LAPTOP_PORT = 8000
    monkeypatch.setattr(addresses, "lan_addresses", lambda: ["192.168.178.20"])
    text = bankers_page()
    assert "http://192.168.178.20:8000/b/" in text and "127.0.0.1:8000/b/" not in text


def test_the_print_page_uses_the_lan_address_on_the_laptop(rf, settings, monkeypatch):
    from printing.views import base_url_for

    settings.PUBLIC_BASE_URL = ""
    settings.LAPTOP_PORT = 8000
    monkeypatch.setattr(addresses, "lan_addresses", lambda: ["192.168.178.20"])
    request = rf.get("/", HTTP_HOST="127.0.0.1:8000")
    assert base_url_for(request) == "http://192.168.178.20:8000"
    del settings.LAPTOP_PORT  # elsewhere: the address the page was opened with
    assert base_url_for(request) == "http://127.0.0.1:8000"
