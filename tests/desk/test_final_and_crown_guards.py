"""Who is in the final, and what the final and the crowning rest on (the trust review, findings
8-11): one rule decides the finalists (``scoring.standings.services.finalists``) and the desk's
list, the standings' "qualified" mark and the seating of the final follow it; the final is
seated only from confirmed results; once it is seated the preliminary results and the number of
finalists stay as they are, and once the winner is crowned no result or deduction changes.
Every refusal says what to do instead, in German and English."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from desk import errors as desk_errors
from desk import rounds as desk_rounds
from desk.views import desk as desk_data
from referee import errors as referee_errors
from referee import rulings
from referee.models import Game, GameResult
from referee.results import revision_of
from scoring.models import Scope
from scoring.standings import selectors as standings
from scoring.standings.services import finalists
from scoring.verify import verify_tournament
from tournament import errors as tournament_errors
from tournament import incidents, tournaments
from tournament.forms import TournamentForm
from tournament.models import Incident, Round, StaffRole, Tournament
from tournament.players import services as players_services
from tournament.rounds import services as rounds_services
from tournament.selectors import seating_overview

pytestmark = pytest.mark.django_db


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run the steps after commit (the crowning follows the final's close)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _tournament(*, final_decides=True, fmt="placement_points", rounds=1, players=8):
    tournament = TournamentFactory(
        slug="k", status=Tournament.Status.RUNNING, table_size=4, finalists=4,
        preliminary_rounds=rounds, format=fmt, final_decides=final_decides,
        placement_points=[4, 3, 2, 1],
        tie_breaks=["points", "net_worth_sum", "best_net_worth", "lot"],
    )
    return tournament, [PlayerFactory(tournament=tournament, name=f"Spieler {i}")
                        for i in range(players)]


def _round_one(commits, **options):
    """Round 1 closed: two tables of four, the first seated wins each table (Spieler 0 and 4
    first, 1 and 5 second: the four qualifiers)."""
    tournament, players = _tournament(**options)
    groups = [players[i:i + 4] for i in range(0, len(players), 4)]
    round_, tables = make_round(tournament, 1, groups)
    with commits():
        for table, group in zip(tables, groups, strict=True):
            play(table, {p: 3000 - 400 * i - 10 * table.number for i, p in enumerate(group)})
        desk_rounds.close_round(round_=round_)
    return tournament, players, tables


def _judges(tournament):
    return (appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournament),
            appoint(UserFactory(username="judge2"), StaffRole.Role.HEAD_REFEREE, tournament))


def _crowned(tournament, commits):
    """The final seated, played (its last seat wins) and closed: the winner crowned."""
    final = desk_rounds.seat_final(tournament=tournament)
    rounds_services.lock_round(round_=final)
    rounds_services.start_round(round_=final)
    table = final.tables.get()
    with commits():
        game = play(table, {seat.player: 1000 + 500 * i
                            for i, seat in enumerate(table.seats.order_by("position"))})
        desk_rounds.close_round(round_=final)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner_id
    return final, game


def _ids(players):
    return {player.pk for player in players}


def _seated(final):
    return set(final.seats.values_list("player_id", flat=True))


def _public_marks(tournament):
    return {line["player"] for line in standings.standings(tournament, scope=Scope.PUBLIC)
            if line["qualified"]}


def _desk_list(tournament):
    return {row.player_id for row in desk_data(tournament)["qualifiers"]}


def _reopen_refused(game, judge, reason):
    """The head referee's reopening of a confirmed result, refused; the result stays."""
    with pytest.raises(referee_errors.ResultSettled) as refused:
        rulings.reopen_result(game_id=game.pk, reason=reason, by=judge,
                              revision=revision_of(game.pk))
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
    return refused


def _differences(tournament):
    return [str(difference) for difference in verify_tournament(tournament=tournament).differences]


# ------------------------------------------------------------ finding 8: seated from confirmed


