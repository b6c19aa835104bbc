"""Names that deceive: bidi and zero-width characters leave a player's and a club's name at the
desk, in the API, the CSV import and the tournament import, and a tournament's name and venue;
a staff account cannot look like an existing one (mixed scripts, confusables, fullwidth)."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import UserFactory, seated_table

from tournament.models import Tournament

pytestmark = pytest.mark.django_db

HIDDEN = "\u202eevil\u202c Zo\u200bë\u2066 \ufeffKrüger\u00ad\u2069"


def test_names_lose_bidi_and_zero_width_characters_at_the_desk_and_in_the_api():
    from factories import OrganizerFactory

    from tournament.models import Player

    tournament = seated_table().round.tournament
    organizer = Client()
    organizer.force_login(OrganizerFactory())
    answer = organizer.post(f"/api/v1/tournaments/{tournament.slug}/players/",
                            {"name": HIDDEN, "club": "SC\u200b Nord\u202e"},
                            content_type="application/json")
    assert answer.status_code == 201, answer.content
    player = Player.objects.get(pk=answer.json()["id"])
    assert player.name == "evil Zoë Krüger"
    assert player.club.name == "SC Nord"


def test_names_lose_bidi_and_zero_width_characters_in_a_csv_import():
    from tournament.models import Player
    from tournament.players import csv_import

    tournament = seated_table().round.tournament
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save()
    data = f"name;club\n{HIDDEN};\u200bKlub\u202e\n\u200b\u200c\u200d;\n".encode()
    with pytest.raises(csv_import.CsvImportError):  # invisible characters only: no name
        csv_import.import_players(tournament=tournament, data=data)
    data = f"name;club\n{HIDDEN};\u200bKlub\u202e\n".encode()
    csv_import.import_players(tournament=tournament, data=data)
    player = Player.objects.get(tournament=tournament, name__contains="evil")
    assert player.name == "evil Zoë Krüger" and player.club.name == "Klub"


def test_names_lose_bidi_and_zero_width_characters_in_the_tournament_import():
    from exchange.document import _shown_name

    assert _shown_name(HIDDEN) == "evil Zoë Krüger"
    with pytest.raises(ValueError):
        _shown_name("\u200b\u202e")


def test_a_tournaments_name_and_venue_lose_bidi_and_zero_width_characters():
    import datetime as dt

    from tournament import tournaments

    made = tournaments.create_tournament(name="\u202eKarlsruhe\u202c Cup\u200b", slug="bidi",
                                         date=dt.date(2026, 11, 28), venue="Halle\u2066 Süd")
    made.refresh_from_db()
    assert made.name == "Karlsruhe Cup" and made.venue == "Halle Süd"
    changed = tournaments.update_tournament(tournament=made, name="Cup\u200d 2")
    assert changed.name == "Cup 2"


def test_staff_accounts_cannot_look_like_existing_ones():
    from factories import OrganizerFactory

    from tournament import errors, staff
    from tournament.models import StaffRole
    from tournament.rounds import bankers

    tournament = seated_table().round.tournament
    organizer = OrganizerFactory(username="organizer", tournaments=[tournament])
    UserFactory(username="ok")
    role = StaffRole.Role.DESK

    def create(name):
        return staff.create_account(tournament=tournament, username=name, role=role,
                                    by=organizer)[0].user

    with pytest.raises(errors.InvalidUsername) as mixed:
        create("\u043erganizer")  # a Cyrillic о, then Latin
    assert "scripts" in mixed.value.message_in("en") and "Schrift" in mixed.value.message_in("de")
    with pytest.raises(errors.InvalidUsername) as looks:
        create("0rganizer")  # a zero for the o
    assert "looks like" in looks.value.message_in("en")
    with pytest.raises(errors.InvalidUsername):
        create("\u03bf\u03ba")  # Greek omicron kappa: one script, but it reads "ok"
    with pytest.raises(errors.AccountExists):
        create("ｏｒｇａｎｉｚｅｒ")  # fullwidth: NFKC makes it the same name
    assert create("ｍｒｍｏｎｏｐｏｌｙ").username == "mrmonopoly"
    with pytest.raises(errors.InvalidUsername):
        create("mrrnonopoly")  # r n for m
    assert create("Jürgen_2").username == "Jürgen_2"  # umlauts are Latin
    UserFactory(username="peter")
    with pytest.raises(errors.InvalidUsername):
        create("\ua4d1eter")  # Lisu ꓑ: only Unicode's confusables table knows it passes for P
    assert create("\u3055\u304f\u3089\u30ab\u30fc\u30c9").username  # Hiragana + Katakana
    with pytest.raises(errors.InvalidUsername):
        bankers.get_or_create_banker(username="b\u0430nker1", tournament=tournament)
    api = Client()
    api.force_login(organizer)
    table = tournament.rounds.get(number=1).tables.get()
    answer = api.post(f"/api/v1/tables/{table.pk}/banker/",
                      {"username": "\u043erganizer", "create": True},
                      content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_username"
