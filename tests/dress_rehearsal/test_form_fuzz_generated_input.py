"""Generated input (hypothesis): any JSON to the console's dry run, any text as a player's name;
never a server error, and a name is either stored or refused with a message.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import hypothesis
import pytest
from django.db import transaction
from django.utils import timezone
from factories import OrganizerFactory, PlayerFactory, TournamentFactory
from gameplay import make_round
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from referee import services as referee
from tournament.models import Tournament

from ._form_catalogue import _organizer, _player
from ._form_checks import _shows_error

pytestmark = pytest.mark.usefixtures("fast_password_hashing")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["type", "player", "deed", "amount", "to", "from",
                                       "price", "winner", "deeds", "index", "x"]) | st.text(
                                           max_size=5), children, max_size=5),
    max_leaves=12,
)


@hypothesis.settings(max_examples=60, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
@given(events=JSON)
def test_console_check_survives_any_json(db, events):
    """The console's dry run feeds whatever JSON the page sends to the rules engine."""
    with transaction.atomic():
        world = _small_world()
        client = _organizer(world)
        answer = client.post(f"/banker/table/{world.tables[0].pk}/check/",
                             json.dumps({"events": events}), content_type="application/json")
        transaction.set_rollback(True)
    assert answer.status_code < 500


@hypothesis.settings(max_examples=60, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
@given(name=st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=300))
def test_any_player_name_is_stored_or_refused_with_a_message(db, name):
    with transaction.atomic():
        world = _small_world()
        client = _organizer(world)
        count = world.open.players.count()
        answer = client.post("/manage/fuzz-open/players/add/", {**_player(world), "name": name})
        added = world.open.players.count() - count
        transaction.set_rollback(True)
    assert answer.status_code in (200, 302), answer.status_code
    if answer.status_code == 302:
        assert added == 1
    else:
        assert added == 0 and _shows_error(answer.content.decode())


def _small_world() -> SimpleNamespace:
    """A lighter world for the hypothesis tests (built once per example, then rolled back)."""
    running = TournamentFactory(slug="fuzz", status=Tournament.Status.RUNNING, table_size=4)
    players = [PlayerFactory(tournament=running, name=f"Spieler {n}") for n in range(4)]
    _round, tables = make_round(running, 1, [players])
    game = referee.ensure_game(table=tables[0])
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=timezone.now())
    open_ = TournamentFactory(slug="fuzz-open", status=Tournament.Status.REGISTRATION)
    organizer = OrganizerFactory(username="fuzz-organizer", password=None)
    return SimpleNamespace(running=running, open=open_, tables=tables, players=players,
                           organizer=organizer)

