"""Every printed document of the 36-player demo, read back with poppler's ``pdftotext`` and the
QR codes decoded with ``zbarimg`` (Debian ``poppler-utils`` and ``zbar-tools``).

The demo is built and every document rendered once for the module, inside a transaction that
is rolled back; the tests then read the PDFs.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from catalogues import write_mo
from django.conf import settings
from django.test import override_settings
from pdfs import BASE, pages, plain, qr_codes, rendered, text, tool

from demo.build import build_demo
from printing import documents as printing
from referee import engine_cache
from referee.models import Game
from tournament import banker_links
from tournament.models import BankerLink, Player, Seat
from tournament.rounds.services import revoke_link

pytestmark = pytest.mark.django_db

UMLAUT_DEEDS = ("Schlossallee", "Südbahnhof", "Münchner Straße", "Elektrizitätswerk",
                "Chausseestraße", "Badstraße", "Turmstraße", "Goethestraße", "Hafenstraße")
ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def glossary_catalogue(folder: Path):
    """German from ``locale/glossary-de-print.json`` in a catalogue placed before the project's,
    as it will be once ``make messages`` merged it (the .po files are not ours to edit)."""
    glossary = json.loads((ROOT / "locale" / "glossary-de-print.json").read_text("utf-8"))
    write_mo(folder / "de" / "LC_MESSAGES" / "django.mo", glossary)
    with override_settings(LOCALE_PATHS=[folder, *settings.LOCALE_PATHS]):
        yield


@contextmanager
def own_cache():
    """On Redis, keys of our own (the per-test isolation does not reach module fixtures)."""
    if not settings.REDIS_URL:
        yield
        return
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:12]}"
    with override_settings(CACHES=caches):
        yield


@dataclass
class TableFacts:
    number: int
    names: list[str]
    code: str
    public_url: str
    status: str
    result: str | None
    link: tuple[int, str] = (0, "")  # the live banker link: table id and nonce


@dataclass
class Rendered:
    pdfs: dict[tuple[str, str], bytes] = field(default_factory=dict)
    tables: list[TableFacts] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    links_before: set[str] = field(default_factory=set)
    links_after_first: set[str] = field(default_factory=set)
    links_after_second: set[str] = field(default_factory=set)
    stream_chunks: int = 0
    placements: dict[int, list[tuple[str, int, int]]] = field(default_factory=dict)
    top: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory) -> Rendered:
    from django.db import transaction

    done = Rendered()
    locale = tmp_path_factory.mktemp("locale")
    with (django_db_blocker.unblock(), own_cache(), glossary_catalogue(locale),
          transaction.atomic()):
        tournament = build_demo(players=36).tournament
        round_ = tournament.rounds.get(number=1)
        revoke_link(table=round_.tables.get(number=1))  # table 1 has no live link now
        done.links_before = set(
            BankerLink.objects.filter(revoked_at__isnull=True).values_list("nonce", flat=True))
        for document in printing.DOCUMENTS:
            for lang in ("de", "en"):
                done.pdfs[(document, lang)] = rendered(document, tournament, round_, lang)
                if document == "cards" and lang == "de":
                    done.links_after_first = set(
                        BankerLink.objects.filter(revoked_at__isnull=True)
                        .values_list("nonce", flat=True))
        done.links_after_second = set(
            BankerLink.objects.filter(revoked_at__isnull=True).values_list("nonce", flat=True))
        done.pdfs[("certificates-top1", "de")] = rendered("certificates", tournament, round_,
                                                          top=1)
        done.stream_chunks = sum(1 for _chunk in printing.stream(
            "scoresheets", tournament=tournament, round_=round_, base_url=BASE))
        for table in round_.tables.order_by("number"):
            game = Game.objects.get(table=table)
            seats = Seat.objects.filter(table=table).select_related("player__club")
            result = getattr(game, "result", None)
            link = banker_links.live_link(table)
            done.tables.append(TableFacts(
                number=table.number,
                names=[seat.player.public_name for seat in seats.order_by("position")],
                code=game.confirmation_code,
                public_url=f"{BASE}/t/{tournament.slug}/rounds/1/tables/{table.number}/",
                status=game.status,
                result=result.status if result else None,
                link=(link.table_id, link.nonce),
            ))
            if result is not None:
                done.placements[table.number] = [
                    (p.player.public_name, p.place, p.net_worth)
                    for p in result.placements.select_related("player__club")
                ]
        done.players = list(Player.objects.filter(tournament=tournament).select_related("club"))
        from printing import standings

        ctx = printing.context_for("certificates", tournament=tournament, round_=round_)
        done.top = [line.full_name for line in standings.winners(ctx)]
        games = list(Game.objects.values_list("pk", flat=True))
        transaction.set_rollback(True)
    for game_id in games:
        engine_cache.forget(game_id)
    return done


# --- score sheets -------------------------------------------------------------------------------


def test_one_score_sheet_per_table_with_its_players_code_and_deeds(demo):
    pdf = demo.pdfs[("scoresheets", "de")]
    assert pages(pdf) == len(demo.tables) == 6
    for page, table in enumerate(demo.tables, start=1):
        sheet = text(pdf, page)
        assert f"Tisch {table.number}" in sheet
        # the code is on the players' slip, not where the banker alone could read it
        assert re.fullmatch(r"\d{4}", table.code)
        assert not re.search(rf"(?<![\d.]){table.code}(?![\d.])", sheet), table.code
        assert "Code-Zettel" in sheet
        for name in table.names:
            assert name in sheet, (table.number, name)
        for deed in UMLAUT_DEEDS:
            assert deed in sheet, deed
        assert "banker" in sheet  # the banker's name (demo: banker1 …)
        assert "45 min" in sheet and "90 min" in sheet  # Karlsruhe: auction stop, time limit


def test_code_slips_carry_each_tables_code_for_its_players(demo):
    assert printing.DOCUMENTS["slips"].private
    for lang, words in (("de", "Bestätigungscode für die Spieler"),
                        ("en", "Confirmation code for the players")):
        pdf = demo.pdfs[("slips", lang)]
        assert pages(pdf) == 1  # six tables, eight slips to a page
        body = text(pdf)
        assert body.count(words) == len(demo.tables)
        for table in demo.tables:
            assert table.code in body


def test_score_sheet_qr_codes_open_each_tables_public_page(demo, tmp_path):
    pdf = demo.pdfs[("scoresheets", "de")]
    for page, table in enumerate(demo.tables, start=1):
        assert qr_codes(pdf, page, tmp_path) == [table.public_url]


ENGLISH_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def test_finished_games_print_pre_filled_and_the_others_blank(demo):
    pdf = demo.pdfs[("scoresheets", "en")]
    finished = [t for t in demo.tables if t.status == "finished"]
    assert finished and any(t.status != "finished" for t in demo.tables)
    for page, table in enumerate(demo.tables, start=1):
        sheet = text(pdf, page, layout=True)
        if table.status != "finished":
            assert "Pre-filled" not in sheet
            continue
        assert "Pre-filled from the game record" in sheet
        if table.result == "confirmed":
            assert "result confirmed" in sheet
        for name, place, worth in demo.placements.get(table.number, []):
            row = next(line for line in sheet.splitlines() if name in line)
            assert f"{place}{ENGLISH_SUFFIX.get(place, 'th')}" in row  # an English sheet: 1st
            if worth:
                assert f"{worth:,}" in row, (name, worth, row)  # English grouping: 3,260


def test_english_and_german_labels(demo):
    english = text(demo.pdfs[("scoresheets", "en")], 1)
    for label in ("Score sheet", "Confirmation code", "Round 1 · Table 1", "Auction stop",
                  "Signature of the banker", "Mortgaged", "Stations", "Utilities"):
        assert label in english
    german = text(demo.pdfs[("scoresheets", "de")], 1)
    for label in ("Spielbericht", "Bestätigungscode", "Runde 1 · Tisch 1", "Auktionsstopp",
                  "Unterschrift Bankhalter/in", "Hypothek", "Bahnhöfe", "Werke", "Grün"):
        assert label in german
    assert "Score sheet" not in german


def test_the_font_is_embedded_and_no_base14_font_is_used(demo):
    source = demo.pdfs[("scoresheets", "de")]
    fonts = subprocess.run([tool("pdffonts"), "-"], input=source, capture_output=True,
                           check=True).stdout.decode()
    rows = [line for line in fonts.splitlines()[2:] if line.strip()]
    assert rows and all("DejaVuSans" in row for row in rows), fonts
    assert all(" yes " in row for row in rows)  # embedded (subset)
    assert "Helvetica" not in fonts


def test_streamed_in_chunks_page_by_page(demo):
    assert demo.stream_chunks >= len(demo.tables)


# --- seating, cards, standings, certificates ------------------------------------------------------


def test_seating_by_table_lists_every_public_name(demo):
    pdf = demo.pdfs[("seating", "de")]
    assert pages(pdf) == 1
    body = plain(text(pdf))
    for table in demo.tables:
        assert plain(f"Tisch {table.number}") in body
        for name in table.names:
            assert plain(name) in body


def test_seating_by_name_is_alphabetical_with_table_and_seat(demo):
    """The entrance list: by last name (DIN 5007), "Müller, Anna" where the name is public."""
    from tournament import names as german

    pdf = demo.pdfs[("seating-names", "en")]
    assert pages(pdf) == 1
    layout = text(pdf, layout=True)
    seated = {name: (table.number, seat) for table in demo.tables
              for seat, name in enumerate(table.names, start=1)}
    shown = {p.public_name: german.last_name_first(p.name) if p.public_name_consent
             else p.public_name for p in demo.players}
    real = {p.public_name: p.name for p in demo.players}
    for name, (number, seat) in seated.items():
        label = shown[name]
        line = next(line for line in layout.splitlines() if label in line)
        after = line[line.index(label) + len(label):].split()
        numbers = [token for token in after if token.isdigit()]
        assert numbers[:2] == [str(number), str(seat)], (label, line)
    # two columns: the left one, then the right one, read by last name
    order = sorted(seated, key=lambda name: german.last_name_key(real[name]))
    body = text(pdf, 1, crop=(0, 0, 297, 842)) + text(pdf, 1, crop=(297, 0, 298, 842))
    positions = [body.index(shown[name]) for name in order]
    assert positions == sorted(positions)


def test_public_documents_never_show_an_unconsented_full_name(demo):
    hidden = [p.name for p in demo.players if not p.public_name_consent]
    assert hidden
    for document in ("scoresheets", "seating", "seating-names", "standings"):
        body = text(demo.pdfs[(document, "de")])
        for name in hidden:
            assert name not in body, (document, name)


def test_table_cards_carry_the_live_banker_links(demo, tmp_path):
    pdf = demo.pdfs[("cards", "de")]
    assert pages(pdf) == len(demo.tables)
    for page, table in enumerate(demo.tables, start=1):
        card = text(pdf, page)
        assert re.search(rf"^{table.number}$", card, re.MULTILINE)
        [url] = qr_codes(pdf, page, tmp_path)
        # the token carries a time stamp: compare what it names, not its text
        assert url.startswith(f"{BASE}/b/") and url.endswith("/")
        token = url.removeprefix(f"{BASE}/b/").removesuffix("/")
        assert banker_links.read_token(token) == table.link
    # table 1 had no live link: printing issued one; the others kept theirs; printing again
    # issued nothing (a new link would make the cards printed before useless)
    assert len(demo.links_before) == len(demo.tables) - 1
    assert demo.links_before < demo.links_after_first
    assert len(demo.links_after_first) == len(demo.tables)
    assert demo.links_after_second == demo.links_after_first


def test_standings_after_the_round_in_public_names(demo):
    pdf = demo.pdfs[("standings", "de")]
    assert pages(pdf) == 1
    body = plain(text(pdf))
    assert plain("Rangliste nach Runde 1") in body
    for player in demo.players:
        assert plain(player.public_name) in body
    confirmed = next(t for t in demo.tables if t.result == "confirmed")
    winner = next(name for name, place, _worth in demo.placements[confirmed.number] if place == 1)
    ranks = re.findall(r"^\s*1\.\s+(\S.*)$", text(pdf, layout=True), re.MULTILINE)
    first = next(line for line in ranks if "Monopoly" not in line)
    assert winner in first
    assert "Standings after round 1" in text(demo.pdfs[("standings", "en")])


def test_certificates_for_the_top_three_and_for_the_winner_alone(demo):
    pdf = demo.pdfs[("certificates", "en")]
    assert len(demo.top) == 3
    assert pages(pdf) == 3
    for page, name in enumerate(demo.top, start=1):
        body = text(pdf, page)
        assert name in body and f"Place {page}" in body
    single = demo.pdfs[("certificates-top1", "de")]
    assert pages(single) == 1 and demo.top[0] in text(single)


@pytest.mark.parametrize("document", list(printing.DOCUMENTS))
def test_every_document_in_both_languages(demo, document):
    for lang in ("de", "en"):
        pdf = demo.pdfs[(document, lang)]
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
        assert pages(pdf) >= 1
        body = text(pdf)
        assert "1. Monopoly Stadtmeisterschaft Karlsruhe" in body


def test_a_paper_result_prints_marked_from_the_paper_sheet():
    from factories import seated_table

    from referee import paper

    table = seated_table(players=4)
    seats = list(table.seats.order_by("position"))
    lines = [paper.PaperLine(player_id=seat.player_id, net_worth=3000 - 100 * index)
             for index, seat in enumerate(seats)]
    paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit", ended_at=None,
                             by=None, note="Tablet aus")
    sheet = text(rendered("scoresheets", table.round.tournament, table.round, lang="en"),
                 layout=True)
    assert "Pre-filled from the paper sheet" in sheet and "game record" not in sheet
    assert "3,000" in sheet


def test_a_point_deduction_is_marked_on_the_printed_standings():
    from factories import seated_table
    from gameplay import play

    from tournament import incidents

    table = seated_table(players=4)
    seats = [seat.player for seat in table.seats.order_by("position")]
    play(table, {player: 3000 - 100 * index for index, player in enumerate(seats)})
    incidents.record_incident(player=seats[0], level="deduction", points=2,
                              note="Mietabsprache", by=None)
    body = text(rendered("standings", table.round.tournament, table.round, lang="en"), layout=True)
    row = next(line for line in body.splitlines() if seats[0].public_name in line)
    assert "(−2)" in row
