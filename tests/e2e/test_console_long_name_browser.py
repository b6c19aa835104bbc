"""Issue 28: a long tournament name widened the banker's console to 1,652 px at 360 px. A name
of the longest kind the form takes — 200 characters, one word without a space or a hyphen —
wraps on the console (its title breaks anywhere since issue 24), its start sheet and the
banker's tables page (its headings break inside the word): no page scrolls sideways on a
360-px phone."""

from __future__ import annotations

import pytest
from browsing import PHONE, banker_phone, db
from factories import UserFactory, seated_table

from tournament.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: 200 characters (``Tournament.name``'s maximum), one word: no space nor hyphen to break at.
LONG_WORD = ("Monopolystadtmeisterschaftsendrundenqualifikationsturnier" * 4)[:200]


def page_width(page) -> int:
    return page.evaluate("() => Math.max(document.documentElement.scrollWidth, "
                         "document.body.scrollWidth)")


def test_a_long_tournament_name_never_widens_the_console(browser, live_server):
    assert len(LONG_WORD) == 200 and " " not in LONG_WORD
    assert Tournament._meta.get_field("name").max_length == 200
    banker = UserFactory(username="bank-long")
    table = db(seated_table, banker=banker, tournament_kwargs={"name": LONG_WORD,
                                                               "slug": "lang"})
    errors: list[str] = []
    phone = banker_phone(browser, live_server, banker, table, errors)
    phone.wait_for_function("(name) => document.body.textContent.includes(name)", arg=LONG_WORD)
    assert page_width(phone) <= PHONE["width"], phone.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .slice(0, 6).map((e) => e.tagName + '.' + e.className)""")
    phone.locator('[data-testid="start"]').click()
    phone.locator("#sheet-start .btn-confirm").wait_for()
    assert page_width(phone) <= PHONE["width"]
    phone.goto("/banker/")
    phone.wait_for_load_state("load")
    assert page_width(phone) <= PHONE["width"]
    assert errors == []
