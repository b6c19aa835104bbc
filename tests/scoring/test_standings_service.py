"""Stored standings from confirmed results; the public API is cached, conditional and private-safe."""

from __future__ import annotations

import pytest
from django.utils import translation
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play

from desk import errors, rounds
from referee.results import revision_of
from scoring.models import StandingRow
from scoring.standings import selectors, services
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")


@pytest.fixture
def players(tournament):
    return [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(12)]


def test_confirmed_results_become_stored_standings(django_capture_on_commit_callbacks,
                                                  tournament, players):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 2000 - 100 * i for i, p in enumerate(players[6:])})
    rows = selectors.placed_rows(tournament, scope="public")
    assert len(rows) == 12
    first = rows[0]
    assert first.points == 6 and first.rank == 1
    # two table winners share 6 points; summed net worth decides between them
    assert {rows[0].player, rows[1].player} == {players[5], players[6]}
    assert rows[0].player == players[6] and rows[1].decided_by == "net_worth_sum"


def test_unconfirmed_results_are_provisional(django_capture_on_commit_callbacks, tournament, players):
    _, tables = make_round(tournament, 1, [players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + i for i, p in enumerate(players[:6])}, confirm=False)
    row = StandingRow.objects.get(tournament=tournament, scope="public", player=players[5])
    assert row.points == 0
    assert row.rounds["1"]["final"] is False and row.rounds["1"]["place"] == 1


def test_recompute_is_skipped_when_nothing_changed(django_capture_on_commit_callbacks,
                                                  tournament, players):
    _, tables = make_round(tournament, 1, [players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + i for i, p in enumerate(players[:6])})
    assert services.recompute_standings(tournament_id=tournament.pk) is False


def test_held_results_stay_hidden_until_the_round_is_closed(django_capture_on_commit_callbacks,
                                                           tournament, players):
    tournament.results_public_immediately = False
    tournament.save()
    round_, tables = make_round(tournament, 1, [players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + i for i, p in enumerate(players[:6])})
    public = StandingRow.objects.get(tournament=tournament, scope="public", player=players[5])
    live = StandingRow.objects.get(tournament=tournament, scope="live", player=players[5])
    assert public.points == 0 and live.points == 6
    with django_capture_on_commit_callbacks(execute=True):
        rounds.close_round(round_=round_)
    public = StandingRow.objects.get(tournament=tournament, scope="public", player=players[5])
    assert public.points == 6


def test_a_round_closes_only_when_every_result_is_confirmed(django_capture_on_commit_callbacks,
                                                           tournament, players):
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], dict.fromkeys(players[:6], 1000))
    with pytest.raises(errors.RoundNotClosable) as refused:
        rounds.close_round(round_=round_)
    assert "2" in refused.value.message_in("en")


def test_a_round_not_running_is_refused_in_each_language_s_words(tournament, players):
    """The round's state is worded per language: the German refusal read "… ist Seated"."""
    round_, _ = make_round(tournament, 1, [players[:6], players[6:]])
    round_.status = Round.Status.SEATED
    round_.save()
    with translation.override("en"), pytest.raises(errors.RoundNotClosable) as refused:
        rounds.close_round(round_=round_)
    for language in ("de", "en"):
        with translation.override(language):
            state = str(Round.Status.SEATED.label)
        assert state in refused.value.message_in(language), language


def test_the_final_is_seated_from_the_qualifiers_and_crowns_the_winner(
    django_capture_on_commit_callbacks, tournament, players
):
    tournament.finalists = 6
    tournament.save()
    round_, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 1000 + 50 * i for i, p in enumerate(players[6:])})
        rounds.close_round(round_=round_)
    final = rounds.seat_final(tournament=tournament, seed=1, early=True)  # 1 of 3 rounds
    finalists = set(final.seats.values_list("player_id", flat=True))
    expected = {row.player_id for row in selectors.placed_rows(tournament, scope="live")[:6]}
    assert finalists == expected
    final.status = Round.Status.RUNNING
    final.save()
    table = final.tables.get()
    seated = [seat.player for seat in table.seats.order_by("position")]
    with django_capture_on_commit_callbacks(execute=True):
        play(table, {p: 500 + 10 * i for i, p in enumerate(seated)})
        rounds.close_round(round_=final)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == seated[-1]


def test_standings_api_is_cached_conditional_and_hides_unconsented_names(
    client, django_capture_on_commit_callbacks, django_assert_max_num_queries, tournament, players
):
    players[0].public_name_consent = False
    players[0].save()
    _, tables = make_round(tournament, 1, [players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + i for i, p in enumerate(players[:6])})
    response = client.get("/api/v1/tournaments/ka/standings")
    assert response.status_code == 200
    body = response.json()
    assert len(body["standings"]) == 12
    text = response.content.decode()
    assert players[0].name not in text and players[0].public_name in text
    assert "email" not in text
    with django_assert_max_num_queries(0):
        again = client.get("/api/v1/tournaments/ka/standings", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert "max-age" in response["Cache-Control"]


@pytest.mark.parametrize("count", [12, 36])
def test_standings_and_overview_queries_do_not_grow(client, django_assert_num_queries, count):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug=f"t{count}")
    players = [PlayerFactory(tournament=tournament) for _ in range(count)]
    make_round(tournament, 1, [players[i:i + 6] for i in range(0, count, 6)])
    services.recompute_standings(tournament_id=tournament.pk)
    with django_assert_num_queries(3):
        assert client.get(f"/api/v1/tournaments/t{count}/standings").status_code == 200
    with django_assert_num_queries(4):
        assert client.get(f"/api/v1/tournaments/t{count}/tables").status_code == 200


