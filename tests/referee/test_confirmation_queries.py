"""What one confirmation costs in queries (issue 29: the confirmation path).

The banker's console confirms a counted result with the players' code; after commit the
steps of ``settings.RESULT_STEPS`` follow (the game's version, the public tables, the
standings; on the laptop the copy). The tournament travels with the change
(no receiver looks it up again). The count is exact, Zulip style: a query added anywhere on
the path (the receivers and the standings recompute included) must say so here.
"""

from __future__ import annotations

import datetime as dt

import pytest
from auditlog.models import LogEntry
from consoles import open_link, result_revision
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import PlayerFactory, TournamentFactory, UserFactory
from gameplay import T0, make_round, play
from queries import counted, explain

from referee import services
from referee.models import GameResult
from scoring.models import StandingRow
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

#: session; the table with its round, tournament and game; the banker link still live; the
#: game locked, with its table, round and tournament (the round gate reads no more); the
#: result; the update; the audit entry (its "before" is the result as read under the lock);
#: the answer: the placements with their players' names (game and result as written).
#: After commit, the steps of ``settings.RESULT_STEPS`` — no lookup of the tournament: the
#: standings recompute (both versions locked, players with their deductions, results, both
#: scopes' rows read, the changed ones upserted in one statement, both versions saved).
QUERIES_PER_CONFIRMATION = 14  # 28 before issue 27; 15 before issue 29 (DELETE + INSERT)


@pytest.fixture(autouse=True)
def _warm_content_types():
    """A running server knows its content types (the audit entry's): not counted here."""
    ContentType.objects.get_for_model(GameResult)


@pytest.fixture
def hall(client, django_capture_on_commit_callbacks):
    """A hall of 36 players in six tables: five results confirmed, the banker's table counted
    and awaiting the code; the banker's phone opened the table's private link."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i:02d}") for i in range(36)]
    _, tables = make_round(tournament, 1, [players[i:i + 6] for i in range(0, 36, 6)])
    banker = UserFactory()
    table = tables[0]
    table.banker = banker
    table.save()
    with django_capture_on_commit_callbacks(execute=True):
        for other in tables[1:]:
            seated = [seat.player for seat in other.seats.order_by("position")]
            play(other, {p: 1000 + 100 * i for i, p in enumerate(seated)})
        seated = [seat.player for seat in table.seats.order_by("position")]
        game = play(table, {p: 500 + 50 * i for i, p in enumerate(seated)}, confirm=False,
                    author=banker)
    open_link(client, table)
    return client, table, game


def test_a_confirmation_costs_a_fixed_number_of_queries(
    hall, django_capture_on_commit_callbacks
):
    client, table, game = hall
    form = {"code": game.confirmation_code, "revision": result_revision(table)}
    with CaptureQueriesContext(connection) as ctx, django_capture_on_commit_callbacks(
        execute=True
    ):
        response = client.post(f"/banker/table/{table.pk}/confirm/", form)
    assert response.status_code == 200
    assert 'data-result="confirmed"' in response.content.decode()
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
    tournament = table.round.tournament
    assert StandingRow.objects.filter(tournament=tournament).count() == 72
    entry = LogEntry.objects.get_for_object(GameResult.objects.get(game=game)).latest("pk")
    assert entry.additional_data["tournament"] == tournament.pk
    assert entry.additional_data["action"] == "result.confirm"
    queries = counted(ctx.captured_queries)
    assert len(queries) == QUERIES_PER_CONFIRMATION, explain(queries)


#: session; the table with its round, tournament and game; the banker link still live; the
#: game locked with its table (read with round and tournament); the result so far; the result
#: inserted; its audit entry; the placements; the answer: the placements with their players'
#: names. After commit: the first standings of the tournament (its lot seed set and read
#: again, both versions looked for and made, players with deductions, results, rows read and
#: inserted for both scopes, versions saved).
QUERIES_PER_COUNT = 21


def test_a_count_costs_a_fixed_number_of_queries(client, django_capture_on_commit_callbacks):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")
    players = [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(6)]
    _, (table,) = make_round(tournament, 1, [players])
    table.banker = UserFactory()
    table.save()
    game = services.ensure_game(table=table)
    with django_capture_on_commit_callbacks(execute=True):
        services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
        services.enforce_deadlines(game_id=game.pk, now=T0 + dt.timedelta(minutes=91))
    game.refresh_from_db()
    open_link(client, table)
    form = {"seq": game.event_count, "revision": result_revision(table)}
    with CaptureQueriesContext(connection) as ctx, django_capture_on_commit_callbacks(
        execute=True
    ):
        response = client.post(f"/banker/table/{table.pk}/count/", form)
    assert 'data-result="counted"' in response.content.decode()
    result = GameResult.objects.get(game=game)
    assert result.placements.count() == 6
    entry = LogEntry.objects.get_for_object(result).latest("pk")
    assert entry.additional_data["tournament"] == tournament.pk
    assert StandingRow.objects.filter(tournament=tournament).count() == 12
    queries = counted(ctx.captured_queries)
    assert len(queries) == QUERIES_PER_COUNT, explain(queries)


def _stored_rows(tournament) -> dict[int, tuple]:
    """Every standings row of ``tournament`` by id, with all its stored values."""
    columns = [field.attname for field in StandingRow._meta.concrete_fields]
    return {values[0]: values for values in
            StandingRow.objects.filter(tournament=tournament).values_list(*columns)}


def test_a_confirmation_writes_only_the_standings_rows_it_changes(
    hall, django_capture_on_commit_callbacks, monkeypatch
):
    """Issue 29: places are derived on read, so confirming one table writes its six players'
    rows in both scopes and nothing else, in place (their ids kept), in one statement. A
    stored place shifted with every result above it: here 62 of the 72 rows were deleted and
    inserted again, ~870 of 2,000 with 1,000 players."""
    client, table, game = hall
    tournament = table.round.tournament
    before = _stored_rows(tournament)
    sent = []  # the rows handed to the database
    bulk_create = StandingRow.objects.bulk_create
    monkeypatch.setattr(StandingRow.objects, "bulk_create",
                        lambda rows, **kw: sent.extend(rows) or bulk_create(rows, **kw))
    form = {"code": game.confirmation_code, "revision": result_revision(table)}
    with CaptureQueriesContext(connection) as ctx, django_capture_on_commit_callbacks(
        execute=True
    ):
        client.post(f"/banker/table/{table.pk}/confirm/", form)
    after = _stored_rows(tournament)
    written = {pk for pk, values in after.items() if before.get(pk) != values}
    assert before.keys() == after.keys()  # none deleted, none new
    seated = set(table.seats.values_list("player_id", flat=True))
    player = [field.attname for field in StandingRow._meta.concrete_fields].index("player_id")
    assert sorted(after[pk][player] for pk in written) == sorted([*seated, *seated])
    writes = [q["sql"] for q in ctx.captured_queries
              if '"scoring_standingrow"' in q["sql"]
              and q["sql"].startswith(("INSERT", "UPDATE", "DELETE"))]
    assert len(writes) == 1, writes
    assert sorted(row.player_id for row in sent) == sorted([*seated, *seated])
