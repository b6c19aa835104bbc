"""Who may write to a table's game, and when (issue 14, "Lifecycle gates"); the head referee's
rulings on results (dispute ruled, figures amended, result reopened and confirmed again), each
recorded in the audit log with who, before → after and the reason."""

from __future__ import annotations

import datetime as dt

import pytest
from consoles import open_link, post_event
from django.test import Client
from django.utils import timezone
from factories import OrganizerFactory, UserFactory, appoint, seated_table
from gameplay import T0, cash_by_seat, play

from referee import errors, results, rulings, services
from referee.models import GameResult, Placement
from referee.results import revision_of
from tournament import audit, banker_links
from tournament.models import Round, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(banker):
    return seated_table(banker=banker, players=4)




def test_a_void_after_confirmation_is_refused_in_both_languages(client, banker, table):
    game = play(table, cash_by_seat(table))  # counted and confirmed with the code
    client.force_login(banker)
    response = post_event(client, table, {"type": "void", "event": game.event_count - 1,
                                          "reason": "Tippfehler"})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "result_confirmed"
    assert "confirmed" in body["message_en"] and "bestätigt" in body["message_de"]
    game.refresh_from_db()
    assert game.result.status == GameResult.Status.CONFIRMED


def test_the_console_takes_no_event_while_the_round_is_only_seated(client, banker, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.SEATED)
    client.force_login(banker)
    response = post_event(client, table, {"type": "start"})
    assert response.status_code == 409
    assert response.json()["code"] == "round_not_running"
    assert "läuft nicht" in response.json()["message_de"]


def test_a_closed_round_takes_no_event_either_also_through_its_link(client, table):
    link = open_link(client, table)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.COMPLETE)
    assert post_event(client, table, {"type": "start"}).status_code in (403, 409)
    assert client.get(banker_links.link_path(link)).status_code == 403  # the link stopped


def test_only_a_reason_reopens_a_result_and_it_must_be_confirmed_again(client, table, judge):
    game = play(table, cash_by_seat(table))
    with pytest.raises(errors.ReasonRequired):
        rulings.reopen_result(game_id=game.pk, revision=revision_of(game.pk), reason="  ", by=judge)
    rulings.reopen_result(game_id=game.pk, revision=revision_of(game.pk),
                          reason="Miete falsch gezählt", by=judge)
    game.refresh_from_db()
    assert game.result.status == GameResult.Status.COUNTED
    assert game.result.confirmed_by is None
    results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                           code=game.confirmation_code, by=None)
    game.refresh_from_db()
    assert game.result.status == GameResult.Status.CONFIRMED
    entries = audit.lines(audit.entries(table.round.tournament, what="result.reopen"))
    assert entries and entries[0].reason == "Miete falsch gezählt"
    assert entries[0].actor == "mrmonopoly"
    assert ("status", "confirmed", "counted") in entries[0].changes


def test_the_head_referee_reopens_on_the_result_page_and_confirms_again(client, table, judge):
    game = play(table, cash_by_seat(table))
    client.force_login(judge)
    slug = table.round.tournament.slug
    refused = client.post(f"/manage/{slug}/results/{game.pk}/reopen/",
                          {"reason": "", "revision": revision_of(game.pk)})
    assert refused.status_code == 400 and "Begründung" in refused.content.decode()
    client.post(f"/manage/{slug}/results/{game.pk}/reopen/", {"reason": "Zählfehler",
                                                              "revision": revision_of(game.pk)})
    page = client.get(f"/manage/{slug}/results/{game.pk}/").content.decode()
    assert 'data-result-status="counted"' in page and "Zählfehler" in page
    client.post(f"/manage/{slug}/results/{game.pk}/resolve/", {"note": "Neu gezählt, passt",
                                                               "revision": revision_of(game.pk)})
    game.refresh_from_db()
    assert game.result.status == GameResult.Status.CONFIRMED


def test_an_organizer_of_another_tournament_cannot_reopen(client, table):
    game = play(table, cash_by_seat(table))
    client.force_login(OrganizerFactory(tournaments=[]))
    slug = table.round.tournament.slug
    assert client.post(f"/manage/{slug}/results/{game.pk}/reopen/",
                       {"reason": "x", "revision": revision_of(game.pk)}).status_code \
        == 403
    game.refresh_from_db()
    assert game.result.status == GameResult.Status.CONFIRMED


