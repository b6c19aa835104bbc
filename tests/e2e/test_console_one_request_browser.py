"""One request per banker action (issue 29): the console posts the event and redraws from the
post's answer, which carries the fragment; it no longer fetches ``/main/`` after every send."""

from __future__ import annotations

import pytest
from browsing import PHONE, login_as
from consoles import keys
from factories import UserFactory, seated_table

from referee import engine_cache, services
from referee.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEALS = [["badstrasse", "turmstrasse"], ["parkstrasse", "schlossallee"],
         ["seestrasse", "hafenstrasse"], ["suedbahnhof", "muenchner-strasse"],
         ["chausseestrasse", "elisenstrasse"], ["poststrasse", "westbahnhof"]]


def test_an_action_is_one_request_and_the_console_is_redrawn_from_its_answer(browser,
                                                                             live_server):
    engine_cache.clear()  # primary keys are reused after an earlier test's rollback
    banker = UserFactory(username="one-trip-banker")
    table = seated_table(banker=banker)
    players = keys(table)
    carla = players[2]
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    for player, deeds in zip(players, DEALS, strict=True):
        for deed in deeds:
            services.post_event(game_id=game.pk, author=None,
                                event={"type": "deal", "player": player, "deed": deed})
    errors: list[str] = []
    # No service worker: on its first visit it fetches the page and its files once more.
    page = browser.new_context(base_url=live_server.url, locale="de-DE", viewport=PHONE,
                               service_workers="block").new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    login_as(page.context, live_server, banker)
    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector('#console-main[data-mode="play"][data-seq="13"][data-ready]',
                           state="attached")

    page.locator(f'[data-select-player="{carla}"]').click()
    page.locator(f'[data-open="sheet-jail"][data-player="{carla}"]').click()
    sheet = page.locator("#sheet-jail")
    sheet.locator('.answer [data-ok="1"]').wait_for()  # the engine's answer before confirming

    requests: list[tuple[str, str]] = []
    page.on("request", lambda request: requests.append((request.method, request.url)))
    sheet.locator(".btn-confirm").click()
    page.wait_for_selector('#console-main[data-seq="14"][data-ready]', state="attached")
    page.wait_for_function("() => MCS.bankerConsole.queue().length === 0")
    page.wait_for_timeout(500)  # a late request would show up here

    # The state poll (every second) is not part of the action: it asks for no fragment then.
    action = [(method, url) for method, url in requests if not url.endswith("/state")]
    assert len(action) == 1, action
    method, url = action[0]
    assert method == "POST"
    assert url.startswith(f"{live_server.url}/api/v1/tables/{table.pk}/events?fragment=main")
    assert f"player={carla}" in url
    # Redrawn from the answer: Carla is in jail (her panel offers the way out), still shown.
    release = page.locator(f'[data-open="sheet-release"][data-player="{carla}"]')
    release.wait_for()
    assert release.is_visible()
    assert page.locator(f'[data-open="sheet-jail"][data-player="{carla}"]').count() == 0
    assert Game.objects.get(table=table).event_count == 14
    assert errors == []
