"""The console fragment with its kept parts (issue 29: the action sheets and the board are
kept while their inputs stay): a post that only moves cash shows the new cash and the same
sheets; a mortgage shows the deed to pay off at once (never the kept sheet of before)."""

from __future__ import annotations

import pytest
from consoles import keys, play_events
from django.conf import settings

# fixtures: tests/referee/conftest.py
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

TO_MORTGAGE = 'name="mortgage" value="badstrasse"'
TO_PAY_OFF = 'name="unmortgage" value="badstrasse"'


def sheets_of(html: str) -> str:
    return html[html.index('<dialog id="sheet-buy"'):]


def main(console, table, player) -> str:
    response = console.get(f"/banker/table/{table.pk}/main/", {"player": player})
    assert response.status_code == 200
    return response.content.decode()


def test_the_kept_sheets_follow_a_mortgage_and_the_cash_follows_every_post(console, table, game):
    anna, ben, *_ = keys(table)
    play_events(game, {"type": "start"}, {"type": "buy", "player": anna, "deed": "badstrasse"})
    bought = main(console, table, anna)
    assert TO_MORTGAGE in bought and TO_PAY_OFF not in bought

    play_events(game, {"type": "pay", "from": ben, "to": anna, "amount": 7})  # cash only
    paid = main(console, table, anna)
    assert TO_MORTGAGE in paid and TO_PAY_OFF not in paid
    assert sheets_of(paid) == sheets_of(bought)  # the same sheets …
    assert paid != bought  # … under the new cash and feed

    play_events(game, {"type": "mortgage", "deed": "badstrasse"})
    mortgaged = main(console, table, anna)
    assert TO_PAY_OFF in mortgaged and TO_MORTGAGE not in mortgaged

    console.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the console's language switch
    english = main(console, table, anna)
    assert TO_PAY_OFF in english and english != mortgaged
