"""The tournament's state machine: every allowed and every refused move."""

from __future__ import annotations

import itertools
import re

import pytest
from django.utils import translation
from factories import OrganizerFactory, PlayerFactory, RoundFactory, TournamentFactory, UserFactory

from tournament import lifecycle
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db

S = Tournament.Status
ALLOWED = {
    (S.DRAFT, S.REGISTRATION),
    (S.REGISTRATION, S.DRAFT),
    (S.REGISTRATION, S.RUNNING),
    (S.RUNNING, S.FINISHED),
}


def _ready(status: str) -> Tournament:
    """A tournament in ``status`` whose guards all pass (enough players, no open round)."""
    tournament = TournamentFactory(status=status, table_size=6)
    PlayerFactory.create_batch(5, tournament=tournament, checked_in=True)
    return tournament


@pytest.mark.parametrize(("start", "to"), sorted(ALLOWED))
def test_allowed_moves(start, to):
    tournament = _ready(start)
    moved = lifecycle.transition(tournament=tournament, to=to)
    assert moved.status == to
    tournament.refresh_from_db()
    assert tournament.status == to


REFUSED = [
    (start, to) for start, to in itertools.product(S.values, S.values) if (start, to) not in ALLOWED
]


@pytest.mark.parametrize(("start", "to"), REFUSED)
def test_every_other_move_is_refused_with_a_stable_code(start, to):
    tournament = _ready(start)
    with pytest.raises(lifecycle.TransitionRefused) as info:
        lifecycle.transition(tournament=tournament, to=to)
    error = info.value
    if start == to:
        assert error.code == "tournament_status_unchanged"
    elif start == S.FINISHED:
        assert error.code == "tournament_finished"
    else:
        assert error.code == "tournament_transition_not_allowed"
        # the message names both states and what is allowed instead
        with translation.override("en"):
            names = str(S(start).label), str(S(to).label)
        english = error.message_in("en")
        assert names[0] in english and names[1] in english
    assert error.http_status == 409
    tournament.refresh_from_db()
    assert tournament.status == start


def test_unknown_status_is_refused():
    tournament = _ready(S.DRAFT)
    with pytest.raises(lifecycle.TransitionRefused) as info:
        lifecycle.transition(tournament=tournament, to="paused")
    assert info.value.code == "tournament_status_unknown"


def test_registration_back_to_draft_only_while_no_round_exists():
    tournament = _ready(S.REGISTRATION)
    RoundFactory(tournament=tournament, number=1)
    with pytest.raises(lifecycle.TransitionRefused) as info:
        lifecycle.transition(tournament=tournament, to=S.DRAFT)
    assert info.value.code == "tournament_has_rounds"
    assert "1 round" in info.value.message_in("en")
    tournament.refresh_from_db()
    assert tournament.status == S.REGISTRATION


def test_start_needs_enough_checked_in_players():
    tournament = TournamentFactory(status=S.REGISTRATION, table_size=6)
    PlayerFactory.create_batch(4, tournament=tournament, checked_in=True)
    PlayerFactory.create_batch(3, tournament=tournament, checked_in=False)
    PlayerFactory(tournament=tournament, checked_in=True, dropped_out=True)
    with pytest.raises(lifecycle.TransitionRefused) as info:
        lifecycle.transition(tournament=tournament, to=S.RUNNING)
    assert info.value.code == "tournament_not_enough_players"
    assert info.value.params == {"count": 4, "minimum": 5}
    PlayerFactory(tournament=tournament, checked_in=True)
    assert lifecycle.transition(tournament=tournament, to=S.RUNNING).status == S.RUNNING


@pytest.mark.parametrize("round_status", [Round.Status.LOCKED, Round.Status.RUNNING])
def test_cannot_finish_while_a_round_is_played(round_status):
    tournament = _ready(S.RUNNING)
    RoundFactory(tournament=tournament, number=1, status=Round.Status.COMPLETE)
    RoundFactory(tournament=tournament, number=2, status=round_status)
    with translation.override("en"), pytest.raises(lifecycle.TransitionRefused) as info:
        lifecycle.transition(tournament=tournament, to=S.FINISHED)  # asked in English
    assert info.value.code == "tournament_round_open"
    assert "round 2" in info.value.message_in("en")
    # the round's state in the words of each language, not the asker's in both (the German
    # refusal read "Runde 2 ist Running")
    for language in ("de", "en"):
        with translation.override(language):
            state = str(Round.Status(round_status).label)
        assert state in info.value.message_in(language), language


