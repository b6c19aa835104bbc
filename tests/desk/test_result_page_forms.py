"""The head referee's result page (walk of the demo, staff pages): its buttons carry the site's
classes, a wrong code comes back on the page itself — beside the code field, what was typed
kept — and the ruling field says when a ruling is required."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round

from referee import services
from referee.models import GameResult, Placement
from referee.results import revision_of
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(client):
    """Table 1 counted (awaiting confirmation); the head referee logged in."""
    tournament = TournamentFactory(slug="ergebnis", status=Tournament.Status.RUNNING)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(4)]
    _round, tables = make_round(tournament, 1, [people])
    game = services.ensure_game(table=tables[0])
    game.confirmation_code = "1234"
    game.save(update_fields=["confirmation_code"])
    result = GameResult.objects.create(game=game, counted_at=timezone.now())
    for i, p in enumerate(people):
        Placement.objects.create(result=result, player=p, place=i + 1, net_worth=3000 - 100 * i)
    judge = appoint(UserFactory(username="mrmonopoly"), StaffRole.Role.HEAD_REFEREE, tournament)
    client.force_login(judge)
    return tournament, game


def _button(html: str, action: str) -> str:
    return re.search(rf'<button[^>]*data-action="{action}"[^>]*>', html).group(0)


def test_the_buttons_carry_the_sites_classes(client, counted):
    tournament, game = counted
    html = client.get(f"/manage/{tournament.slug}/results/{game.pk}/").content.decode()
    for action in ("amend", "confirm-code", "confirm"):
        assert re.search(r'class="[^"]*\b(primary|secondary)\b', _button(html, action)), action


def test_the_ruling_field_says_when_a_ruling_is_required(client, counted):
    tournament, game = counted
    html = client.get(f"/manage/{tournament.slug}/results/{game.pk}/").content.decode()
    label = re.search(r'<label for="ruling">(.*?)</label>', html).group(1)
    assert "Pflicht bei einem angefochtenen Ergebnis" in label


def test_a_wrong_code_comes_back_beside_the_code_field(client, counted):
    tournament, game = counted
    answer = client.post(f"/manage/{tournament.slug}/results/{game.pk}/code/",
                         {"code": "0000", "revision": revision_of(game.pk)})
    html = answer.content.decode()
    assert answer.status_code == 400
    assert [t.name for t in answer.templates][0] == "desk/result.html"  # not the error page
    form = re.search(r'<form[^>]*data-form="confirm-code".*?</form>', html, re.S).group(0)
    assert re.search(r'<input id="code"[^>]*value="0000"', form)  # what was typed is kept
    refusal = re.search(r'<p id="code-error"[^>]*data-code="wrong_confirmation_code"[^>]*>(.*?)</p>',
                        form, re.S)
    assert refusal and "Code" in refusal.group(1)
    assert 'aria-describedby="code-error"' in form
    game.refresh_from_db()
    assert game.wrong_codes == 1  # the wrong guess still counts
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED


def test_a_desk_volunteers_wrong_code_keeps_the_refusal_page(client, counted):
    tournament, game = counted
    client.force_login(appoint(UserFactory(username="anna"), StaffRole.Role.DESK, tournament))
    answer = client.post(f"/manage/{tournament.slug}/results/{game.pk}/code/",
                         {"code": "0000", "revision": revision_of(game.pk)})
    assert answer.status_code == 400
    assert [t.name for t in answer.templates][0] == "error.html"


def test_the_right_code_confirms(client, counted):
    tournament, game = counted
    answer = client.post(f"/manage/{tournament.slug}/results/{game.pk}/code/",
                         {"code": "1234", "revision": revision_of(game.pk)})
    assert answer.status_code == 302
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
