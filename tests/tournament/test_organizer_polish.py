"""Organizer and desk, polished (issue 16): late entry in one step, the site's own login,
favicon, tie-break slots, strict cash, the public address on prints, the end-of-game note."""

from __future__ import annotations

import pytest
from factories import (
    OrganizerFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    seated_table,
)

from referee import services as referee
from tournament import tournaments
from tournament.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    # Global (a superuser): these tests make their tournaments after logging in; the scope of
    # organizers is tested in tests/tournament/test_access_routes.py.
    client.force_login(OrganizerFactory(is_superuser=True))
    return client


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


def test_manage_logged_out_goes_to_the_sites_login(client):
    response = client.get("/manage/", follow=True)
    assert response.redirect_chain[-1][0] == "/login/?next=%2Fmanage%2F"
    assert "registration/login.html" in [t.name for t in response.templates]
    # a logged-in user without the right is told so, not asked to log in again
    client.force_login(UserFactory())
    assert client.get("/manage/", follow=True).status_code == 403


def test_every_page_has_a_favicon(client):
    assert 'rel="icon"' in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


def test_tie_break_slots_are_exclusive_in_the_form_and_the_service(organizer):
    page = organizer.get("/manage/new/").content.decode()
    assert page.count('data-exclusive="tie-breaks"') == 5
    from tests.tournament.test_tournaments_settings import _form

    response = organizer.post("/manage/new/", _form(tie_break_3="points"))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "tie_break_3" in errors and "tie_break_1" not in errors
    assert not Tournament.objects.exists()


def test_strict_cash_makes_games_keep_a_ledger():
    strict = seated_table(tournament_kwargs={"strict_cash": True})
    loose = seated_table()
    assert referee.ensure_game(table=strict).ledger is True
    assert referee.ensure_game(table=loose).ledger is False


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


def test_print_page_warns_about_a_loopback_address(organizer, settings):
    settings.PUBLIC_BASE_URL = ""
    table = seated_table(tournament_kwargs={"slug": "ka"})
    page = organizer.get("/manage/ka/print/1/", HTTP_HOST="127.0.0.1").content.decode()
    assert "data-loopback-warning" in page and "http://127.0.0.1" in page
    tournament = table.round.tournament
    tournament.public_base_url = "https://mcs.example.org"
    tournament.save()
    page = organizer.get("/manage/ka/print/1/", HTTP_HOST="127.0.0.1").content.decode()
    assert "data-loopback-warning" not in page and "https://mcs.example.org" in page


def test_the_public_address_goes_into_the_prints():
    from scoring import printing

    table = seated_table()
    tournament = table.round.tournament
    tournament.public_base_url = "https://mcs.example.org"
    ctx = printing.context_for("scoresheets", tournament=tournament, round_=table.round)
    assert ctx.public_table_url(1).startswith("https://mcs.example.org/t/")
    assert printing.is_loopback("http://127.0.0.1:8000") and printing.is_loopback("http://localhost")
    assert not printing.is_loopback("http://192.168.1.20:8000")


def test_the_end_of_game_note_is_good_german():
    from django.utils import translation

    from referee.console import dry_run

    with translation.override("de"):
        note = str(dry_run.END_NOTES["second_bankruptcy"])
    assert note.startswith("Mit dem zweiten Bankrott endet das Spiel")
    assert "(den" not in note


def test_entrance_list_sorts_by_last_name():
    from scoring.printing import data

    table = seated_table()
    round_ = table.round
    names = ["Zoe Ärger", "Anna Zorn", "Ben Müller", "Ada Mueller", "Carl Öhler", "Dora Ober"]
    for seat, name in zip(table.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.player_id).update(name=name, public_name_consent=True)
    PlayerFactory(tournament=round_.tournament, name="Not Seated")
    lines = data.seating_by_name(round_)
    assert [line.name for line in lines] == [
        "Ärger, Zoe", "Mueller, Ada", "Müller, Ben", "Ober, Dora", "Öhler, Carl", "Zorn, Anna",
    ]
    assert [line.letter for line in lines] == ["A", "M", "M", "O", "O", "Z"]


def test_staff_entrance_list_shows_full_names_and_is_private():
    from scoring import printing
    from scoring.printing import data

    table = seated_table()
    hidden = table.seats.order_by("position").first().player
    Player.objects.filter(pk=hidden.pk).update(name="Geheim Person", public_name_consent=False)
    public = [line.name for line in data.seating_by_name(table.round)]
    staff = [line.name for line in data.seating_by_name(table.round, full_names=True)]
    assert "Person, Geheim" not in public and "Person, Geheim" in staff
    assert printing.DOCUMENTS["seating-names-staff"].private
    assert not printing.DOCUMENTS["seating-names"].private


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
