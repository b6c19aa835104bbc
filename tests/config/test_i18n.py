"""German by default, English on request; catalogues complete and compiled."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.django_db
def test_german_is_the_default(client):
    body = client.get("/").content.decode()
    assert '<html lang="de">' in body
    assert "Anmelden" in body


@pytest.mark.django_db
def test_language_switch_in_the_header_changes_to_english_and_back(client):
    body = client.get("/").content.decode()
    assert 'name="language" value="en"' in body
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = client.get("/").content.decode()
    assert '<html lang="en">' in body
    assert "Log in" in body and "Anmelden" not in body
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert "Anmelden" in client.get("/").content.decode()


def _po_entries(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    entries = {}
    pattern = r'msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)'
    for raw_id, raw_str in re.findall(pattern, text):
        msgid = "".join(re.findall(r'"(.*)"', raw_id))
        if msgid:
            entries[msgid] = "".join(re.findall(r'"(.*)"', raw_str))
    return entries


def test_every_german_string_is_translated_and_compiled():
    entries = _po_entries(LOCALE / "de" / "LC_MESSAGES" / "django.po")
    assert entries, "the German catalogue is empty"
    untranslated = [msgid for msgid, msgstr in entries.items() if not msgstr]
    assert untranslated == []
    with open(LOCALE / "de" / "LC_MESSAGES" / "django.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = [
        msgid
        for msgid in entries
        if "\\" not in msgid and compiled.gettext(msgid) == msgid and entries[msgid] != msgid
    ]
    assert stale == [], "run `make messages`: the .mo file is older than the .po file"


def test_english_catalogue_is_committed_and_compiled():
    assert (LOCALE / "en" / "LC_MESSAGES" / "django.po").exists()
    assert (LOCALE / "en" / "LC_MESSAGES" / "django.mo").exists()
