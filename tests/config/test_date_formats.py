"""One date style per language (issue 28): English pages mixed "12/05/2026", "12:30 a.m." and
"Dec. 12, 2026" (Django's US defaults); config/formats gives day-first, 24-hour forms."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.template import Context, Template
from django.utils import formats, translation

MOMENT = dt.datetime(2026, 12, 5, 0, 30)  # half past midnight: "12:30 a.m." in US style
TEMPLATE = Template(
    '{{ m|date:"DATE_FORMAT" }}|{{ m|date:"SHORT_DATE_FORMAT" }}|{{ m|date:"DATETIME_FORMAT" }}|'
    '{{ m|date:"SHORT_DATETIME_FORMAT" }}|{{ m|time:"TIME_FORMAT" }}|{{ m }}'
)


def _render(language: str) -> list[str]:
    with translation.override(language):
        return TEMPLATE.render(Context({"m": MOMENT})).split("|")


def test_english_dates_have_one_style():
    assert _render("en") == [
        "5 December 2026", "5 Dec 2026", "5 December 2026, 00:30", "5 Dec 2026, 00:30", "00:30",
        "5 December 2026, 00:30",
    ]


def test_german_dates_have_one_style():
    assert _render("de") == [
        "5. Dezember 2026", "05.12.2026", "5. Dezember 2026, 00:30", "05.12.2026, 00:30",
        "00:30", "5. Dezember 2026, 00:30",
    ]


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_us_forms_in_either_language(language):
    shown = " ".join(_render(language))
    assert not re.search(r"[ap]\.m\.|\d/\d|[A-Z][a-z]{2}\. \d", shown), shown
    with translation.override(language):
        assert formats.get_format("FIRST_DAY_OF_WEEK") == 1
