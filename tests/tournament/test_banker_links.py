"""Private banker links: signed, table-bound, revocable; QR codes; organizer-only management;
what the link holder posts, counts and confirms is theirs (author, the audit log's actor).

``/b/<token>/`` lives at the site root; until it is mounted in ``config/urls.py`` this module
runs with a URLconf that adds it (``urlpatterns`` below).
"""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from auditlog.models import LogEntry
from consoles import result_revision
from django.contrib.auth.models import User
from django.core import signing
from django.test import Client
from django.utils import timezone
from factories import (
    OrganizerFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    appoint,
)
from gameplay import make_round

import config.urls
from referee import services as referee
from referee.models import Game, GameResult
from tournament import banker_links, errors
from tournament.models import (
    BankerLink,
    Round,
    StaffRole,
    Tournament,
)
from tournament.qr import qr_svg
from tournament.rounds import bankers, services
from tournament.urls import banker_link_urlpatterns

urlpatterns = [*banker_link_urlpatterns, *config.urls.urlpatterns]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def round_():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.RUNNING)
    for number in (1, 2, 3, 4):
        table = TableFactory(round=round_, number=number)
        for position in (1, 2, 3, 4):
            SeatFactory(table=table, round=round_, position=position)
    return round_


def _table(round_, number):
    return round_.tables.get(number=number)


def _open(client, link):
    return client.get(banker_links.link_path(link))


def test_link_opens_the_table_console_without_login(client, round_):
    table = _table(round_, 3)
    link = services.issue_link(table=table)
    path = banker_links.link_path(link)
    assert path.startswith("/b/")
    assert client.get(f"/banker/table/{table.pk}/").status_code == 403
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/banker/table/{table.pk}/"
    assert response["Referrer-Policy"] == "no-referrer"
    assert client.get(response["Location"]).status_code == 200


def test_link_for_table_3_does_not_open_table_4(client, round_):
    three, four = _table(round_, 3), _table(round_, 4)
    services.issue_link(table=four)
    client.get(banker_links.link_path(services.issue_link(table=three)))
    assert client.get(f"/banker/table/{three.pk}/").status_code == 200
    assert client.get(f"/banker/table/{four.pk}/").status_code == 403


def test_token_names_its_own_table_only(client, round_):
    """Swapping the table id inside a token breaks the signature."""
    three, four = _table(round_, 3), _table(round_, 4)
    link = services.issue_link(table=three)
    services.issue_link(table=four)
    forged = signing.dumps({"t": four.pk, "n": link.nonce}, salt="not-our-salt", compress=True)
    response = client.get(f"/b/{forged}/")
    assert response.status_code == 404
    # Signed correctly but naming another table with this nonce: no such link.
    wrong_table = signing.dumps({"t": four.pk, "n": link.nonce}, salt=banker_links.SALT)
    assert client.get(f"/b/{wrong_table}/").status_code == 404
    assert client.get(f"/banker/table/{four.pk}/").status_code == 403


def test_revoked_link_stops_at_once_also_for_a_session_that_used_it(client, round_):
    table = _table(round_, 2)
    link = services.issue_link(table=table)
    assert _open(client, link).status_code == 302
    assert client.get(f"/banker/table/{table.pk}/").status_code == 200
    assert services.revoke_link(table=table) == 1
    assert client.get(f"/banker/table/{table.pk}/").status_code == 403
    response = _open(Client(), link)
    assert response.status_code == 403
    body = response.content.decode()
    assert 'data-code="link_revoked"' in body
    assert "revoked" in body.lower() or "widerrufen" in body


