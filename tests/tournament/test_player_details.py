"""Details of registering players a walk-through found (issue 28): look-alike names flagged, a
CSV without a consent column or with a broken quotation mark told in words, the name field as
long as the server takes, initials without symbols."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from catalogues import write_mo
from django.core.files.uploadedfile import SimpleUploadedFile
from factories import PlayerFactory

from public.signup import SignupForm
from tournament import names
from tournament.models import Club, Player
from tournament.players import csv_import

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def german_glossary(settings, tmp_path):
    """German from this change's glossary, as ``make messages`` will merge it."""
    glossary = json.loads((ROOT / "locale" / "glossary-de-details1.json").read_text("utf-8"))
    write_mo(tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.mo", glossary)
    settings.LOCALE_PATHS = [str(tmp_path / "locale"), *settings.LOCALE_PATHS]


def _upload(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("spieler.csv", text.encode(), content_type="text/csv")


def _warnings(response) -> list[str]:
    return [str(message) for message in response.context["messages"]
            if message.level_tag == "warning"]


# --- look-alike names -------------------------------------------------------------------------


@pytest.mark.parametrize("other", ["Juergen Weiss", "JÜRGEN WEISS", "Jürgen-Weiß",
                                   "J\u00fcrg\u0435n Weiß"])  # the last with a Cyrillic е
def test_look_alike_names_share_a_key(other):
    assert names.look_alike_key(other) == names.look_alike_key("Jürgen Weiß")


def test_different_names_do_not():
    assert names.look_alike_key("Jürgen Weiß") != names.look_alike_key("Jürgen Weise")


def test_a_late_entry_that_looks_like_a_registered_player_is_flagged(organizer_client, tournament):
    PlayerFactory(tournament=tournament, name="Jürgen Weiß")
    PlayerFactory(name="Juergen Weiss")  # another tournament's: not this desk's business
    response = organizer_client.post("/manage/cup/players/add/?from=desk",
                                     {"name": "Juergen Weiss", "from": "desk"}, follow=True, **EN)
    assert Player.objects.filter(tournament=tournament, name="Juergen Weiss").exists()
    [warning] = _warnings(response)
    assert "“Juergen Weiss” looks like “Jürgen Weiß”" in warning
    assert "Juergen Weiss" in response.content.decode()
    plain = organizer_client.post("/manage/cup/players/add/", {"name": "Anna Alt"}, follow=True)
    assert _warnings(plain) == []


def test_a_csv_name_that_looks_like_another_is_flagged_and_imported(organizer_client, tournament):
    PlayerFactory(tournament=tournament, name="Jürgen Weiß")
    text = ("Name;Einwilligung\nJuergen Weiss;ja\nAnna Müller;ja\nAnna Mueller;nein\n"
            "Ben Becker;ja\n")
    result = csv_import.import_players(tournament=tournament, data=text.encode())
    assert len(result.players) == 4
    assert [(w.line, w.code) for w in result.warnings] == [
        (2, "csv_name_looks_registered"), (4, "csv_name_looks_like_line")]
    assert "line 3" in result.warnings[1].message_in("en")
    assert "in Zeile 3" in result.warnings[1].message_in("de")


# --- a CSV without a consent column -----------------------------------------------------------


def test_an_import_without_a_consent_column_warns_that_every_name_is_initials(
    organizer_client, tournament
):
    response = organizer_client.post("/manage/cup/players/import/",
                                     {"file": _upload("Name;Verein\nAnna Müller;KIT\nBen Becker;\n")},
                                     follow=True, **EN)
    assert Player.objects.filter(tournament=tournament).count() == 2
    [warning] = _warnings(response)
    assert warning.startswith("Line 1: The file has no consent column")
    assert "all 2 imported players" in warning and "initials" in warning
    with_consent = organizer_client.post(
        "/manage/cup/players/import/", {"file": _upload("Name;Einwilligung\nCarla Klein;ja\n")},
        follow=True)
    assert _warnings(with_consent) == []


def test_the_api_reports_the_warnings(organizer_client, tournament):
    response = organizer_client.post("/api/v1/tournaments/cup/players/import/",
                                     {"file": _upload("Name\nAnna Müller\n")})
    assert response.status_code == 201
    [warning] = response.json()["warnings"]
    assert warning["code"] == "csv_no_consent_column" and warning["line"] == 1
    assert warning["message_de"] and warning["message_en"]


# --- a broken quotation mark ------------------------------------------------------------------


def _refused(tournament, text: str):
    with pytest.raises(csv_import.CsvImportError) as info:
        csv_import.import_players(tournament=tournament, data=text.encode())
    assert Player.objects.count() == 0 and Club.objects.count() == 0
    return info.value.errors


def test_an_open_quotation_mark_is_reported_and_later_lines_are_still_checked(tournament):
    text = ('Name;Verein;E-Mail\n'
            'Anna Müller;"Spielfreunde;anna@example.org\n'  # 2: the quote is never closed
            'Ben Becker;KIT;ben@\n'  # 3: a bad e-mail
            'Carla Klein;"KIT";carla@example.org\n'  # 4: fine
            ';KIT;\n')  # 5: no name
    errors = _refused(tournament, text)
    assert [(e.line, e.code) for e in errors] == [
        (2, "csv_syntax"), (3, "csv_email_invalid"), (5, "csv_name_missing")]
    english, german = errors[0].message_in("en"), errors[0].message_in("de")
    assert "not closed" in english and "end of data" not in english
    assert "nicht geschlossen" in german and "end of data" not in german


def test_text_after_a_closing_quotation_mark_is_reported_with_its_line(tournament):
    text = 'name,club\nAnna,KIT\n"Ben "B" Becker",KIT\nCarla,\nDora,"x"y\nEva,KIT,extra\n'
    errors = _refused(tournament, text)
    assert [(e.line, e.code) for e in errors] == [
        (3, "csv_syntax"), (5, "csv_syntax"), (6, "csv_column_count")]
    assert "before the next “,”" in errors[0].message_in("en")


def test_a_quotation_mark_left_open_at_the_end_says_where(tournament):
    errors = _refused(tournament, 'name,club\nAnna,KIT\nBen,"KIT\n')
    assert [(e.line, e.code) for e in errors] == [(3, "csv_syntax")]
    assert "Anführungszeichen" in errors[0].message_in("de")


# --- the name field ---------------------------------------------------------------------------


def _maxlength(html: str, name: str) -> int:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)[0]
    return int(re.search(r'maxlength="(\d+)"', tag)[1])


def test_the_name_fields_take_what_the_server_takes(organizer_client, tournament):
    name_max = Player._meta.get_field("name").max_length
    club_max = Club._meta.get_field("name").max_length
    for url in ("/manage/cup/players/add/", "/manage/cup/players/add/?from=desk",
                f"/manage/cup/players/{PlayerFactory(tournament=tournament).pk}/edit/"):
        html = organizer_client.get(url).content.decode()
        assert _maxlength(html, "name") == name_max, url
        assert _maxlength(html, "club") == club_max, url
    signup = SignupForm()  # the public sign-up: the same limits
    assert signup.fields["name"].max_length == name_max
    assert signup.fields["club"].max_length == club_max


# --- initials ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "shown"), [
    ("🎲 Wilma Wunder 🏆", "W.W."),
    ("🎲Wilma Wunder", "W.W."),
    ("Gül Müller-Weiß", "G.M.W."),
    ("🎲 🏆", "?"),
])
def test_initials_skip_symbols(name, shown):
    assert names.initials(name) == shown
