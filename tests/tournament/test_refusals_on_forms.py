"""Issue 28 "Refusals": a refusal can be answered where it was made.

The move preview disables the save button while it refuses; a refused form comes back at its
field in words; the refusal page links back to the form (no ``javascript:`` URL, which the CSP
blocks) and a reload of a POST-only address is not an empty 405.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils.translation import gettext_lazy
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round

from tournament import errors, incidents
from tournament.models import (
    Incident,
    Round,
    StaffRole,
    Tournament,
)

pytestmark = pytest.mark.django_db


def _save_button(body: str, action: str) -> str:
    match = re.search(rf'<button[^>]*id="{action}-save"[^>]*>', body)
    assert match, body
    return match.group(0)


def test_move_preview_disables_save_while_it_refuses(client):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament) for _ in range(12)]
    make_round(tournament, 1, [players[0:6], players[6:12]], status=Round.Status.SEATED)
    client.force_login(OrganizerFactory())
    url = f"/manage/{tournament.slug}/rounds/1/preview/"
    page = client.get(f"/manage/{tournament.slug}/rounds/1/").content.decode()
    assert "disabled" not in _save_button(page, "move")
    # 7 at table 2: refused, and the save button comes back disabled (swapped out of band)
    refused = client.get(
        url, {"action": "move", "version": 0, "player": players[0].pk, "to_table": 2},
        HTTP_HX_REQUEST="true",
    )
    body = refused.content.decode()
    assert 'data-code="table_size"' in body
    button = _save_button(body, "move")
    assert 'hx-swap-oob="true"' in button and "disabled" in button
    # an allowed change (a swap) enables it again
    allowed = client.get(
        url, {"action": "swap", "version": 0, "a": players[0].pk, "b": players[6].pk},
        HTTP_HX_REQUEST="true",
    )
    button = _save_button(allowed.content.decode(), "swap")
    assert 'hx-swap-oob="true"' in button and "disabled" not in button


@pytest.fixture
def judge_at(client):
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    player = PlayerFactory(tournament=tournament, name="Spieler 1")
    judge = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament)
    client.force_login(judge)
    return tournament, player


@pytest.mark.parametrize(("language", "words"), [
    ("de", "Bitte die Punkte angeben."), ("en", "Please give the points."),
])
def test_a_deduction_without_points_comes_back_at_the_field(client, judge_at, language, words):
    _tournament, player = judge_at
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(
        f"/manage/ka/players/{player.pk}/incidents/",
        {"level": "deduction", "note": "Mietabsprache", "table_number": "3"},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert 'data-form="incident"' in body  # the form, not the refusal page
    points = re.search(r'<input[^>]*name="points"[^>]*>', body).group(0)
    assert 'aria-invalid="true"' in points
    described = re.search(r'aria-describedby="([^"]*)"', points).group(1)
    error = re.search(rf'id="{described.split()[0]}"[^>]*>(.*?)</ul>', body, re.S).group(1)
    assert words in error
    assert 'value="3"' in re.search(r'<input[^>]*name="table_number"[^>]*>', body).group(0)
    assert "Mietabsprache</textarea>" in body
    assert re.search(r'<option value="deduction"[^>]*selected', body)
    assert not Incident.objects.exists()


def test_invalid_form_names_the_fields_label_in_the_readers_language():
    refused = errors.InvalidForm(fields=[incidents.POINTS, gettext_lazy("Role")])
    assert refused.message_in("de") == "Bitte diese Felder prüfen: Punktabzug, Rolle."
    assert refused.message_in("en") == "Please check these fields: Points deducted, Role."
    with pytest.raises(errors.InvalidForm) as raised:
        incidents.record_incident(
            player=PlayerFactory(), level="deduction", note="ohne Punkte", by=None
        )
    assert "points" not in raised.value.message_in("en")
    assert "Punktabzug" in raised.value.message_in("de")


def test_the_head_referees_move_names_the_fields_labels(client, judge_at):
    tournament, player = judge_at
    make_round(tournament, 1, [[player]], status=Round.Status.SEATED)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.post("/manage/ka/rounds/1/referee-move/", {"player": player.pk})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Bitte diese Felder prüfen: wechselt an Tisch" in body and "to_table" not in body


@pytest.fixture
def seated(client):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament) for _ in range(12)]
    make_round(tournament, 1, [players[0:6], players[6:12]], status=Round.Status.SEATED)
    client.force_login(OrganizerFactory())
    return tournament, players


def _back_link(body: str) -> str:
    return re.search(r'<a href="([^"]*)" data-back>', body).group(1)


@pytest.mark.parametrize(("referer", "back"), [
    ("http://testserver/manage/{slug}/rounds/1/", "http://testserver/manage/{slug}/rounds/1/"),
    ("https://evil.example/manage/{slug}/rounds/1/", "/manage/{slug}/"),
    (None, "/manage/{slug}/"),
])
def test_a_refusal_page_links_back_to_the_form_without_javascript(client, seated, referer, back):
    tournament, players = seated
    headers = {"HTTP_REFERER": referer.format(slug=tournament.slug)} if referer else {}
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.post(
        f"/manage/{tournament.slug}/rounds/1/move/",
        {"version": 0, "player": players[0].pk, "to_table": 2},  # 7 at table 2
        **headers,
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert 'data-code="table_size"' in body
    assert "javascript:" not in body
    assert _back_link(body) == back.format(slug=tournament.slug)
    assert "Neuladen dieser Seite würde das Formular noch einmal senden" in body


def test_a_get_at_a_post_only_address_is_a_page_with_the_way_back(client, seated):
    tournament, _players = seated
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(f"/manage/{tournament.slug}/rounds/1/move/")
    assert response.status_code == 405 and response["Allow"] == "POST"
    body = response.content.decode()
    assert "<html" in body and "only takes a form" in body
    assert _back_link(body) == f"/manage/{tournament.slug}/"
    # the API keeps its own JSON answer
    round_ = Round.objects.get(tournament=tournament, number=1)
    api = client.get(f"/api/v1/rounds/{round_.pk}/swap/")
    assert api.status_code == 405 and api["Content-Type"].startswith("application/json")