def test_the_sessions_link_is_read_compiled_once_and_still_stops_at_once(round_):
    """Issue 29: every banker action asks for the session's live link; its SQL is written once
    (``config.prepared``), and a revocation or the round's close still counts on the next ask."""
    from unittest import mock

    from django.contrib.sessions.backends.db import SessionStore
    from django.db.models.sql.compiler import SQLCompiler

    table = _table(round_, 3)
    link = services.issue_link(table=table)
    session = SessionStore()
    banker_links.grant(session, link)
    banker_links.session_link(session, table)  # compiled on this thread's first ask
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True,
                           side_effect=SQLCompiler.as_sql) as compiled:
        found = [banker_links.session_link(session, table) for _ in range(3)]
    assert compiled.call_count == 0
    assert {(found.pk, found.banker_id) for found in found} == {(link.pk, link.banker_id)}
    assert found[0].banker == link.banker  # with the banker it was issued to, no query
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)
    assert banker_links.session_link(session, table) is None
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
    assert banker_links.session_link(session, table) == link
    services.revoke_link(table=table)
    assert banker_links.session_link(session, table) is None
    session[banker_links.SESSION_KEY] = {str(table.pk): ["not", "a", "nonce"]}
    assert banker_links.session_link(session, table) is None


def test_a_closed_rounds_link_says_the_round_closed_not_revoked(client, round_):
    """Issue 28: nobody revoked the card's link; its round is over, and the page says so."""
    table = _table(round_, 2)
    link = services.issue_link(table=table)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)
    assert banker_links.resolve(banker_links.make_token(link))[0] is (
        banker_links.LinkState.ROUND_CLOSED)
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(banker_links.link_path(link))
    assert response.status_code == 403
    body = response.content.decode()
    assert 'data-code="link_round_closed"' in body
    assert "Round closed – link no longer valid" in body and "Link revoked" not in body
    # the bankers page of the closed round says the same instead of offering the link
    client.force_login(OrganizerFactory())
    page = client.get(f"/manage/{round_.tournament.slug}/rounds/1/bankers/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-link-state="round_closed"' in page and "data-copy=" not in page
    # a link revoked by someone still says "revoked"
    services.revoke_link(table=table)
    assert banker_links.resolve(banker_links.make_token(link))[0] is (
        banker_links.LinkState.REVOKED)


def test_revoked_page_speaks_german_by_default(client, round_):
    link = services.issue_link(table=_table(round_, 1))
    services.revoke_link(table=link.table)
    response = _open(client, link)
    assert response.status_code == 403
    assert response.context["revoked"] is True


@pytest.mark.parametrize(
    "token", ["nonsense", "eyJ0IjoxLCJuIjoieCJ9:1abc:deadbeef", "a" * 300]
)
def test_forged_token_is_refused(client, round_, token):
    response = client.get(f"/b/{token}/")
    assert response.status_code == 404
    assert 'data-code="link_invalid"' in response.content.decode()


def test_new_link_revokes_the_old_one(client, round_):
    table = _table(round_, 1)
    old = services.issue_link(table=table)
    new = services.issue_link(table=table)
    old.refresh_from_db()
    assert old.revoked_at is not None and new.revoked_at is None
    assert old.nonce != new.nonce and len(new.nonce) >= 20
    assert _open(client, old).status_code == 403
    assert _open(client, new).status_code == 302
    assert BankerLink.objects.filter(table=table, revoked_at__isnull=True).count() == 1


def test_reassigning_the_banker_revokes_the_old_link_and_issues_a_new_one(round_):
    table = _table(round_, 1)
    first, second = UserFactory(username="bank-a"), UserFactory(username="bank-b")
    services.assign_banker(table=table, banker=first)
    old = banker_links.live_link(table)
    assert old is not None and old.banker == first
    old_session = Client()
    _open(old_session, old)
    assert old_session.get(f"/banker/table/{table.pk}/").status_code == 200

    services.assign_banker(table=table, banker=second)  # mid-round
    old.refresh_from_db()
    new = banker_links.live_link(table)
    assert old.revoked_at is not None
    assert new is not None and new.banker == second and new.pk != old.pk
    assert old_session.get(f"/banker/table/{table.pk}/").status_code == 403
    table.refresh_from_db()
    assert table.banker == second


def test_reassigning_the_same_banker_keeps_the_link(round_):
    table = _table(round_, 1)
    banker = UserFactory(username="bank-same")
    services.assign_banker(table=table, banker=banker)
    link = banker_links.live_link(table)
    services.assign_banker(table=table, banker=banker)
    assert banker_links.live_link(table) == link


def test_one_banker_one_table_per_round(round_):
    banker = UserFactory(username="bank-busy")
    services.assign_banker(table=_table(round_, 1), banker=banker)
    with pytest.raises(errors.BankerUnavailable) as refused:
        services.assign_banker(table=_table(round_, 2), banker=banker)
    assert "already banks table 1" in refused.value.message_in("en")


def test_banker_created_on_the_fly_has_no_password():
    tournament = TournamentFactory()
    user = bankers.get_or_create_banker(username="neue.bank", tournament=tournament)
    assert not user.has_usable_password()
    assert user.staff_roles.filter(tournament=tournament, role="banker").exists()
    assert bankers.get_or_create_banker(username="NEUE.bank", tournament=tournament) == user
    with pytest.raises(errors.InvalidUsername):
        bankers.get_or_create_banker(username="no spaces please", tournament=tournament)


def test_qr_svg_is_valid_svg_with_a_path():
    svg = qr_svg("https://mcs.example/b/abc:def/", title="Tisch <3>")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    assert root.get("width") is None  # sized by the page
    assert root.find(f"{SVG}path") is not None and root.find(f"{SVG}path").get("d")
    assert root.find(f"{SVG}title").text == "Tisch <3>"
    assert not svg.startswith("<?xml")


# --- The organizer's bankers page ---------------------------------------------------------------


def test_bankers_page_assigns_and_shows_link_with_qr(client, round_):
    client.force_login(OrganizerFactory())
    base = f"/manage/{round_.tournament.slug}/rounds/1/bankers/"
    response = client.post(base + "2/assign/", {"new_username": "tisch2bank"})
    assert response.status_code == 302
    table = _table(round_, 2)
    table.refresh_from_db()
    assert table.banker.username == "tisch2bank"
    link = banker_links.live_link(table)
    page = client.get(base)
    assert page.status_code == 200
    body = page.content.decode()
    assert f"http://testserver{banker_links.link_path(link)}" in body
    assert "<svg" in body and "data-copy=" in body
    # Re-assign to an existing banker of the tournament (from the list).
    other = UserFactory(username="tisch2neu")
    StaffRole.objects.create(tournament=round_.tournament, user=other, role=StaffRole.Role.BANKER)
    response = client.post(base + "2/assign/", {"banker": other.pk})
    assert response.status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert banker_links.live_link(table).banker == other
    # Revoke, then issue anew.
    client.post(base + "2/revoke/")
    assert banker_links.live_link(table) is None
    client.post(base + "2/link/")
    assert banker_links.live_link(table) is not None


def test_bankers_page_query_count_is_constant(client, round_, django_assert_max_num_queries):
    for table in round_.tables.all():
        services.assign_banker(table=table, banker=User.objects.create(username=f"q{table.pk}"))
    client.force_login(OrganizerFactory())
    url = f"/manage/{round_.tournament.slug}/rounds/1/bankers/"
    client.get(url)
    with django_assert_max_num_queries(10):
        assert client.get(url).status_code == 200


def test_banker_and_anonymous_cannot_manage_links(client, round_):
    table = _table(round_, 1)
    banker = UserFactory(username="just-a-banker")
    services.assign_banker(table=table, banker=banker)
    base = f"/manage/{round_.tournament.slug}/rounds/1/bankers/"
    for who in (None, banker):
        if who:
            client.force_login(who)
        refused = 403 if who else 302  # a login without a role here, or the login page
        assert client.get(base).status_code == refused
        assert client.post(base + "1/link/").status_code == refused
        assert client.post(base + "1/revoke/").status_code == refused
        assert client.post(base + "1/assign/", {"new_username": "evil"}).status_code == refused
        api = f"/api/v1/tables/{table.pk}/"
        assert client.get(api + "link/").status_code in (401, 403)
        assert client.post(api + "link/").status_code in (401, 403)
        assert client.delete(api + "link/").status_code in (401, 403)
        assert client.post(api + "banker/", {"username": "evil"}).status_code in (401, 403)
    assert not User.objects.filter(username="evil").exists()
    assert BankerLink.objects.filter(table=table).count() == 1
    assert banker_links.live_link(table).banker == banker


def test_api_link_token_only_for_organizers(client, round_):
    table = _table(round_, 1)
    client.force_login(OrganizerFactory())
    created = client.post(f"/api/v1/tables/{table.pk}/link/")
    assert created.status_code == 201
    data = created.json()
    assert data["url"].startswith("http://testserver/b/")
    assert data["token"] in data["url"]
    assert client.get(f"/api/v1/tables/{table.pk}/link/").json()["token"] == data["token"]
    anonymous = Client()
    table_data = anonymous.get(f"/api/v1/tables/{table.pk}/").json()
    assert data["token"] not in str(table_data)
    assert table_data["banker"] is None
    assert anonymous.get(data["url"]).status_code == 302  # the link itself works for anyone
    assert client.delete(f"/api/v1/tables/{table.pk}/link/").status_code == 204
    assert client.get(f"/api/v1/tables/{table.pk}/link/").status_code == 404
    assert Client().get(data["url"]).status_code == 403


def test_api_assign_banker_creates_and_reassigns(client, round_):
    table = _table(round_, 1)
    client.force_login(OrganizerFactory())
    url = f"/api/v1/tables/{table.pk}/banker/"
    unknown = client.post(url, {"username": "api-bank"}, content_type="application/json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_banker"
    created = client.post(
        url, {"username": "api-bank", "create": True}, content_type="application/json"
    )
    assert created.status_code == 200
    assert created.json()["banker"] == "api-bank"
    first = banker_links.live_link(table)
    cleared = client.post(url, {"username": None}, content_type="application/json")
    assert cleared.status_code == 200 and cleared.json()["banker"] is None
    first.refresh_from_db()
    assert first.revoked_at is not None and banker_links.live_link(table) is None


def test_a_link_always_gives_the_same_token_and_old_timestamped_tokens_still_open(round_):
    """A card printed now and the link page a second later show the same address."""
    import time_machine
    from django.utils import timezone

    table = _table(round_, 1)
    link = banker_links.issue_link(table=table)
    with time_machine.travel(timezone.now() + timezone.timedelta(seconds=5)):
        again = banker_links.make_token(link)
    assert banker_links.make_token(link) == again
    old = signing.dumps({"t": table.pk, "n": link.nonce}, salt=banker_links.SALT, compress=True)
    assert banker_links.read_token(old) == (table.pk, link.nonce)
    assert banker_links.read_token(again + "x") is None


def test_events_counts_and_confirmations_through_a_banker_link_have_an_author():
    tournament = TournamentFactory(slug="autor", status=Tournament.Status.RUNNING, table_size=4)
    people = [PlayerFactory(tournament=tournament, name=f"Gast {n}") for n in range(4)]
    banker = UserFactory(username="bank-autor")
    appoint(banker, StaffRole.Role.BANKER, tournament)
    round_, tables = make_round(tournament, 1, [people])
    table = tables[0]
    table.banker = banker
    table.save()
    link = services.issue_link(table=table)
    phone = Client()
    assert phone.get(banker_links.link_path(link)).status_code == 302
    answer = phone.post(f"/api/v1/tables/{table.pk}/events", {"event": {"type": "start"}},
                        content_type="application/json")
    assert answer.status_code == 201
    game = Game.objects.get(table=table)
    assert game.events.get(seq=0).author == banker
    for person in people:
        phone.post(f"/api/v1/tables/{table.pk}/events",
                   {"event": {"type": "cash", "player": str(person.pk), "amount": 1500}},
                   content_type="application/json")
    posted = set(game.events.filter(type="cash").values_list("author__username", flat=True))
    assert posted == {"bank-autor"}
    referee.enforce_deadlines(game_id=game.pk, now=timezone.now() + dt.timedelta(minutes=95))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    phone.post(f"/banker/table/{table.pk}/count/", {"seq": game.event_count,
                                                    "revision": result_revision(table)})
    result = GameResult.objects.get(game=game)
    assert result.counted_by == banker
    phone.post(f"/banker/table/{table.pk}/confirm/", {"code": game.confirmation_code,
                                                      "revision": result_revision(table)})
    result.refresh_from_db()
    assert result.status == GameResult.Status.CONFIRMED and result.confirmed_by == banker
    entries = LogEntry.objects.filter(content_type__model="gameresult", object_pk=str(result.pk))
    assert entries.count() >= 2 and all(entry.actor == banker for entry in entries)
