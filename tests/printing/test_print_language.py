"""PDFs in the reader's language (issue 28): the print page's main link gives the reader's
language, the other language beside it; each private document says what secret it holds (the
table cards links, the others codes)."""

from __future__ import annotations

import re

import pytest
from pdfs import body, text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]


def _section(page: str, key: str) -> str:
    return re.search(rf'<section class="card" data-document="{key}">.*?</section>', page,
                     re.S).group(0)


def test_the_main_link_gives_the_readers_language(organizer, table):
    english = organizer.get("/manage/ka/print/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    seating = _section(english, "seating-names")
    assert re.search(r'class="button" href="/manage/ka/print/1/seating-names.pdf" '
                     r'data-lang="en">Download<', seating)
    assert 'href="/manage/ka/print/1/seating-names.pdf?lang=de" data-lang="de">German<' in seating
    assert "(German)" not in english
    german = organizer.get("/manage/ka/print/1/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'href="/manage/ka/print/1/seating-names.pdf?lang=en" data-lang="en">Englisch<' in (
        _section(german, "seating-names"))
    # the main link itself (no ?lang=) follows the reader
    from_english = organizer.get("/manage/ka/print/1/seating-names.pdf",
                                 HTTP_ACCEPT_LANGUAGE="en")
    assert from_english["Content-Disposition"].endswith('-seating-names-en.pdf"')
    from_german = organizer.get("/manage/ka/print/1/seating-names.pdf", HTTP_ACCEPT_LANGUAGE="de")
    assert from_german["Content-Disposition"].endswith('ka-round-1-seating-names.pdf"')


def test_the_player_card_follows_the_reader(organizer, table):
    player = table.seats.first().player
    url = f"/manage/ka/print/players/{player.pk}/card.pdf"
    english = text(body(organizer.get(url, HTTP_ACCEPT_LANGUAGE="en")))
    german = text(body(organizer.get(url, HTTP_ACCEPT_LANGUAGE="de")))
    assert english != german
    assert text(body(organizer.get(url + "?lang=de", HTTP_ACCEPT_LANGUAGE="en"))) == german


def test_private_documents_name_the_secret_they_hold(organizer, table):
    page = organizer.get("/manage/ka/print/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    notes = {key: re.search(r'<p class="private">([^<]+)</p>', _section(page, key)).group(1)
             for key in ("cards", "slips", "player-cards", "seating-names-staff")}
    assert "private links" in notes["cards"]
    for key in ("slips", "player-cards", "seating-names-staff"):
        assert "links" not in notes[key] and "code" in notes[key], (key, notes[key])
    assert 'class="private"' not in _section(page, "standings")
