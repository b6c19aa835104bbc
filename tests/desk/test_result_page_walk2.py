"""The head referee's result page after the second browser walk (/work/notes/walk2): a stale
page's refusal names the write that made it stale; refusals come back on the page with what
was typed; each note is named by what it is; the history is the game's across its results;
whoever amended the figures does not confirm them."""

from __future__ import annotations

import pytest
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from referee import results, rulings
from referee.models import GameResult
from referee.results import revision_of
from scoring.verify import verify_tournament
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db


def _verified(tournament) -> None:
    report = verify_tournament(tournament=tournament)
    assert report.ok, report


def _disputed(slug="walk2"):
    """A counted game disputed by the banker (banker4); Max is the head referee."""
    tournament = TournamentFactory(slug=slug, status=Tournament.Status.RUNNING)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(4)]
    _round, [table] = make_round(tournament, 1, [people])
    judge = appoint(UserFactory(username="mrmonopoly", first_name="Max"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    banker = UserFactory(username="banker4")
    game = play(table, {p: 2000 - 100 * i for i, p in enumerate(people)}, confirm=False)
    results.dispute_result(game_id=game.pk, note="Miete falsch", by=banker,
                           revision=revision_of(game.pk))
    return tournament, game, judge


def _figures(game, plus=10):
    result = GameResult.objects.get(game=game)
    return {p.player_id: {"place": "", "net_worth": p.net_worth + (plus if p.place == 2 else 0)}
            for p in result.placements.all()}


def _page(client, tournament, game, language="de"):
    return client.get(f"/manage/{tournament.slug}/results/{game.pk}/",
                      HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_stale_page_is_refused_naming_the_amendment_and_its_author(client, language):
    tournament, game, judge = _disputed()
    stale = revision_of(game.pk)  # the page as the first tab shows it
    other = appoint(UserFactory(username="zweiter", first_name="Zora"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    rulings.amend_result(game_id=game.pk, figures=_figures(game), reason="Addiert",
                         by=other, revision=revision_of(game.pk))  # the second tab
    client.force_login(judge)
    response = client.post(f"/manage/{tournament.slug}/results/{game.pk}/resolve/",
                           {"note": "Miete stimmt", "revision": stale},
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 409
    html = response.content.decode()
    amended = {"de": "Zählung korrigiert", "en": "Counted figures amended"}[language]
    assert amended in html and "Zora" in html
    assert "banker4" not in html and "angefochten" not in html.lower()
    _verified(tournament)