def test_a_dispute_is_amended_with_a_reason_and_audited(client, table, judge, banker):
    """Issue 24, finding 4: the places follow from the amended figures (a raised net worth
    above the player in 2nd takes 1st), so the standings never give more points to less."""
    game = play(table, cash_by_seat(table), confirm=False)
    results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                           note="Hotel vergessen", by=banker)
    placements = {p.player_id: p for p in Placement.objects.filter(result__game=game)}
    standing = sorted((p for p in placements.values() if not p.bankrupt), key=lambda p: p.place)
    first, second = standing[0], standing[1]
    client.force_login(judge)
    slug = table.round.tournament.slug
    form = {"reason": "Hotel auf Schlossallee nicht gezählt", "revision": revision_of(game.pk)}
    for pid, p in placements.items():
        form[f"net_worth-{pid}"] = p.net_worth
    form[f"net_worth-{second.player_id}"] = first.net_worth + 500
    assert client.post(f"/manage/{slug}/results/{game.pk}/", form).status_code == 302
    second.refresh_from_db()
    first.refresh_from_db()
    assert (second.place, second.net_worth) == (1, first.net_worth + 500)
    assert first.place == 2
    game.refresh_from_db()
    assert game.result.status == GameResult.Status.DISPUTED  # still needs the ruling
    with pytest.raises(errors.ReasonRequired):
        rulings.resolve_dispute(game_id=game.pk, revision=revision_of(game.pk), note="", by=judge)
    # four eyes: whoever amended the figures does not rule on them (walk2)
    with pytest.raises(errors.SecondPersonRequired):
        rulings.resolve_dispute(game_id=game.pk, revision=revision_of(game.pk),
                                note="Zählung korrigiert", by=judge)
    second = appoint(UserFactory(username="zweite"), StaffRole.Role.HEAD_REFEREE,
                     table.round.tournament)
    rulings.resolve_dispute(game_id=game.pk, revision=revision_of(game.pk),
                            note="Zählung korrigiert", by=second)
    game.refresh_from_db()
    assert game.result.status == GameResult.Status.CONFIRMED
    audit_page = client.get(f"/manage/{slug}/audit/?action=result.amend").content.decode()
    assert "Hotel auf Schlossallee nicht gezählt" in audit_page


def test_an_amended_place_that_contradicts_the_figures_is_refused_with_the_reason(table, judge):
    game = play(table, cash_by_seat(table), confirm=False)
    placements = {p.player_id: p for p in Placement.objects.filter(result__game=game)}
    standing = sorted((p for p in placements.values() if not p.bankrupt), key=lambda p: p.place)
    figures = {pid: {"place": p.place, "net_worth": p.net_worth} for pid, p in placements.items()}
    figures[standing[1].player_id] = {"place": 2, "net_worth": standing[0].net_worth + 1}
    with pytest.raises(errors.BadAmendment) as refused:
        rulings.amend_result(game_id=game.pk, revision=revision_of(game.pk),
                             figures=figures, reason="Nachzählung", by=judge)
    assert refused.value.code == "bad_amendment"
    assert "follow from the net worth" in refused.value.message_in("en")
    assert "folgen aus dem Vermögen" in refused.value.message_in("de")
    assert {p.player_id: p.place for p in Placement.objects.filter(result__game=game)} == {
        pid: p.place for pid, p in placements.items()}


def test_bad_amendments_are_refused(table, judge):
    game = play(table, cash_by_seat(table), confirm=False)
    with pytest.raises(errors.BadAmendment):
        rulings.amend_result(game_id=game.pk, revision=revision_of(game.pk),
                             figures={1: {"place": "x"}}, reason="r", by=judge)
    with pytest.raises(errors.ReasonRequired):
        rulings.amend_result(game_id=game.pk, revision=revision_of(game.pk),
                             figures={}, reason="", by=judge)




