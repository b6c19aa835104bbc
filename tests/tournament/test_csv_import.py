"""CSV import of players: all or nothing, every bad line reported with its number and reason."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from factories import ClubFactory, OrganizerFactory, PlayerFactory, TournamentFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.errors import Conflict
from tournament.models import Club, Player, Tournament
from tournament.players import csv_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)


def run(tournament, text: str | bytes, encoding: str = "utf-8"):
    data = text.encode(encoding) if isinstance(text, str) else text
    return csv_import.import_players(tournament=tournament, data=data)


def refused(tournament, text: str | bytes, encoding: str = "utf-8") -> list[tuple[int, str]]:
    players, clubs = Player.objects.count(), Club.objects.count()
    with pytest.raises(csv_import.CsvImportError) as info:
        run(tournament, text, encoding)
    assert (Player.objects.count(), Club.objects.count()) == (players, clubs), "nothing saved"
    assert info.value.code == "csv_invalid" and info.value.http_status == 400
    return [(error.line, error.code) for error in info.value.errors]


# --- accepted files -----------------------------------------------------------------------


def test_utf8_comma_english_header(tournament):
    result = run(
        tournament,
        "name,club,email,consent\n"
        "Anna Müller,Spielfreunde Durlach,anna@example.org,yes\n"
        "Ben Becker,,ben@example.org,no\n"
        "Carla Klein,Spielfreunde Durlach,,\n",
    )
    assert [p.name for p in result.players] == ["Anna Müller", "Ben Becker", "Carla Klein"]
    assert [c.name for c in result.clubs] == ["Spielfreunde Durlach"]
    assert (result.encoding, result.delimiter) == ("utf-8", ",")
    anna, ben, carla = Player.objects.order_by("name")
    assert (
        anna.public_name_consent and not ben.public_name_consent and not carla.public_name_consent
    )
    assert anna.club == carla.club and ben.club is None
    assert anna.email == "anna@example.org" and not anna.checked_in


def test_utf8_bom_semicolon_german_header(tournament):
    text = "Name;Verein;E-Mail;Einwilligung\r\nJörg Weiß;KIT;joerg@example.org;ja\r\n"
    result = run(tournament, "\ufeff" + text)
    assert result.delimiter == ";"
    player = Player.objects.get()
    assert player.name == "Jörg Weiß" and player.club.name == "KIT" and player.public_name_consent


def test_windows_1252_with_umlauts(tournament):
    data = "Name;Verein;E-Mail;öffentlich\r\nAnna Müller;Würfelglück;;x\r\nJörg Weiß;;;\r\n".encode(
        "cp1252"
    )
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # really not UTF-8
    result = run(tournament, data)
    assert result.encoding == "cp1252"
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Anna Müller", "Jörg Weiß"]
    assert Club.objects.get().name == "Würfelglück"


def test_tab_separated_and_columns_in_any_order(tournament):
    run(tournament, "E-Mail\tName\n\tAnna\nben@example.org\tBen\n")
    assert Player.objects.get(name="Ben").email == "ben@example.org"


@pytest.mark.parametrize(
    "header",
    [
        "name,club,email,consent",
        "Name,Club,E-Mail,Public",
        "NAME,VEREIN,MAIL,ÖFFENTLICH",
        "Spielername,Verein,E-Mail-Adresse,Einwilligung Namensnennung",
        "Teilnehmer,Familie,e-mail,Zustimmung",
    ],
)
def test_generous_header_names(tournament, header):
    run(tournament, f"{header}\nAnna,KIT,anna@example.org,ja\n")
    player = Player.objects.get()
    assert (player.name, player.club.name, player.email, player.public_name_consent) == (
        "Anna",
        "KIT",
        "anna@example.org",
        True,
    )


@pytest.mark.parametrize(
    ("value", "consent"),
    [
        ("ja", True),
        ("Ja", True),
        ("JA", True),
        ("yes", True),
        ("1", True),
        ("x", True),
        ("X", True),
        ("nein", False),
        ("no", False),
        ("0", False),
        ("", False),
        (" ", False),
    ],
)
def test_consent_values(tournament, value, consent):
    run(tournament, f"name;consent\nAnna;{value}\n")
    assert Player.objects.get().public_name_consent is consent


def test_first_and_last_name_columns_are_joined(tournament):
    run(tournament, "Vorname;Nachname;Verein\nAnna;Müller;KIT\nJörg;;\n")
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Anna Müller", "Jörg"]


def test_name_and_first_name_columns_together_are_refused(tournament):
    assert refused(tournament, "Name;Vorname\nAnna Müller;Anna\n") == [
        (1, "csv_name_columns_twice")
    ]


def test_name_only_file(tournament):
    run(tournament, "Name\nAnna Müller\nBen Becker\n")
    assert Player.objects.count() == 2


def test_blank_lines_quotes_and_trailing_empty_columns(tournament):
    text = (
        "Name;Verein;E-Mail;Einwilligung;;\n"
        ";;;;;\n"
        '"Müller; Anna";"Verein ""Los"" e. V.";;ja;;\n'
        "\n"
        "  Ben   Becker  ;;;nein;;\n"
    )
    run(tournament, text)
    anna = Player.objects.get(name="Müller; Anna")
    assert anna.club.name == 'Verein "Los" e. V.'
    assert Player.objects.filter(name="Ben Becker").exists()


def test_existing_clubs_are_reused_case_insensitively(tournament):
    club = ClubFactory(name="Monopoly-Club Karlsruhe", short_name="MC KA")
    result = run(
        tournament,
        "name,club\nA,monopoly-club karlsruhe\nB,MC KA\nC,Neuer Club\nD,neuer club\n",
    )
    assert Player.objects.get(name="A").club == club
    assert Player.objects.get(name="B").club == club
    assert [c.name for c in result.clubs] == ["Neuer Club"]
    assert Player.objects.get(name="D").club.name == "Neuer Club"


def test_import_while_running_checks_in(tournament):
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    run(tournament, "name\nZoë Spät\n")
    assert Player.objects.get().checked_in


def test_import_refused_when_finished(tournament):
    from tournament.players.services import PlayersLocked

    tournament.status = Tournament.Status.FINISHED
    tournament.save()
    with pytest.raises(PlayersLocked):
        run(tournament, "name\nZoë Spät\n")


# --- refused files: every reason with its line number ---------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name,club\n,KIT\n", [(2, "csv_name_missing")]),
        ("name,club\n   ,KIT\n", [(2, "csv_name_missing")]),
        ("name\nAnna\nBen\nanna\n", [(4, "csv_name_duplicate")]),
        ("name,email\nAnna,anna@\n", [(2, "csv_email_invalid")]),
        ("name,email\nAnna,anna example.org\n", [(2, "csv_email_invalid")]),
        ("name\n" + "x" * 121 + "\n", [(2, "csv_name_too_long")]),
        ("name,club\nAnna," + "c" * 121 + "\n", [(2, "csv_club_too_long")]),
        ("name,consent\nAnna,vielleicht\n", [(2, "csv_consent_invalid")]),
        ("name,club\nAnna\n", [(2, "csv_column_count")]),
        ("name,club\nAnna,KIT,extra\n", [(2, "csv_column_count")]),
        ("name,club,birthday\nAnna,KIT,1.1.2000\n", [(1, "csv_unknown_column")]),
        ("name,club,,email\nAnna,KIT,,\n", [(1, "csv_header_empty")]),
        ("name,Name\nAnna,Anna\n", [(1, "csv_duplicate_column")]),
        ("club,email\nKIT,a@example.org\n", [(1, "csv_no_name_column")]),
        ("Anna Müller,KIT,anna@example.org,ja\n", [(1, "csv_no_header")]),
        ("name,club\n", [(1, "csv_no_players")]),
        ("name,club\n\n,,\n", [(1, "csv_no_players")]),
        ("", [(1, "csv_empty")]),
        ("\n \r\n", [(1, "csv_empty")]),
        ('name,club\nAnna,KIT\n"Ben "B" Becker",KIT\n', [(3, "csv_syntax")]),
    ],
)
def test_each_refusal_reason_with_its_line(tournament, text, expected):
    assert refused(tournament, text) == expected


def test_extra_value_in_an_unnamed_trailing_column(tournament):
    assert refused(tournament, "name;club;\nAnna;KIT;\nBen;KIT;oops\n") == [(3, "csv_extra_value")]


def test_duplicates_against_existing_players_case_insensitively(tournament):
    PlayerFactory(tournament=tournament, name="Anna Müller")
    PlayerFactory(name="Ben Becker")  # another tournament: no clash
    errors = refused(tournament, "name\nBen Becker\nANNA MÜLLER\n")
    assert errors == [(3, "csv_name_registered")]


def test_several_bad_lines_are_reported_together_and_nothing_is_saved(tournament):
    ClubFactory(name="Bestehender Club")
    text = (
        "Name;Verein;E-Mail;Einwilligung\n"  # 1
        "Anna Müller;Neuer Club;anna@example.org;ja\n"  # 2 fine
        ";Neuer Club;;ja\n"  # 3 no name
        "Ben Becker;;ben@;vielleicht\n"  # 4 e-mail and consent
        "Carla Klein;Bestehender Club\n"  # 5 column count
        "anna müller;;;\n"  # 6 duplicate of line 2
        "Dieter Dorn;Noch ein Club;;nein\n"  # 7 fine
    )
    with pytest.raises(csv_import.CsvImportError) as info:
        run(tournament, text)
    got = [(e.line, e.code) for e in info.value.errors]
    assert got == [
        (3, "csv_name_missing"),
        (4, "csv_email_invalid"),
        (4, "csv_consent_invalid"),
        (5, "csv_column_count"),
        (6, "csv_name_duplicate"),
    ]
    assert Player.objects.count() == 0
    assert list(Club.objects.values_list("name", flat=True)) == ["Bestehender Club"]
    message = info.value.message_in("en")
    assert "4 lines have errors" in message and "3, 4, 5, 6" in message and "nothing was saved" in message
    duplicate = next(e for e in info.value.errors if e.code == "csv_name_duplicate")
    assert "line 2" in duplicate.message_in("en")
    assert duplicate.message_in("de")


def test_line_numbers_count_physical_lines_of_quoted_multi_line_fields(tournament):
    text = 'name,club\n"Anna",KIT\n"Ben\nBecker",KIT\nCarla,KIT,x\n'
    assert refused(tournament, text) == [(5, "csv_column_count")]


def test_undecodable_bytes_are_reported_with_their_line(tournament):
    # 0x81 and 0x9D are neither UTF-8 nor Windows-1252
    data = b"name;club\nAnna;KIT\nBen \x81;KIT\nCarla;\x9d\n"
    assert refused(tournament, data) == [(3, "csv_encoding"), (4, "csv_encoding")]


def test_mixed_encodings_are_refused_by_line(tournament):
    data = "name\nJörg Weiß\n".encode() + "Anna Müller\n".encode("cp1252")
    assert refused(tournament, data) == [(3, "csv_encoding_mixed")]


def test_utf16_and_workbooks_are_refused(tournament):
    assert refused(tournament, "name\nAnna\n".encode("utf-16")) == [(1, "csv_utf16")]
    assert refused(tournament, b"PK\x03\x04\x14\x00\x06\x00binary") == [(1, "csv_not_text")]


def test_too_big_files_are_refused(tournament, monkeypatch):
    monkeypatch.setattr(csv_import, "MAX_BYTES", 20)
    assert refused(tournament, "name\n" + "Anna Müller\n" * 5) == [(1, "csv_too_big")]


def test_line_errors_as_dict_are_bilingual(tournament):
    with pytest.raises(csv_import.CsvImportError) as info:
        run(tournament, "name,consent\nAnna,vielleicht\n")
    data = info.value.as_dict()
    assert data["code"] == "csv_invalid"
    assert data["errors"] == [
        {
            "line": 2,
            "code": "csv_consent_invalid",
            "message_de": info.value.errors[0].message_in("de"),
            "message_en": info.value.errors[0].message_in("en"),
        }
    ]
    assert "vielleicht" in data["errors"][0]["message_en"]


NAMES = (
    st.text(
        alphabet=st.characters(
            codec="utf-8", categories=["L", "Nd", "Zs", "Pd"], exclude_characters="\u2028\u2029"
        ),
        min_size=1,
        max_size=40,
    )
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(NAMES, min_size=1, max_size=8, unique_by=str.lower),
    delimiter=st.sampled_from([",", ";"]),
    encoding=st.sampled_from(["utf-8", "utf-8-sig"]),
)
def test_any_csv_written_by_a_spreadsheet_imports_back(tournament, names, delimiter, encoding):
    Player.objects.filter(tournament=tournament).delete()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerow(["Name", "Verein", "E-Mail", "Einwilligung"])
    for index, name in enumerate(names):
        writer.writerow([name, "KIT" if index % 2 else "", "", "ja" if index % 3 else "nein"])
    run(tournament, buffer.getvalue().encode(encoding))
    assert sorted(Player.objects.filter(tournament=tournament).values_list("name", flat=True)) == (
        sorted(names)
    )


# --- the API and the page ------------------------------------------------------------------


def upload(text: str | bytes, name: str = "spieler.csv") -> SimpleUploadedFile:
    data = text.encode() if isinstance(text, str) else text
    return SimpleUploadedFile(name, data, content_type="text/csv")


def api_upload(client, text: str | None):
    """An organizer posts ``text`` as the file to the import API (``None``: no file)."""
    client.force_login(OrganizerFactory())
    data = {} if text is None else {"file": upload(text)}
    return client.post("/api/v1/tournaments/cup/players/import/", data)


def test_api_upload(client, tournament):
    response = api_upload(client, "Name;Verein\nAnna Müller;KIT\nBen Becker;KIT\n")
    assert response.status_code == 201
    body = response.json()
    assert body["created"] == 2 and body["clubs_created"] == ["KIT"]
    assert [p["name"] for p in body["players"]] == ["Anna Müller", "Ben Becker"]


def test_api_upload_refused_with_every_line_error(client, tournament):
    text = "name,email\n,nobody@example.org\nBen,ben@\nCarla,carla@example.org\n"
    response = api_upload(client, text)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "csv_invalid"
    assert [(e["line"], e["code"]) for e in body["errors"]] == [
        (2, "csv_name_missing"),
        (3, "csv_email_invalid"),
    ]
    assert all(e["message_de"] and e["message_en"] for e in body["errors"])
    assert Player.objects.count() == 0


def test_api_upload_needs_a_file(client, tournament):
    response = api_upload(client, None)
    assert response.status_code == 400


def test_page_upload(client, tournament):
    client.force_login(OrganizerFactory())
    assert client.get("/manage/cup/players/import/").status_code == 200
    response = client.post("/manage/cup/players/import/", {"file": upload("Name\nAnna Müller\n")})
    assert response.status_code == 302 and response["Location"] == "/manage/cup/players/"
    assert Player.objects.get().name == "Anna Müller"


def test_page_upload_shows_every_line_error(client, tournament):
    client.force_login(OrganizerFactory())
    data = "Name;E-Mail\nAnna;anna@\nBen;\nBen;\n".encode("cp1252")
    response = client.post("/manage/cup/players/import/", {"file": upload(data)})
    assert response.status_code == 400
    body = response.content.decode()
    assert 'data-code="csv_invalid"' in body
    assert 'data-line="2" data-code="csv_email_invalid"' in body
    assert 'data-line="4" data-code="csv_name_duplicate"' in body
    assert "anna@" in body
    assert Player.objects.count() == 0


def test_a_club_created_in_the_same_instant_refuses_the_import(tournament, monkeypatch):
    ClubFactory(tournament=tournament, name="KIT")
    # as if another desk created the club between our look-up and our insert
    monkeypatch.setattr(csv_import, "find_clubs", lambda names, tournament: {})
    with pytest.raises(Conflict) as info:
        run(tournament, "name,club\nAnna,KIT\n")
    assert info.value.code == "csv_changed_meanwhile"
    assert Player.objects.count() == 0 and Club.objects.count() == 1


def test_a_nul_character_past_the_first_4_kb_is_refused_with_its_line(tournament):
    """Found by the form fuzz: only the first 4 KB were checked for binary content, and a
    name with a NUL character is a database error on PostgreSQL."""
    lines = [f"Spieler {n}" for n in range(1, 600)]
    lines[549] = "Spieler\x00 550"
    text = "name\n" + "\n".join(lines) + "\n"
    assert text.index("\x00") > 4096
    assert refused(tournament, text) == [(551, "csv_nul")]