def test_unknown_or_draft_tournament_is_404(client):
    TournamentFactory(slug="secret", status=Tournament.Status.DRAFT)
    assert client.get("/api/v1/tournaments/secret/standings").status_code == 404
    assert client.get("/api/v1/tournaments/nope/standings").json()["code"] == "not_found"


def test_the_periodic_refresh_catches_a_lost_recompute(tournament, players):
    _, tables = make_round(tournament, 1, [players[:6]])
    # No on-commit callbacks run here: as if the worker died with the recompute task.
    play(tables[0], {p: 1000 + i for i, p in enumerate(players[:6])})
    assert not StandingRow.objects.filter(tournament=tournament, points__gt=0).exists()
    assert services.refresh_running_standings() == 1
    assert StandingRow.objects.filter(tournament=tournament, scope="public", points=6).exists()
    assert services.refresh_running_standings() == 0


def test_the_refresh_repairs_an_invalidation_lost_with_the_cache(
    client, django_capture_on_commit_callbacks, tournament, players
):
    from scoring import cache

    _, tables = make_round(tournament, 1, [players[:6]])
    services.recompute_standings(tournament_id=tournament.pk)
    services.refresh_running_standings()
    before = client.get("/api/v1/tournaments/ka/standings").json()
    assert all(row["points"] == 0 for row in before["standings"])
    # The result arrives while the cache cannot be told (Redis restarting): no invalidation.
    play(tables[0], {p: 1000 + i for i, p in enumerate(players[:6])})
    services.recompute_standings(tournament_id=tournament.pk)
    stale = client.get("/api/v1/tournaments/ka/standings").json()
    assert stale == before
    services.refresh_running_standings()
    fresh = client.get("/api/v1/tournaments/ka/standings").json()
    assert fresh["standings"][0]["points"] == 6
    assert cache.sync_version("ka", fresh["version"]) is False


def test_a_confirmed_result_is_in_the_standings_without_a_worker(
    monkeypatch, django_capture_on_commit_callbacks, tournament, players
):
    """Freshness (issue 17): the confirming request recomputes right after its commit; the
    queue is not needed (the worker may be busy with the clocks, or killed)."""
    from scoring.standings import trigger

    queued = []
    monkeypatch.setattr(trigger, "enqueue", lambda task, *args, **kw: queued.append(args))
    _, tables = make_round(tournament, 1, [players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    row = StandingRow.objects.get(tournament=tournament, scope="public", player=players[5])
    assert row.points == 6 and row.rounds["1"]["final"] is True
    assert queued == []


def test_a_recompute_that_fails_in_the_request_is_left_to_the_worker(
    monkeypatch, django_capture_on_commit_callbacks, tournament, players
):
    from scoring.standings import trigger

    def broken(**kwargs):
        raise RuntimeError("database gone")

    queued = []
    monkeypatch.setattr(trigger.services, "recompute_standings", broken)
    monkeypatch.setattr(trigger, "enqueue", lambda task, *args, **kw: queued.append(args))
    _, tables = make_round(tournament, 1, [players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    assert queued and set(queued) == {(tournament.pk,)}
    assert not StandingRow.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize("immediately", [True, False])
def test_a_confirmation_computes_the_standings_once(
    monkeypatch, django_capture_on_commit_callbacks, tournament, players, immediately,
):
    """The hall (issue 17): the 1,000-player computation runs inside SQLite's write lock, so
    both scopes share it when they read the same inputs (results public immediately); held
    results leave the public scope's inputs unchanged until the round closes."""
    from referee import results as referee_results

    Tournament.objects.filter(pk=tournament.pk).update(results_public_immediately=immediately)
    _, tables = make_round(tournament, 1, [players[:6]])
    with django_capture_on_commit_callbacks(execute=True):
        game = play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])},
                    confirm=False)
    calls = []
    real = services.compute_standings
    monkeypatch.setattr(services, "compute_standings",
                        lambda **kwargs: calls.append(kwargs) or real(**kwargs))
    with django_capture_on_commit_callbacks(execute=True):
        referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                       code=game.confirmation_code, by=None)
    assert len(calls) == 1
    live, public = ([(row.player_id, row.points, row.rank)
                     for row in selectors.placed_rows(tournament, scope=scope)]
                    for scope in ("live", "public"))
    assert live[0][1] == 6
    assert (public == live) is immediately


def test_a_recompute_writes_only_the_rows_whose_figures_changed(tournament, players):
    """Issue 29: the confirming request rewrote every row of both scopes (2,000 inserts for
    1,000 players); now an unchanged row is not touched, a changed one is updated in place."""
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    services.recompute_standings(tournament_id=tournament.pk)
    before = {r.player_id: (r.pk, r.points) for r in
              StandingRow.objects.filter(tournament=tournament, scope="live")}
    lines = services.compute_standings(
        players=sorted(before), results=services.result_rows(tournament,
                                                             complete_rounds_only=False),
        settings=services.settings_for(tournament), deductions={})
    assert services._write_difference(tournament, {"live": lines}) == 0  # nothing changed
    lines[-1].points += 3  # one player's figure moves
    assert services._write_difference(tournament, {"live": lines}) == 1
    after = {r.player_id: (r.pk, r.points) for r in
             StandingRow.objects.filter(tournament=tournament, scope="live")}
    changed = {pid for pid, row in after.items() if before[pid] != row}
    assert changed == {lines[-1].player}  # every other row untouched
    assert {pk for pk, _points in after.values()} == {pk for pk, _points in before.values()}
    assert after[lines[-1].player][1] == before[lines[-1].player][1] + 3