def test_extra_minutes_move_one_tables_deadlines_and_show_everywhere(client, table, judge):
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    game.refresh_from_db()
    limit_before = game.time_up_due
    client.force_login(judge)
    slug = table.round.tournament.slug
    refused = client.post(f"/manage/{slug}/games/{game.pk}/extra-time/", {"minutes": 5})
    assert refused.status_code == 400  # no reason given
    client.post(f"/manage/{slug}/games/{game.pk}/extra-time/",
                {"minutes": 5, "reason": "Tisch wackelte, Neuaufbau"})
    game.refresh_from_db()
    assert game.extra_minutes == 5
    assert game.time_up_due - limit_before == dt.timedelta(minutes=5)
    # the old deadline passes without a time_up; the new one ends the game
    passed = services.enforce_deadlines(game_id=game.pk, now=limit_before + dt.timedelta(seconds=30))
    assert [event.type for event in passed] == ["auction_stop"]  # at 50 minutes now, no time_up
    state = client.get(f"/api/v1/tables/{table.pk}/state").json()
    assert state["clock"]["extra_minutes"] == 5
    assert state["clock"]["time_limit_seconds"] == (90 + 5) * 60
    public = Client().get(f"/t/{slug}/tables/1/").content.decode()
    assert 'data-extra-minutes="5"' in public
    console = client.get(f"/banker/table/{table.pk}/").content.decode()
    assert 'data-extra-minutes="5"' in console and 'data-testid="head-referee-banner"' in console
    lines = audit.lines(audit.entries(table.round.tournament, what="time.extra"))
    assert lines[0].reason == "Tisch wackelte, Neuaufbau" and lines[0].actor == "mrmonopoly"
    events = services.enforce_deadlines(game_id=game.pk, now=game.time_up_due)
    assert [event.type for event in events][-1] == "time_up"


def test_a_delayed_round_start_is_recorded(client, table, judge):
    Round.objects.filter(pk=table.round_id).update(started_at=T0)
    client.force_login(judge)
    slug = table.round.tournament.slug
    client.post(f"/manage/{slug}/rounds/1/delay/", {"minutes": 15, "reason": "Saal nicht frei"})
    table.round.refresh_from_db()
    assert table.round.started_at == T0 + dt.timedelta(minutes=15)
    assert audit.lines(audit.entries(table.round.tournament, what="time.delay"))[0].reason \
        == "Saal nicht frei"


def test_a_paper_result_is_entered_shown_counted_and_confirmed_by_a_second_person(
    client, table, judge, django_capture_on_commit_callbacks
):
    seats = list(table.seats.order_by("position"))
    slug = table.round.tournament.slug
    client.force_login(judge)
    form = {"end_reason": "time_limit", "ended_at": timezone.localtime().strftime("%H:%M"),
            "note": "Konsole ausgefallen"}  # an end time not to come
    # Anna 3,000 in parts, Ben 2,500 in total, Carla bankrupt second, Dieter bankrupt first
    form.update({f"cash-{seats[0].player_id}": 1000, f"deeds-{seats[0].player_id}": 1500,
                 f"houses-{seats[0].player_id}": 500})
    form[f"net_worth-{seats[1].player_id}"] = 2500
    form[f"bankrupt-{seats[2].player_id}"] = 2
    form[f"bankrupt-{seats[3].player_id}"] = 1
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/manage/{slug}/rounds/1/tables/1/paper/", form)
    assert response.status_code == 302
    result = GameResult.objects.get(game__table=table)
    assert result.from_paper and result.status == GameResult.Status.COUNTED
    places = {p.player_id: (p.place, p.net_worth, p.bankrupt) for p in result.placements.all()}
    assert places == {
        seats[0].player_id: (1, 3000, False), seats[1].player_id: (2, 2500, False),
        seats[2].player_id: (3, 0, True), seats[3].player_id: (4, 0, True),
    }
    public = Client().get(f"/t/{slug}/tables/1/").content.decode()
    assert "data-from-paper" in public and "Papierbogen" in public
    # the person who entered it cannot confirm it alone …
    refused = client.post(f"/manage/{slug}/results/{result.game_id}/resolve/",
                          {"note": "ok", "revision": revision_of(result.game_id)})
    assert refused.status_code == 403
    # … not even with the table's code, which staff can read (issue 24, finding 3) …
    code = result.game.confirmation_code
    refused = client.post(f"/manage/{slug}/results/{result.game_id}/code/",
                          {"code": code, "revision": revision_of(result.game_id)})
    assert refused.status_code == 403
    result.refresh_from_db()
    assert result.status == GameResult.Status.COUNTED
    # … a second staff member with the table's code can
    second = UserFactory()
    appoint(second, StaffRole.Role.HEAD_REFEREE, table.round.tournament)
    client.force_login(second)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/manage/{slug}/results/{result.game_id}/code/",
                    {"code": code, "revision": revision_of(result.game_id)})
    result.refresh_from_db()
    assert result.status == GameResult.Status.CONFIRMED
    from scoring.standings import selectors

    winner = selectors.place_of(table.round.tournament, player_id=seats[0].player_id)
    assert winner.points > 0 and winner.rank == 1  # counted like any result
    assert audit.lines(audit.entries(table.round.tournament, what="result.paper"))[0].reason \
        == "Konsole ausgefallen"


