"""The organizer's pages in the reader's language (issue 28): ruleset and board names, form
labels, the CSV example and its refusals, the bankers' links. New German comes from
``locale/glossary-de-words.json`` in a temporary catalogue until ``make messages`` merged it."""

from __future__ import annotations

import re

import pytest
from catalogues import german_from_glossaries
from django.utils import translation
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory
from gameplay import make_round

from tournament import banker_links
from tournament.models import Tournament
from tournament.players import csv_import
from tournament.players.csv_reading import column_for
from tournament.players.errors import CsvImportError

pytestmark = pytest.mark.django_db

PLURALS = {
    "The file was not imported, nothing was saved: %(count)s line has errors (line %(lines)s). "
    "Correct it and upload the whole file again.":
    "The file was not imported, nothing was saved: %(count)s lines have errors (lines "
    "%(lines)s). Correct them and upload the whole file again.",
}


@pytest.fixture
def german(tmp_path):
    with german_from_glossaries(tmp_path, "words", plurals=PLURALS):
        yield


@pytest.fixture
def cup():
    return TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION,
                             ruleset="karlsruhe")


@pytest.fixture
def organizer(client, cup):
    client.force_login(OrganizerFactory(tournaments=[cup]))
    return client


def _labels(html: str) -> dict[str, str]:
    return dict(re.findall(r'<label for="id_([a-z_]+)"[^>]*>([^<]+)</label>', html))


def _options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S).group(0)
    return re.findall(r"<option[^>]*>([^<]+)</option>", select)


def test_english_settings_name_rulesets_and_boards_in_english(organizer, german):
    english = organizer.get("/manage/cup/settings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rulesets, boards = _options(english, "ruleset"), _options(english, "board")
    assert "Classic (standard game)" in rulesets and "Short game" in rulesets
    assert "Monopoly, German standard edition (M / €)" in boards
    assert not [name for name in rulesets + boards
                if re.search(r"Klassisch|Kurzspiel|Spielvariante|deutsche|Ausgabe", name)]
    german_page = organizer.get("/manage/cup/settings/", HTTP_ACCEPT_LANGUAGE="de")
    assert "Klassisch (Standardspiel)" in _options(german_page.content.decode(), "ruleset")


def test_english_form_labels_begin_with_a_capital(organizer):
    english = organizer.get("/manage/cup/settings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    labels = _labels(english)
    assert labels["date"].startswith("Date") and labels["venue"].startswith("Venue")
    assert [label for label in labels.values() if label[:1].islower()] == []
    player_form = organizer.get("/manage/cup/players/add/", HTTP_ACCEPT_LANGUAGE="en")
    assert [label for label in _labels(player_form.content.decode()).values()
            if label[:1].islower()] == []


def test_the_import_example_has_the_header_in_the_readers_language(organizer):
    english = organizer.get("/manage/cup/players/import/", HTTP_ACCEPT_LANGUAGE="en")
    example = re.search(r'<pre data-example="en">([^<]+)</pre>', english.content.decode())
    header = example.group(1).splitlines()[0]
    assert header == "Name;Club;E-mail;Consent" and "Verein" not in example.group(1)
    assert "Einwilligung\n" not in english.content.decode()  # no German example beside it
    assert [column_for(cell) for cell in header.split(";")] == ["name", "club", "email",
                                                               "consent"]
    german_page = organizer.get("/manage/cup/players/import/", HTTP_ACCEPT_LANGUAGE="de")
    assert "<pre data-example=\"de\">Name;Verein;E-Mail;Einwilligung" in german_page.content.decode()


def _refusal(data: bytes, tournament) -> CsvImportError:
    with pytest.raises(CsvImportError) as info:
        csv_import.import_players(tournament=tournament, data=data)
    return info.value


def test_a_csv_refusal_counts_its_lines_with_proper_plurals(cup, german):
    one = _refusal(b"name;email\nAnna;kaputt\nBen;ben@example.org\n", cup)
    assert "1 Zeile enthält Fehler (Zeile 2)" in one.message_in("de")
    assert "1 line has errors (line 2)" in one.message_in("en")
    two = _refusal(b"name;email\nAnna;kaputt\nBen;auch-kaputt\n", cup)
    assert "2 Zeilen enthalten Fehler (Zeilen 2, 3)" in two.message_in("de")
    assert "2 lines have errors (lines 2, 3)" in two.message_in("en")
    for refusal in (one, two):
        assert "(n)" not in refusal.message_in("de") + refusal.message_in("en")


def test_a_broken_quote_is_explained_in_german(cup, german):
    refusal = _refusal(b'name;club\nAnna;"KIT\n', cup)
    (line,) = refusal.errors
    assert line.code == "csv_syntax"
    assert "Anführungszeichen wird in dieser Zeile geöffnet, aber nicht geschlossen" in (
        line.message_in("de"))
    assert "unexpected end of data" not in line.message_in("de")
    assert "is not closed on it" in line.message_in("en")


def test_restore_the_revoked_link_only_once_a_link_was_revoked(client):
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament) for _ in range(4)]
    _round, (table,) = make_round(tournament, 1, [players], status="seated")
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    page = lambda: client.get("/manage/ka/rounds/1/bankers/").content.decode()  # noqa: E731
    assert 'data-action="restore-link"' not in page()  # no link was ever issued
    banker_links.issue_link(table=table, banker=UserFactory())
    assert 'data-action="restore-link"' not in page()  # a live link
    banker_links.revoke_link(table=table)
    assert 'data-action="restore-link"' in page()


def test_the_alternates_refusals_say_sie(german):
    with translation.override("de"):
        for message in ("Please choose a player and a rank from 1.",
                        "Please choose the player who did not turn up."):
            german_text = translation.gettext(message)
            assert german_text.startswith("Bitte ") and "Wähle" not in german_text