def test_the_final_is_not_seated_while_a_preliminary_result_is_reopened(commits):
    tournament, players, tables = _round_one(commits)
    judge, judge2 = _judges(tournament)
    game = Game.objects.get(table=tables[0])
    rulings.reopen_result(game_id=game.pk, reason="nachzählen", by=judge,
                          revision=revision_of(game.pk))

    with pytest.raises(desk_errors.FinalNotPossible) as refused:
        desk_rounds.seat_final(tournament=tournament)
    assert refused.value.code == "results_not_confirmed" and refused.value.http_status == 409
    assert "round 1, table 1" in refused.value.message_in("en")
    assert "Runde 1, Tisch 1" in refused.value.message_in("de")
    assert not tournament.rounds.filter(kind=Round.Kind.FINAL).exists()

    rulings.resolve_dispute(game_id=game.pk, note="nachgezählt, stimmt", by=judge2,
                            revision=revision_of(game.pk))
    final = desk_rounds.seat_final(tournament=tournament)
    assert _seated(final) == _ids([players[0], players[1], players[4], players[5]])


def test_the_desk_says_why_the_final_waits_for_a_reopened_result(client, commits):
    tournament, _players, tables = _round_one(commits)
    judge, _judge2 = _judges(tournament)
    game = Game.objects.get(table=tables[1])
    rulings.reopen_result(game_id=game.pk, reason="x", by=judge, revision=revision_of(game.pk))
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    page = client.get("/manage/k/desk/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-warning="final-waits"' in page and "Runde 1, Tisch 2" in page
    refused = client.post("/manage/k/final/seat/", HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 409
    assert "Runde 1, Tisch 2" in refused.content.decode()
    assert not tournament.rounds.filter(kind=Round.Kind.FINAL).exists()


# ---------------------------------------------- finding 9: what the seated final rests on stays


def test_a_preliminary_result_is_not_reopened_once_the_final_is_seated(client, commits):
    tournament, _players, tables = _round_one(commits)
    judge, _judge2 = _judges(tournament)
    final = desk_rounds.seat_final(tournament=tournament)
    game = Game.objects.get(table=tables[0])

    refused = _reopen_refused(game, judge, "Zählfehler")
    assert "Delete this round" in refused.value.message_in("en")
    assert "Diese Runde löschen" in refused.value.message_in("de")
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
    client.force_login(judge)
    page = client.post(f"/manage/k/results/{game.pk}/reopen/",
                       {"reason": "Zählfehler", "revision": revision_of(game.pk)})
    assert page.status_code == 409 and "result_settled" in page.content.decode()

    # the way the refusal names: delete the final (no game begun), reopen, seat it again
    desk_rounds.delete_round(round_=final, reason="Ergebnis von Tisch 1 prüfen")
    rulings.reopen_result(game_id=game.pk, reason="Zählfehler", by=judge,
                          revision=revision_of(game.pk))
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED


def test_the_number_of_finalists_is_frozen_once_the_final_is_seated(commits):
    tournament, _players, _tables = _round_one(commits)
    tournaments.update_tournament(tournament=tournament, finalists=3)  # running: still allowed
    tournaments.update_tournament(tournament=tournament, finalists=4)
    final = desk_rounds.seat_final(tournament=tournament)

    with pytest.raises(tournament_errors.SettingsFrozen) as refused:
        tournaments.update_tournament(tournament=tournament, finalists=3)
    assert "Delete this round" in refused.value.message_in("en")
    assert "Finale" in refused.value.message_in("de")
    tournament.refresh_from_db()
    assert tournament.finalists == 4 == len(_seated(final)) == len(_public_marks(tournament))
    assert TournamentForm(tournament=tournament).fields["finalists"].disabled
    assert _differences(tournament) == []


# --------------------------------------------------- finding 10: nothing changes after the crown


def test_the_final_result_is_not_reopened_once_crowned_until_the_crowning_is_undone(commits):
    tournament, _players, _tables = _round_one(commits)
    final, game = _crowned(tournament, commits)
    judge, _judge2 = _judges(tournament)

    refused = _reopen_refused(game, judge, "Zählfehler im Finale")
    assert "Undo the crowning" in refused.value.message_in("en")
    assert "Siegerkürung zurücknehmen" in refused.value.message_in("de")
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
    assert _differences(tournament) == []

    desk_rounds.reopen_round(round_=final, reason="Zählfehler im Finale")
    rulings.reopen_result(game_id=game.pk, reason="Zählfehler im Finale", by=judge,
                          revision=revision_of(game.pk))
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED


def test_a_preliminary_result_is_not_reopened_once_crowned(commits):
    tournament, _players, tables = _round_one(commits, final_decides=False)
    _crowned(tournament, commits)
    judge, _judge2 = _judges(tournament)
    game = Game.objects.get(table=tables[0])
    refused = _reopen_refused(game, judge, "nachprüfen")
    assert "organizer" in refused.value.message_in("en")
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED
    assert _differences(tournament) == []


def test_no_deduction_or_disqualification_after_the_crowning_a_note_still(client, commits):
    tournament, _players, _tables = _round_one(commits, final_decides=False)
    _crowned(tournament, commits)
    judge, _judge2 = _judges(tournament)
    winner = tournament.winner
    for level, points in ((Incident.Level.DEDUCTION, 20), (Incident.Level.DISQUALIFICATION, 0)):
        with pytest.raises(tournament_errors.PenaltyAfterCrowning) as refused:
            incidents.record_incident(player=winner, level=level, points=points,
                                      note="Unsportlich", by=judge)
        assert "note or a warning" in refused.value.message_in("en")
    incidents.record_incident(player=winner, level=Incident.Level.NOTE, note="Unsportlich",
                              by=judge)
    assert list(winner.incidents.values_list("level", flat=True)) == [Incident.Level.NOTE]
    winner.refresh_from_db()
    assert not winner.dropped_out
    assert _differences(tournament) == []

    client.force_login(judge)
    page = client.post(f"/manage/k/players/{winner.pk}/incidents/",
                       {"level": "deduction", "points": "20", "note": "Unsportlich"},
                       HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 400 and "Vermerk oder eine Verwarnung" in page.content.decode()
    assert winner.incidents.count() == 1


# ----------------------------------------- finding 11: the desk shows who the final is seated with


def _all_agree_on(tournament, expected):
    """The desk's list, the public mark and the seated final are the expected players, and
    the record check agrees."""
    assert _desk_list(tournament) == expected
    assert _public_marks(tournament) == expected
    final = desk_rounds.seat_final(tournament=tournament)
    assert _seated(final) == expected
    assert _differences(tournament) == []


def test_a_dropped_out_qualifier_is_neither_listed_nor_marked_nor_seated(commits):
    tournament, players, _tables = _round_one(commits)
    players_services.drop_out(player=players[0])
    tournament.refresh_from_db()
    expected = _ids([players[1], players[4], players[5], players[2]])  # the next moves up
    _all_agree_on(tournament, expected)


def test_table_winners_the_desk_the_marks_and_the_final_agree(commits):
    """Knock-out: the latest preliminary round's table winners and its best runner-up, not the
    first four of the ranking by table wins over both rounds."""
    tournament, players = _tournament(fmt="table_winners", rounds=2, players=12)
    groups = [players[0:4], players[4:8], players[8:12]]
    round_, tables = make_round(tournament, 1, groups)
    with commits():
        for table, group in zip(tables, groups, strict=True):
            play(table, {p: 5000 - 400 * i for i, p in enumerate(group)})  # 0, 4, 8 win
        desk_rounds.close_round(round_=round_)
    p = players
    groups = [[p[1], p[5], p[9], p[0]], [p[2], p[6], p[10], p[4]], [p[3], p[7], p[11], p[8]]]
    round_, tables = make_round(tournament, 2, groups)
    with commits():
        for table, group in zip(tables, groups, strict=True):
            play(table, {p: 3000 - 400 * i - 10 * table.number for i, p in enumerate(group)})
        desk_rounds.close_round(round_=round_)
    tournament.refresh_from_db()
    expected = _ids([p[1], p[2], p[3], p[5]])  # round 2's winners, its best runner-up
    _all_agree_on(tournament, expected)


def test_verify_reports_a_final_seated_with_others_than_the_finalists(commits):
    tournament, players, _tables = _round_one(commits)
    final = desk_rounds.seat_final(tournament=tournament)
    assert _differences(tournament) == []
    final.seats.filter(player=players[5]).update(player=players[6])  # edited behind its back
    differences = _differences(tournament)
    assert len(differences) == 1 and "Spieler 5" in differences[0]
    assert "Spieler 6" in differences[0]


def test_once_the_final_is_seated_its_players_are_the_qualified_ones(commits):
    """A finalist who leaves after the final began keeps the seat, and the mark: the standings
    do not mark someone who is not in the final, and the record check agrees."""
    tournament, players, _tables = _round_one(commits)
    final = desk_rounds.seat_final(tournament=tournament)
    rounds_services.lock_round(round_=final)
    rounds_services.start_round(round_=final)
    play(final.tables.get(), {seat.player: 2000 for seat in final.seats.all()}, confirm=False)
    players_services.drop_out(player=players[0])
    tournament.refresh_from_db()
    assert _public_marks(tournament) == _seated(final)
    assert {row["player"] for row in standings.standings(tournament, scope=Scope.LIVE)
            if row["qualified"]} == _seated(final)
    assert _differences(tournament) == []


def test_a_deduction_during_the_final_leaves_who_qualified_for_it(commits):
    """A deduction recorded while the final is played belongs to the final's round: it counts
    in the standings, but who qualified from the preliminary rounds stays who is seated (the
    record check does not call the seating wrong, the desk lists the same four)."""
    tournament, players, _tables = _round_one(commits)
    qualified = _desk_list(tournament)
    final = desk_rounds.seat_final(tournament=tournament)
    rounds_services.lock_round(round_=final)
    rounds_services.start_round(round_=final)
    judge, _second = _judges(tournament)
    # Spieler 1 (a qualifier) loses 10 points: without the final's round he would not qualify
    with commits():
        incident = incidents.record_incident(
            player=players[1], level=Incident.Level.DEDUCTION, note="Unsportlich im Finale",
            by=judge, points=10)
    assert incident.round_number == final.number
    tournament.refresh_from_db()
    assert qualified == _seated(final)
    assert set(finalists(tournament)) == qualified
    assert _differences(tournament) == []


def test_the_result_page_says_why_a_settled_result_is_not_reopened(client, commits):
    """Where reopening would be refused (the final seated from it, the winner crowned), the
    result page says why and what to do instead of offering a form that is refused."""
    tournament, _players, tables = _round_one(commits)
    judge, _judge2 = _judges(tournament)
    game = Game.objects.get(table=tables[0])
    client.force_login(judge)
    page = f"/manage/k/results/{game.pk}/"
    assert 'data-form="reopen"' in client.get(page).content.decode()

    final = desk_rounds.seat_final(tournament=tournament)
    for language, words in (("de", "Diese Runde löschen"), ("en", "Delete this round")):
        html = client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert 'data-reopen-refused="result_settled"' in html and words in html
        assert 'data-form="reopen"' not in html

    desk_rounds.delete_round(round_=final, reason="Ergebnis von Tisch 1 prüfen")
    assert 'data-form="reopen"' in client.get(page).content.decode()
    final_round, final_game = _crowned(tournament, commits)
    html = client.get(f"/manage/k/results/{final_game.pk}/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-reopen-refused="result_settled"' in html and "Undo the crowning" in html


def test_the_seated_final_lists_no_player_as_missing_from_it(client, commits):
    """The final seats its finalists only: its round page does not list the other checked-in
    players as "checked in but not seated … seat the round again to include them"."""
    tournament, _players, _tables = _round_one(commits)
    final = desk_rounds.seat_final(tournament=tournament)
    assert seating_overview(final).unseated == []
    client.force_login(OrganizerFactory(tournaments=[tournament]))
    html = client.get(f"/manage/k/rounds/{final.number}/", HTTP_ACCEPT_LANGUAGE="en")
    assert html.status_code == 200
    assert "not seated in this round" not in html.content.decode()