def test_a_paper_sheet_that_does_not_add_up_is_refused(client, table, judge):
    seats = list(table.seats.order_by("position"))
    client.force_login(judge)
    form = {"end_reason": "time_limit", f"bankrupt-{seats[0].player_id}": 1,
            f"bankrupt-{seats[1].player_id}": 1}
    response = client.post(f"/manage/{table.round.tournament.slug}/rounds/1/tables/1/paper/", form)
    assert response.status_code == 400
    assert not GameResult.objects.exists()


def _two_tables():
    from factories import PlayerFactory, TournamentFactory
    from gameplay import make_round

    from tournament.models import Tournament

    tournament = TournamentFactory(slug="zwei", status=Tournament.Status.RUNNING, table_size=5)
    people = [PlayerFactory(tournament=tournament) for _ in range(9)]
    round_, tables = make_round(tournament, 1, [people[:5], people[5:]])
    judge = appoint(UserFactory(username="oberschiri"), StaffRole.Role.HEAD_REFEREE, tournament)
    return tournament, round_, tables, people, judge


def test_seating_edits_stop_when_the_round_runs_but_the_head_referee_moves_with_a_reason(client):
    from tournament import errors as tournament_errors
    from tournament.rounds import services as tournament_services

    tournament, round_, (one, two), people, judge = _two_tables()
    game_two = services.ensure_game(table=two)  # opened, nothing happened yet
    with pytest.raises(tournament_errors.InvalidTransition):
        tournament_services.swap_players(round_=round_, a=people[0].pk, b=people[5].pk,
                                         version=round_.version)
    client.force_login(judge)
    desk = client.get("/manage/zwei/desk/").content.decode()
    assert 'data-form="move-player"' in desk
    no_reason = client.post("/manage/zwei/rounds/1/referee-move/", {"player": people[0].pk,
                                                           "to_table": 2, "reason": ""})
    assert no_reason.status_code == 400
    moved = client.post("/manage/zwei/rounds/1/referee-move/", {
        "player": people[0].pk, "to_table": 2, "reason": "Spätankömmling an Tisch 2"})
    assert moved.status_code == 302
    assert people[0].seats.get(round=round_).table_id == two.pk
    game_two.refresh_from_db()
    assert len(game_two.players) == 5  # the untouched game follows the new seating
    line = audit.lines(audit.entries(tournament, what="seat.move"))[0]
    assert line.reason == "Spätankömmling an Tisch 2" and line.actor == "oberschiri"


def test_no_one_moves_to_or_from_a_table_whose_game_has_begun(client):
    tournament, round_, (one, two), people, judge = _two_tables()
    game = services.ensure_game(table=two)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    with pytest.raises(errors.GameBegun):
        rulings.move_player(round_id=round_.pk, player_id=people[0].pk, to_table=2,
                            reason="zu spät", by=judge)
    client.force_login(judge)
    refused = client.post("/manage/zwei/rounds/1/referee-move/", {
        "player": people[5].pk, "to_table": 1, "reason": "zu spät"})
    assert refused.status_code == 409 and "begonnen" in refused.content.decode()
    assert people[5].seats.get(round=round_).table_id == two.pk


