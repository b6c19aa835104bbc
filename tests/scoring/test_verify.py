"""``manage.py verify SLUG`` (issue 24): every stored result, standings row and public figure
is checked against the replayed records and the staff's recorded rulings; each difference is
named in words and the command exits 1."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from referee import rulings
from referee.models import Game, GameResult, Placement
from referee.results import revision_of
from scoring.models import StandingRow
from scoring.standings.services import recompute_standings
from scoring.verify import verify_tournament
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """Two tables of four, both confirmed, the standings computed."""
    tournament = TournamentFactory(slug="geprueft", status=Tournament.Status.RUNNING,
                                   table_size=4)
    names = ["Anna Groß", "Ben Koch", "Carla Weiß", "Dörte Öz", "Emil Ali", "Frida Bär",
             "Gül Müller", "Hans Roth"]
    players = [PlayerFactory(tournament=tournament, name=name) for name in names]
    _round, tables = make_round(tournament, 1, [players[:4], players[4:]])
    for table, group in zip(tables, (players[:4], players[4:]), strict=True):
        play(table, {p: 3000 - 400 * i for i, p in enumerate(group)})
    recompute_standings(tournament_id=tournament.pk)
    return tournament, tables, players


def run(slug, *extra):
    """The command's exit status and its output (stdout + stderr)."""
    import io

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify", slug, "--lang", "en", *extra, stdout=out, stderr=err)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    return status, out.getvalue() + err.getvalue()


def test_a_faithful_record_verifies(played):
    status, output = run("geprueft")
    assert status == 0, output
    assert ("2 games, 2 results and the standings of 8 players (public and internal) checked: "
            "everything agrees.") in output


def test_the_command_and_the_page_say_what_was_checked_in_words(played):
    """Not "16 standings rows" for 8 players (two scopes): the players and which standings
    (walk of the demo: "72 Tabellenzeilen geprüft" for 36 players)."""
    tournament, _tables, _players = played
    out = io.StringIO()
    call_command("verify", "geprueft", stdout=out)
    sentence = ("2 Spiele, 2 Ergebnisse und die Tabellenplätze von 8 Spielern (öffentlich und "
                "intern) geprüft: alles stimmt.")
    assert out.getvalue().strip() == sentence
    judge = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament)
    client = Client()
    client.force_login(judge)
    page = client.get("/manage/geprueft/verify/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert sentence in page and "Tabellenzeilen" not in page


def test_a_corrupted_placement_and_standings_row_are_both_named(played):
    tournament, tables, players = played
    Placement.objects.filter(result__game__table=tables[0], player=players[1]).update(place=1)
    StandingRow.objects.filter(tournament=tournament, scope="public", player=players[6]).update(
        points=99)
    status, output = run("geprueft")
    assert status == 1
    lines = output.splitlines()
    assert any(line.startswith("Round 1, table 1: Ben Koch: stored place 1 with 2600, the "
                               "record gives place 2 with 2600") for line in lines), output
    assert any("public standings: Gül Müller: stored points 99" in line for line in lines), output
    assert "differences; checked: 2 games" in output


def test_a_stale_public_figure_and_a_missing_amendment_are_named(played):
    tournament, tables, players = played
    game = Game.objects.get(table=tables[1])
    summary = {**game.summary, "net_worth": {**game.summary["net_worth"], str(players[4].pk): 1}}
    Game.objects.filter(pk=game.pk).update(summary=summary)
    Placement.objects.filter(result__game=game, player=players[5]).update(
        net_worth=9999, breakdown={"amended": True})
    with translation.override("en"):
        report = verify_tournament(tournament=tournament)
        words = [str(d) for d in report.differences]
    assert any("the public pages show Emil Ali with 1" in w for w in words), words
    assert any("Frida Bär's figures are marked as amended, but the audit log holds no "
               "amendment" in w for w in words), words


def test_an_amendment_by_the_head_referee_is_a_recorded_ruling(played):
    tournament, tables, players = played
    judge = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament)
    game = Game.objects.get(table=tables[0])
    rulings.reopen_result(game_id=game.pk, revision=revision_of(game.pk),
                          reason="Hotel vergessen", by=judge)
    figures = {p.player_id: {"net_worth": p.net_worth}
               for p in Placement.objects.filter(result__game=game)}
    figures[players[2].pk] = {"net_worth": 5000}
    rulings.amend_result(game_id=game.pk, revision=revision_of(game.pk),
                         figures=figures, reason="Hotel vergessen", by=judge)
    other = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament)
    rulings.resolve_dispute(game_id=game.pk, revision=revision_of(game.pk),
                            note="nachgezählt", by=other)
    recompute_standings(tournament_id=tournament.pk)
    report = verify_tournament(tournament=tournament)
    assert report.ok, [str(d) for d in report.differences]
    assert Placement.objects.get(result__game=game, player=players[2]).place == 1


def test_one_person_counting_and_confirming_is_named(played):
    tournament, tables, _players = played
    judge = appoint(UserFactory(username="allein"), StaffRole.Role.HEAD_REFEREE, tournament)
    GameResult.objects.filter(game__table=tables[0]).update(
        counted_by=judge, confirmed_by=judge, confirmed_via="head_referee")
    with translation.override("en"):
        words = [str(d) for d in verify_tournament(tournament=tournament).differences]
    assert words == ["Round 1, table 1: the result was counted and confirmed by the same person"]


def test_an_unknown_tournament_is_one_line_and_exit_2(played):
    status, output = run("gibt-es-nicht")
    assert status == 2


def test_the_head_referees_page_lists_the_differences(played):
    tournament, tables, players = played
    judge = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament)
    client = Client()
    client.force_login(judge)
    page = client.get("/manage/geprueft/verify/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "everything agrees" in page
    Placement.objects.filter(result__game__table=tables[0], player=players[1]).update(place=1)
    page = client.get("/manage/geprueft/verify/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ben Koch: stored place 1 with 2600" in page


def test_a_paper_result_verifies_as_the_sheet_and_a_tampered_place_is_named():
    from referee import paper, results

    tournament = TournamentFactory(slug="papier", status=Tournament.Status.RUNNING,
                                   table_size=4)
    players = [PlayerFactory(tournament=tournament, name=n)
               for n in ("Anna Groß", "Ben Koch", "Carla Weiß", "Dörte Öz")]
    _round, (table,) = make_round(tournament, 1, [players])
    judge = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament)
    lines = [
        paper.PaperLine(player_id=players[0].pk, breakdown={"cash": 900, "deeds": 600},
                        net_worth=1500),
        paper.PaperLine(player_id=players[1].pk, net_worth=2500),
        paper.PaperLine(player_id=players[2].pk, bankrupt_order=1),
        paper.PaperLine(player_id=players[3].pk, bankrupt_order=2),
    ]
    result = paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit",
                                      ended_at=None, by=judge)
    other = appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament)
    results.confirm_result(game_id=result.game_id, revision=revision_of(result.game_id),
                           code=None, by=other, head_referee=True)
    recompute_standings(tournament_id=tournament.pk)
    assert verify_tournament(tournament=tournament).ok
    Placement.objects.filter(result=result, player=players[3]).update(place=4)
    Placement.objects.filter(result=result, player=players[2]).update(place=3)
    with translation.override("en"):
        words = [str(d) for d in verify_tournament(tournament=tournament).differences]
    assert "Round 1, table 1: Dörte Öz: stored place 4, the paper sheet gives place 3" in words
