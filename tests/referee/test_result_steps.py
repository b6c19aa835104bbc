"""What follows a changed result (issue 27, "Flows one can read"): the steps of
``settings.RESULT_STEPS``, in their order, once the change is committed, each told one
``ResultChange`` that carries the tournament; a step that fails is logged and the next runs."""

from __future__ import annotations

import logging
import sys
import types

import pytest
from django.core import checks
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play

from referee import changes, results, rulings
from referee.changes import Kind, ResultChange
from referee.results import revision_of
from scoring.models import StandingRow

pytestmark = pytest.mark.django_db


@pytest.fixture
def recorded(settings, monkeypatch):
    """Two recording steps around the real ones: what each was told, in order."""
    seen: list[tuple[str, ResultChange]] = []
    module = types.ModuleType("recording_steps")
    module.first = lambda change: seen.append(("first", change))
    module.last = lambda change: seen.append(("last", change))
    monkeypatch.setitem(sys.modules, "recording_steps", module)
    settings.RESULT_STEPS = ["recording_steps.first", *settings.RESULT_STEPS,
                             "recording_steps.last"]
    return seen


@pytest.fixture
def counted():
    tournament = TournamentFactory(slug="ka")
    players = [PlayerFactory(tournament=tournament) for _ in range(4)]
    _, (table,) = make_round(tournament, 1, [players])
    game = play(table, {p: 1000 + 100 * i for i, p in enumerate(players)}, confirm=False)
    return tournament, table, game


def test_every_change_of_a_result_runs_the_steps_in_order_with_the_tournament(
    counted, recorded, django_capture_on_commit_callbacks
):
    tournament, table, game = counted
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                               code=game.confirmation_code, by=None)
        assert recorded == []  # nothing before the commit
    (first, change), (last, same) = recorded
    assert (first, last) == ("first", "last") and same is change
    assert change == ResultChange(game_id=game.pk, kind=Kind.CONFIRMED,
                                  tournament_id=tournament.pk, tournament_slug="ka",
                                  round_id=table.round_id, tournament=tournament)
    assert change.confirmed and change.tournament.pk == tournament.pk
    # The standings step ran between them (its rows are there).
    assert StandingRow.objects.filter(tournament=tournament).exists()

    recorded.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rulings.reopen_result(game_id=game.pk, revision=revision_of(game.pk),
                              reason="Tippfehler", by=None)
    with django_capture_on_commit_callbacks(execute=True):
        results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                               note="Zählfehler", by=None)
    assert [c.kind for name, c in recorded if name == "first"] == [Kind.REOPENED,
                                                                    Kind.DISPUTED]
    assert not any(c.confirmed for _, c in recorded)


def test_a_failing_step_is_logged_and_the_next_one_runs(
    counted, recorded, settings, caplog, django_capture_on_commit_callbacks
):
    _, _, game = counted

    def broken(change):
        raise RuntimeError("cache server gone")

    sys.modules["recording_steps"].broken = broken
    settings.RESULT_STEPS = ["recording_steps.broken", *settings.RESULT_STEPS]
    with caplog.at_level(logging.ERROR, logger="referee.changes"), \
            django_capture_on_commit_callbacks(execute=True):
        results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                               code=game.confirmation_code, by=None)
    assert [name for name, _ in recorded] == ["first", "last"]
    assert "recording_steps.broken failed after the confirmed result" in caplog.text


def test_a_step_that_does_not_exist_fails_the_system_check(settings):
    assert changes.check_steps() == []
    settings.RESULT_STEPS = [*settings.RESULT_STEPS, "scoring.receivers.no_such_step"]
    (error,) = changes.check_steps()
    assert error.id == "referee.E001" and "no_such_step" in error.msg
    assert any(e.id == "referee.E001" for e in checks.run_checks())