def _full_tables():
    from factories import PlayerFactory, TournamentFactory
    from gameplay import make_round

    from tournament.models import Tournament

    tournament = TournamentFactory(slug="voll", status=Tournament.Status.RUNNING, table_size=4)
    people = [PlayerFactory(tournament=tournament) for _ in range(12)]
    round_, tables = make_round(tournament, 1, [people[:4], people[4:8], people[8:]])
    judge = appoint(UserFactory(username="oberschiri"), StaffRole.Role.HEAD_REFEREE, tournament)
    return tournament, round_, tables, people, judge


def test_at_full_tables_the_head_referee_swaps_two_players_with_a_reason_and_a_preview(client):
    """Issue 28: at full tables a move is always refused (7 at a table); a swap keeps the sizes.
    Before either game has begun, in a running round, audited with the reason."""
    tournament, round_, (one, two, three), people, judge = _full_tables()
    game_two = services.ensure_game(table=two)  # opened, nothing happened yet
    client.force_login(judge)
    refused = client.post("/manage/voll/rounds/1/referee-move/", {
        "player": people[0].pk, "to_table": 2, "reason": "Vereinskollegen"})
    assert refused.status_code in (400, 409)  # the move cannot succeed here
    desk = client.get("/manage/voll/desk/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-form="swap-players"' in desk and "/manage/voll/rounds/1/referee-swap/" in desk
    # the preview (the organizer's, read only) says what the swap does before it is saved
    preview = client.get("/manage/voll/rounds/1/preview/", {
        "action": "swap", "a": people[0].pk, "b": people[4].pk, "version": round_.version},
        HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert preview.status_code == 200 and "data-repeats-after" in preview.content.decode()
    assert 'id="swap-save"' in preview.content.decode()
    assert "disabled" not in preview.content.decode().split('id="swap-save"')[1].split(">")[0]
    no_reason = client.post("/manage/voll/rounds/1/referee-swap/", {
        "a": people[0].pk, "b": people[4].pk, "reason": ""})
    assert no_reason.status_code == 400
    swapped = client.post("/manage/voll/rounds/1/referee-swap/", {
        "a": people[0].pk, "b": people[4].pk, "reason": "Vereinskollegen getrennt"})
    assert swapped.status_code == 302
    assert people[0].seats.get(round=round_).table_id == two.pk
    assert people[4].seats.get(round=round_).table_id == one.pk
    assert [one.seats.count(), two.seats.count()] == [4, 4]
    game_two.refresh_from_db()
    assert str(people[0].pk) in game_two.players  # the untouched game follows the new seating
    line = audit.lines(audit.entries(tournament, what="seat.swap"))[0]
    assert line.reason == "Vereinskollegen getrennt" and line.actor == "oberschiri"
    # once a game has begun, nobody is swapped to or from its table
    services.post_event(game_id=game_two.pk, event={"type": "start"}, author=None, now=T0)
    refused = client.post("/manage/voll/rounds/1/referee-swap/", {
        "a": people[1].pk, "b": people[0].pk, "reason": "zu spät"})
    assert refused.status_code == 409 and "begonnen" in refused.content.decode()
    assert people[0].seats.get(round=round_).table_id == two.pk
    # the desk offers only the untouched tables' players (table 2 is gone from the choices)
    desk = client.get("/manage/voll/desk/").content.decode()
    swap_form = desk.split('data-form="swap-players"')[1].split("</details>")[0]
    assert f'<option value="{people[0].pk}">' not in swap_form
    assert f'<option value="{people[8].pk}">' in swap_form
    # a desk volunteer is not offered it and may not
    desk_user = appoint(UserFactory(), StaffRole.Role.DESK, tournament)
    client.force_login(desk_user)
    assert 'data-form="swap-players"' not in client.get("/manage/voll/desk/").content.decode()
    assert client.post("/manage/voll/rounds/1/referee-swap/", {
        "a": people[1].pk, "b": people[8].pk, "reason": "x"}).status_code == 403


def test_a_delay_is_for_a_running_round_only(client, table, judge):
    """Before the start a delay would be overwritten by the start itself: refused, with why."""
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.LOCKED, started_at=None)
    client.force_login(judge)
    refused = client.post(f"/manage/{table.round.tournament.slug}/rounds/1/delay/",
                          {"minutes": 10, "reason": "Saal nicht frei"})
    assert refused.status_code == 409 and "läuft nicht" in refused.content.decode()
    table.round.refresh_from_db()
    assert table.round.started_at is None