def test_finish_after_the_rounds_are_complete():
    tournament = _ready(S.RUNNING)
    RoundFactory(tournament=tournament, number=1, status=Round.Status.COMPLETE)
    assert lifecycle.transition(tournament=tournament, to=S.FINISHED).status == S.FINISHED


def test_refusal_message_is_bilingual():
    tournament = _ready(S.DRAFT)
    with pytest.raises(lifecycle.TransitionRefused) as info:
        lifecycle.transition(tournament=tournament, to=S.RUNNING)
    data = info.value.as_dict()
    assert data["code"] == "tournament_transition_not_allowed"
    assert "Draft" in data["message_en"] and "Running" in data["message_en"]
    assert data["message_de"]


def test_allowed_transitions_for_the_buttons():
    assert [to for to, _, _ in lifecycle.allowed_transitions(TournamentFactory(status=S.DRAFT))] == [
        S.REGISTRATION
    ]
    finished = TournamentFactory(status=S.FINISHED)
    assert lifecycle.allowed_transitions(finished) == []


# --- the page and the API -----------------------------------------------------------------


def test_detail_page_shows_the_allowed_moves_and_links(client):
    tournament = _ready(S.REGISTRATION)
    client.force_login(OrganizerFactory())
    body = client.get(f"/manage/{tournament.slug}/").content.decode()
    assert 'data-to="running"' in body and 'data-to="draft"' in body
    assert 'data-to="finished"' not in body
    for path in ("players/", "check-in/", "players/import/", "settings/"):
        assert f"/manage/{tournament.slug}/{path}" in body


def test_a_move_refused_now_shows_its_reason_instead_of_a_button_that_fails(client):
    """"Move to: Finished" while round 1 runs was a green button answered by "Not possible"
    (seen in the demo): the status box says why beside a plain button (not disabled: the page
    may be older than the desk's last check-in, so a click asks the service again)."""
    tournament = _ready(S.RUNNING)
    RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    client.force_login(OrganizerFactory())
    body = client.get(f"/manage/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    button = re.search(r'<button[^>]*data-to="finished"[^>]*>', body)[0]
    assert 'class="secondary"' in button and 'aria-describedby="why-not-finished"' in button
    assert 'data-refused="tournament_round_open"' in body and "round 1" in body
    Round.objects.filter(tournament=tournament).update(status=Round.Status.COMPLETE)
    body = client.get(f"/manage/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    button = re.search(r'<button[^>]*data-to="finished"[^>]*>', body)[0]
    assert 'class="primary"' in button and "why-not" not in body


def test_transition_button_moves_and_redirects(client):
    tournament = _ready(S.DRAFT)
    client.force_login(OrganizerFactory())
    response = client.post(f"/manage/{tournament.slug}/status/", {"to": "registration"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == S.REGISTRATION


def test_refused_transition_page_names_the_rule(client):
    tournament = _ready(S.DRAFT)
    client.force_login(OrganizerFactory())
    response = client.post(f"/manage/{tournament.slug}/status/", {"to": "finished"})
    assert response.status_code == 409
    body = response.content.decode()
    assert 'data-code="tournament_transition_not_allowed"' in body


def test_refused_transition_as_htmx_fragment(client):
    tournament = _ready(S.FINISHED)
    client.force_login(OrganizerFactory())
    response = client.post(
        f"/manage/{tournament.slug}/status/", {"to": "running"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409
    assert "<html" not in response.content.decode()


def test_transition_page_is_staff_only(client):
    tournament = _ready(S.DRAFT)
    assert (
        client.post(f"/manage/{tournament.slug}/status/", {"to": "registration"}).status_code == 302
    )
    client.force_login(UserFactory())
    client.post(f"/manage/{tournament.slug}/status/", {"to": "registration"})
    tournament.refresh_from_db()
    assert tournament.status == S.DRAFT


def test_api_transition(client):
    tournament = _ready(S.REGISTRATION)
    url = f"/api/v1/tournaments/{tournament.slug}/transition/"
    assert (
        client.post(url, {"status": "running"}, content_type="application/json").status_code == 403
    )
    client.force_login(UserFactory())
    assert (
        client.post(url, {"status": "running"}, content_type="application/json").status_code == 403
    )
    client.force_login(OrganizerFactory())
    response = client.post(url, {"status": "running"}, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["status"] == "running"
    response = client.post(url, {"status": "draft"}, content_type="application/json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "tournament_transition_not_allowed"
    assert body["message_de"] and body["message_en"]
