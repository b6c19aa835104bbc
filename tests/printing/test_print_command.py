"""``manage.py scoresheets``: a PDF per document, exit status 0; any refusal one line on stderr,
exit status 2 and no file left behind."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from commands import manage
from factories import seated_table
from require import missing

from printing import documents as printing
from referee.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return seated_table(players=6, tournament_kwargs={"slug": "ka", "venue": "Durlach"})


def pdf_pages(path) -> int:
    if shutil.which("pdfinfo") is None:
        missing("needs pdfinfo (apt-get install poppler-utils)")
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.MULTILINE)[1])


def pdf_text(path) -> str:
    if shutil.which("pdftotext") is None:
        missing("needs pdftotext (apt-get install poppler-utils)")
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_score_sheets_of_a_round(table, tmp_path, capsys):
    out = tmp_path / "sheets.pdf"
    assert manage("scoresheets", "ka", "--round", "1", "-o", str(out)) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == f"{out}: 1 page, {out.stat().st_size} bytes"
    assert captured.err == ""
    assert pdf_pages(out) == 1
    body = pdf_text(out)
    for name in ("Anna Test", "Ben Test", "Carla Test", "Dieter Test", "Eva Test", "Frank Test"):
        assert name in body
    # A print only reads: the game (and its code, printed on the slip) comes with the lock.
    assert not Game.objects.filter(table=table).exists()
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left


@pytest.mark.parametrize("document", list(printing.DOCUMENTS))
def test_every_document(table, tmp_path, capsys, document):
    out = tmp_path / f"{document}.pdf"
    assert manage("scoresheets", "ka", "--round", "1", "--document", document, "-o", str(out)) == 0
    assert pdf_pages(out) >= 1
    assert out.read_bytes().startswith(b"%PDF-")


def test_english_and_the_current_round_by_default(table, tmp_path):
    out = tmp_path / "en.pdf"
    assert manage("scoresheets", "ka", "--lang", "en", "-o", str(out)) == 0
    assert "Round 1 · Table 1" in pdf_text(out)


def test_pdf_to_stdout(table, capfdbinary):
    assert manage("scoresheets", "ka", "--round", "1", "--document", "seating", "-o", "-") == 0
    assert capfdbinary.readouterr().out.startswith(b"%PDF-")


def test_base_url_goes_into_the_qr_codes(table, tmp_path):
    if shutil.which("zbarimg") is None or shutil.which("pdftoppm") is None:
        missing("needs zbarimg and pdftoppm (apt-get install zbar-tools poppler-utils)")
    out = tmp_path / "qr.pdf"
    assert manage("scoresheets", "ka", "--round", "1", "--base-url", "https://mcs.example.org/",
               "-o", str(out)) == 0
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(out),
                    str(tmp_path / "page")], check=True)
    found = subprocess.run(["zbarimg", "-q", "--raw", str(tmp_path / "page.png")],
                           capture_output=True, text=True)
    assert found.stdout.split() == ["https://mcs.example.org/t/ka/rounds/1/tables/1/"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("nope", "--round", "1"), "no tournament 'nope'"),
        (("ka", "--round", "7"), "ka has no round 7"),
        (("ka", "--round", "x"), "usage: argument --round: invalid int value: 'x'"),
        (("ka", "--document", "menu"), "usage: argument --document: invalid choice"),
        (("ka", "--lang", "fr"), "usage: argument --lang: invalid choice"),
        (("ka", "--document", "certificates", "--top", "0"), "top must be at least 1"),
    ],
)
def test_refusals_are_one_line_and_exit_2(table, tmp_path, capsys, argv, message):
    out = tmp_path / "x.pdf"
    assert manage("scoresheets", *argv, "-o", str(out)) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("scoresheets: ")
    assert message in lines[0]
    assert captured.out == ""
    assert not out.exists()


def test_missing_output_and_unwritable_folder(table, tmp_path, capsys):
    assert manage("scoresheets", "ka") == 2
    assert "the following arguments are required: -o/--output" in capsys.readouterr().err
    assert manage("scoresheets", "ka", "-o", str(tmp_path / "missing" / "x.pdf")) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "cannot write" in err[0]


def test_a_tournament_without_rounds(tmp_path, capsys):
    from factories import TournamentFactory

    TournamentFactory(slug="empty")
    assert manage("scoresheets", "empty", "-o", str(tmp_path / "x.pdf")) == 2
    assert "no seated round yet" in capsys.readouterr().err
    # standings and certificates need no round
    assert manage("scoresheets", "empty", "--document", "standings", "-o",
               str(tmp_path / "s.pdf")) == 0
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF-")


def test_render_refuses_unknown_input(table):
    tournament = table.round.tournament
    with pytest.raises(printing.PrintError):
        printing.render("menu", io.BytesIO(), tournament=tournament, round_=table.round)
    with pytest.raises(printing.PrintError):
        printing.render("scoresheets", io.BytesIO(), tournament=tournament, round_=table.round,
                        lang="fr")
    with pytest.raises(printing.PrintError):
        printing.render("scoresheets", io.BytesIO(), tournament=tournament, round_=None)
