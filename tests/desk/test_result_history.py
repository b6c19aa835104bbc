"""The result page's history (issue 24, finding 5): this result's changes only — entries are
matched by content type and object id together, since the ids of results and placements
overlap — and in words: no field names, no "None", local times, people by name."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone, translation
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from referee import paper, results, rulings, services
from referee.models import GameResult, Placement
from referee.results import revision_of
from referee.selectors import STATE_LABELS
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_results(client):
    """Table 1 from the paper sheet (placements p1…p4); table 2's result has the id of one of
    table 1's placements, and is confirmed with the table's code by Anna at the desk."""
    tournament = TournamentFactory(slug="verlauf", status=Tournament.Status.RUNNING)
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in range(8)]
    _round, tables = make_round(tournament, 1, [people[:4], people[4:]])
    judge = appoint(UserFactory(username="mrmonopoly", first_name="Max"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    anna = appoint(UserFactory(username="anna", first_name="Anna"), StaffRole.Role.DESK,
                   tournament)
    first = paper.enter_paper_result(
        table=tables[0], end_reason="time_limit", ended_at=None, by=judge,
        lines=[paper.PaperLine(player_id=p.pk, net_worth=4000 - 500 * i)
               for i, p in enumerate(people[:4])],
    )
    taken = {first.pk, *GameResult.objects.values_list("pk", flat=True)}
    shared = next(pk for pk in first.placements.values_list("pk", flat=True) if pk not in taken)
    game = services.ensure_game(table=tables[1])
    second = GameResult.objects.create(pk=shared, game=game, counted_at=timezone.now())
    for i, p in enumerate(people[4:]):
        Placement.objects.create(result=second, player=p, place=i + 1, net_worth=3000 - 100 * i)
    results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                           code=game.confirmation_code, by=anna)
    # table 1's count is amended afterwards (its placements' entries carry their own ids)
    rulings.amend_result(
        game_id=first.game_id, revision=revision_of(first.game_id),
        reason="Spieler 1 falsch addiert", by=judge,
        figures={p.player_id: {"place": p.place, "net_worth": p.net_worth + (10 if p.place == 2
                                                                               else 0)}
                 for p in first.placements.all()},
    )
    client.force_login(judge)
    return tournament, first, second


def history(client, tournament, result) -> str:
    html = client.get(f"/manage/{tournament.slug}/results/{result.game_id}/").content.decode()
    return re.search(r"<ul data-history>(.*?)</ul>", html, re.S).group(1)


def test_each_result_page_lists_its_own_changes_only(client, two_results):
    tournament, first, second = two_results
    one, two = history(client, tournament, first), history(client, tournament, second)
    assert "bestätigt" not in one  # table 2's confirmation is not table 1's
    assert "Spieler 1 falsch addiert" in one and "Spieler 1 falsch addiert" not in two
    assert "bestätigt von Anna (Code des Tisches)" in two
    assert "Spieler 5" not in one and "Spieler 0" not in two


def test_the_history_is_in_words(client, two_results):
    tournament, first, second = two_results
    one = history(client, tournament, first)
    assert "Spieler 0: Platz: – → 1; Vermögen: – → 4.000" in one
    assert "Spieler 1: Vermögen: 3.500 → 3.510" in one
    assert "Quelle: – → Papierbogen" in one and "Max" in one
    for raw in ("None", "net_worth", "place:", "from_paper", "status", "+00:00", "True"):
        assert raw not in one and raw not in history(client, tournament, second)
    stamp = timezone.localtime(first.counted_at).strftime("%H:%M")
    assert stamp in one


def test_a_replaced_count_stays_in_the_history(client, two_results):
    tournament, first, _second = two_results
    lines = [paper.PaperLine(player_id=p.player_id, net_worth=1000 * p.place)
             for p in first.placements.all()]  # the order turned round
    judge = first.counted_by
    paper.enter_paper_result(table=first.game.table, lines=lines, end_reason="time_limit",
                             ended_at=None, by=judge, note="Bogen vertauscht",
                             replaces=paper.version(GameResult.objects.get(pk=first.pk)))
    one = history(client, tournament, first)
    assert "Wartendes Ergebnis durch einen Papierbogen ersetzt" in one
    assert "Spieler 0: Platz: 1 → –; Vermögen: 4.000 → –" in one  # the replaced placement
    assert "Spieler 0: Platz: – → 4; Vermögen: – → 1.000" in one
    assert "Bogen vertauscht" in one
    assert "Einspruch: – → –" not in one  # nothing that did not change


def _disputed_and_ruled():
    """A counted game, disputed ("Miete falsch") and ruled on by the head referee Max."""
    tournament = TournamentFactory(slug="ruled", status=Tournament.Status.RUNNING)
    people = [PlayerFactory(tournament=tournament) for _ in range(4)]
    _round, [table] = make_round(tournament, 1, [people])
    judge = appoint(UserFactory(username="mrmonopoly", first_name="Max"),
                    StaffRole.Role.HEAD_REFEREE, tournament)
    game = play(table, {p: 2000 - 100 * i for i, p in enumerate(people)}, confirm=False)
    results.dispute_result(game_id=game.pk, note="Miete falsch", by=None,
                           revision=revision_of(game.pk))
    rulings.resolve_dispute(game_id=game.pk, note="Miete stimmt", by=judge,
                            revision=revision_of(game.pk))
    return tournament, game, judge


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_status_changes_name_the_states_as_the_pages_chip_does(client, language):
    """Counted, disputed, ruled, reopened: each "Status: A → B" names the table's states by
    their one name, the chip's (the walk: the chip said "Beendet, wartet auf Bestätigung", the
    history "Gezählt, wartet auf Bestätigung" and "Angefochten" for "Ergebnis strittig")."""
    tournament, game, judge = _disputed_and_ruled()
    rulings.reopen_result(game_id=game.pk, reason="Nachzählen", by=judge,
                          revision=revision_of(game.pk))
    client.force_login(judge)
    html = client.get(f"/manage/{tournament.slug}/results/{game.pk}/",
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()
    chip = re.search(r"<p data-result-status[^>]*><strong>(.*?)</strong>", html).group(1)
    lines = re.search(r"<ul data-history>(.*?)</ul>", html, re.S).group(1)
    changes = re.findall(r"Status: (.*?) → (.*?) · ", lines)  # "Status" in both languages
    with translation.override(language):
        names = {str(name) for name in STATE_LABELS.values()}
    assert len(changes) == 3, lines  # counted, disputed, reopened (the ruling: "confirmed by")
    assert {word for pair in changes for word in pair} - {"–"} <= names, changes
    assert chip.startswith(changes[0][1])  # the newest line ends where the chip stands


def test_a_ruled_dispute_is_one_line_with_its_ruling(client):
    """The head referee's ruling on a dispute confirms and records the ruling in one step: one
    line ("confirmed by Max … · Ruling: …"), not a second one that changes nothing visible."""
    tournament, game, judge = _disputed_and_ruled()
    assert GameResult.objects.get(game=game).resolved_note == "Miete stimmt"
    client.force_login(judge)
    html = client.get(f"/manage/{tournament.slug}/results/{game.pk}/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    lines = re.findall(r"<li>(.*?)</li>", re.search(r"<ul data-history>(.*?)</ul>", html,
                                                     re.S).group(1), re.S)
    ruled = [line for line in lines if "Miete stimmt" in line]
    assert len(ruled) == 1, lines
    assert "confirmed by" in ruled[0]
