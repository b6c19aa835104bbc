"""Test helpers for the banker's console: a table's player keys, a game dealt its deeds, and the
console's main panel and engine check as the browser asks for them (fixtures of a console test:
tests/referee/conftest.py)."""

from __future__ import annotations

import json

from referee import services
from tournament import banker_links


def keys(table):
    """The table's players' keys in seat order (as events name them)."""
    return [str(pk) for pk in table.seats.order_by("position").values_list("player_id", flat=True)]


def post_event(client, table, event, *, key=None, **fields):
    """The console's post of one event to the table's API (``key``: its Idempotency-Key;
    ``fields``: more of the body, ``expected_seq``, ``waited_ms``; one left None is not sent);
    the response."""
    body = {"event": event, **{name: value for name, value in fields.items() if value is not None}}
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/v1/tables/{table.pk}/events", body,
                       content_type="application/json", **headers)


def open_link(client, table):
    """A banker's phone opens the table's private link (as in the hall): from now on the
    client's session runs the table. The link, to try it again."""
    link = banker_links.issue_link(table=table)
    assert client.get(banker_links.link_path(link)).status_code == 302
    return link


def play_events(game, *events):
    """Post events through the service at the (test-driven) current time."""
    for event in events:
        services.post_event(game_id=game.pk, event=event, author=None)
    game.refresh_from_db()
    return game


def dealt_game(game, table):
    """The game started and two deeds dealt to each of six players (Anna: Badstraße and
    Turmstraße, a complete group)."""
    anna, ben, carla, dieter, eva, frank = keys(table)
    deals = {
        anna: ["badstrasse", "turmstrasse"], ben: ["parkstrasse", "schlossallee"],
        carla: ["seestrasse", "hafenstrasse"], dieter: ["neue-strasse", "suedbahnhof"],
        eva: ["chausseestrasse", "elisenstrasse"], frank: ["poststrasse", "westbahnhof"],
    }
    events = [{"type": "start"}]
    for player, deeds in deals.items():
        events += [{"type": "deal", "player": player, "deed": d} for d in deeds]
    return play_events(game, *events)


def main(client, table, **params):
    """The console's main panel (``player=`` opens one player's panel)."""
    return client.get(f"/banker/table/{table.pk}/main/", params)


def check(client, table, events, **headers):
    """The engine's answer to ``events`` before they are sent (nothing is stored)."""
    return client.post(
        f"/banker/table/{table.pk}/check/", json.dumps({"events": events}),
        content_type="application/json", **headers,
    )


def ended_table():
    """Dealt, then Ben bankrupt to Anna and Carla to the bank: the game is over, not counted;
    its banker is ``bank-count``."""
    from factories import UserFactory, seated_table

    table = seated_table(banker=UserFactory(username="bank-count"))
    game = services.ensure_game(table=table)
    anna, ben, carla, *_ = keys(table)
    dealt_game(game, table)
    play_events(game, {"type": "bankrupt", "player": ben, "creditor": anna},
                {"type": "bankrupt", "player": carla, "creditor": "bank"})
    return table


def result_revision(table) -> int:
    """The revision of the table's result as its console and desk pages show it: every form
    that writes the result carries it (``referee.results.check_revision``)."""
    from referee.models import Game
    from referee.results import revision_of

    return revision_of(Game.objects.only("pk").get(table=table).pk)
