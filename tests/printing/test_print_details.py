"""Details of the printouts a walk-through found (issue 28): what overlaps, what miscounts, what
a name in another script or with symbols becomes, where a sheet's QR code leads."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from catalogues import write_mo
from factories import PlayerFactory, TournamentFactory, seated_table
from gameplay import make_round, play
from pdfs import BASE, overlapping, qr_codes, rendered, text, words

from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LONG_NAME = "Internationale Offene Monopoly-Stadtmeisterschaft Karlsruhe-Durlach 2026"


@pytest.fixture(autouse=True)
def german_glossary(settings, tmp_path):
    """German from the print strings' glossary, as ``make messages`` will merge it."""
    glossary = json.loads((ROOT / "locale" / "glossary-de-print.json").read_text("utf-8"))
    write_mo(tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.mo", glossary)
    settings.LOCALE_PATHS = [str(tmp_path / "locale"), *settings.LOCALE_PATHS]


def test_a_code_slips_table_number_never_covers_the_tournament_name():
    table = seated_table(players=4, tournament_kwargs={"name": LONG_NAME})
    for lang in ("de", "en"):
        pdf = rendered("slips", table.round.tournament, table.round, lang=lang)
        boxes = words(pdf, 1)
        assert any(word in ("Tisch", "Table") for word, *_box in boxes)
        assert overlapping(boxes) == []
        assert "Internationale" in text(pdf)  # shortened to fit, not dropped


def test_a_champions_certificate_counts_every_game_the_final_included():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, finalists=4,
                                   preliminary_rounds=2, final_decides=True)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in "ABCD"]
    for number, kind in ((1, Round.Kind.PRELIMINARY), (2, Round.Kind.PRELIMINARY),
                         (3, Round.Kind.FINAL)):
        round_, [table] = make_round(tournament, number, [people], kind=kind)
        play(table, {player: 3000 - 100 * index for index, player in enumerate(people)})
        round_.status = Round.Status.COMPLETE
        round_.save()
    de = " ".join(text(rendered("certificates", tournament, top=1), 1).split())
    assert "Spieler A" in de
    assert "Gespielte Spiele: 3 (mit Finale)" in de and "2 Spielen" not in de
    en = " ".join(text(rendered("certificates", tournament, lang="en", top=1), 1).split())
    assert "Games played: 3 (final included)" in en


def test_a_certificate_without_a_deciding_final_counts_the_games():
    table = seated_table(players=4)
    people = [seat.player for seat in table.seats.order_by("position")]
    play(table, {player: 3000 - 100 * index for index, player in enumerate(people)})
    en = " ".join(text(rendered("certificates", table.round.tournament, lang="en", top=1),
                       1).split())
    assert "Games played: 1 ·" in en and "final included" not in en


def test_score_sheet_qr_codes_name_their_round(tmp_path):
    table = seated_table(players=4)
    tournament = table.round.tournament
    pdf = rendered("scoresheets", tournament, table.round)
    assert qr_codes(pdf, 1, tmp_path) == [f"{BASE}/t/{tournament.slug}/rounds/1/tables/1/"]


def test_names_with_emoji_and_in_arabic_print_what_the_font_can():
    table = seated_table(players=4)
    seats = list(table.seats.order_by("position").select_related("player"))
    for seat, name, consent in ((seats[0], "🎲 Wilma Wunder 🏆", True),
                                (seats[1], "🎲 Wim Wal 🏆", False),
                                (seats[2], "علي حسن", True),
                                (seats[3], "👨‍👩‍👧", True)):
        seat.player.name, seat.player.public_name_consent = name, consent
        seat.player.save()
    pdf = rendered("seating", table.round.tournament, table.round, lang="en")
    body = unicodedata.normalize("NFKC", text(pdf))
    assert "Wilma Wunder" in body  # the emoji left out, the name kept
    assert "W.W." in body and "🎲" not in body  # initials of letters only
    # drawn right to left with joined letters: poppler reads it back in reading order
    assert "علي حسن" in body
    assert "\ufecb\ufee0\ufef2" in text(pdf)  # ع ل ي in their initial, medial, final forms
    assert "?" in body  # a name of emoji alone is a placeholder, never nothing


def test_arabic_letters_join_and_read_right_to_left_on_the_line():
    from printing import glyphs

    # ع ل ي: initial, medial, final forms, drawn right to left (so stored reversed)
    assert glyphs.visual(glyphs.shape("علي")) == "\ufef2\ufee0\ufecb"
    assert glyphs.shape("لا") == "\ufefb"  # lam-alef is one ligature
    # a Latin club after the name stays where it is; the name's words swap places
    assert glyphs.visual("أب جد (KIT)") == "دج بأ (KIT)"
    assert glyphs.visual("Anna Müller") == "Anna Müller"
