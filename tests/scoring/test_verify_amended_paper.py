"""An amended paper sheet (trust review, finding 7): the sheet's parts are what the paper said,
the amendment is the head referee's ruling on top. ``verify`` checks the parts against the
sheet's own total as written (kept with the line) and the amended figure against the recorded
ruling: no false difference for an honest amendment, and a change in the database without a
ruling is still named."""

from __future__ import annotations

import pytest
from django.utils import translation
from factories import UserFactory, appoint, seated_table

from referee import paper, rulings
from referee.models import Placement
from referee.results import revision_of
from scoring.verify import verify_tournament
from tournament.models import StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def amended_sheet():
    """A sheet with parts (cash, deeds) for four players; its winner amended by 100."""
    table = seated_table(players=4)
    tournament = table.round.tournament
    judge = appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournament)
    other = appoint(UserFactory(username="judge2"), StaffRole.Role.HEAD_REFEREE, tournament)
    seats = list(table.seats.order_by("position"))
    lines = [paper.PaperLine(player_id=s.player_id,
                             breakdown={"cash": 1000 * s.position, "deeds": 500}) for s in seats]
    result = paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit",
                                      ended_at=None, by=judge, note="Tablet ausgefallen")
    assert verify_tournament(tournament=tournament).ok
    winner = result.placements.get(place=1)
    figures = {p.player_id: {"net_worth": p.net_worth + (100 if p.pk == winner.pk else 0),
                             "place": ""} for p in result.placements.all()}
    rulings.amend_result(game_id=result.game_id, figures=figures,
                         reason="Schein falsch addiert", by=other,
                         revision=revision_of(result.game_id))
    return tournament, Placement.objects.select_related("player").get(pk=winner.pk)


def _words(tournament) -> list[str]:
    with translation.override("en"):
        return [str(d) for d in verify_tournament(tournament=tournament).differences]


def test_an_amended_sheet_with_parts_verifies(amended_sheet):
    tournament, winner = amended_sheet
    assert winner.net_worth == 4600 and winner.breakdown["counted_net_worth"] == 4500
    assert _words(tournament) == []


def test_changed_parts_are_named(amended_sheet):
    tournament, winner = amended_sheet
    Placement.objects.filter(pk=winner.pk).update(breakdown={**winner.breakdown, "cash": 4100})
    assert any(f"{winner.player.name}: the sheet's parts add up to 4600, the stored net worth "
               "is 4500" in w for w in _words(tournament)), _words(tournament)


def test_a_figure_changed_without_a_ruling_is_named(amended_sheet):
    tournament, winner = amended_sheet
    Placement.objects.filter(pk=winner.pk).update(net_worth=9600)
    assert any(f"{winner.player.name}: stored net worth 9600, the recorded ruling gives 4600"
               in w for w in _words(tournament)), _words(tournament)


def test_a_rewritten_sheet_under_the_ruling_is_named(amended_sheet):
    """Parts and written total changed together: they agree with each other, not with the
    figure the recorded ruling changed."""
    tournament, winner = amended_sheet
    Placement.objects.filter(pk=winner.pk).update(
        breakdown={**winner.breakdown, "cash": 3900, "counted_net_worth": 4400})
    assert any(f"{winner.player.name}: the recorded ruling changed a net worth of 4500, the "
               "result's own figure is 4400" in w for w in _words(tournament)), _words(tournament)
