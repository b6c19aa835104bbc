"""A result of record is the game played plus the staff's recorded rulings: no write decided
against an older state of the result replaces it silently (``GameResult.revision``), and no
console count or reopened count drops a paper sheet, an amendment or a dispute.

Each test replays a sequence a review reproduced (a console tab opened before the desk acted,
a desk form opened before the banker re-counted) and checks the record with ``manage.py
verify``'s function.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from consoles import main, result_revision
from django.test import Client
from factories import seated_table
from gameplay import T0, cash_by_seat, play

from referee import errors, paper, results, rulings, services
from referee.models import Game, GameResult
from referee.results import revision_of
from scoring.verify import verify_tournament
from tournament import audit
from tournament.models import Round

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def table(banker):
    return seated_table(banker=banker, players=4)


def differences(table) -> list[str]:
    return [str(d) for d in verify_tournament(tournament=table.round.tournament).differences]


def shown_revision(html: str) -> int:
    """The revision a page's result forms carry (all of them carry the same)."""
    found = set(re.findall(r'name="revision" value="(\d+)"', html))
    assert len(found) == 1, found
    return int(found.pop())


def figures(game) -> list[tuple[int, int, int, bool]]:
    result = GameResult.objects.get(game=game)
    return sorted((p.player_id, p.place, p.net_worth, bool(p.breakdown.get("amended")))
                  for p in result.placements.all())


def post(client, table, action, **data):
    return client.post(f"/banker/table/{table.pk}/{action}/", data, **EN)


def enter_sheet(table, judge, *, base=3000):
    seats = list(table.seats.order_by("position"))
    lines = [paper.PaperLine(player_id=s.player_id, net_worth=base - 100 * s.position)
             for s in seats]
    return paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit",
                                    ended_at=None, by=judge, note="Tablet kaputt")


def raised(game, by_player: int = 5000) -> dict:
    """Amended figures: the last placed player's net worth raised."""
    placements = GameResult.objects.get(game=game).placements.all()
    return {p.player_id: {"net_worth": p.net_worth + (by_player if p.place == 4 else 0),
                          "place": ""} for p in placements}


# --------------------------------------------------------------------------- a stale count


def test_a_paper_result_is_not_replaced_by_a_console_tab_opened_before(client, banker, judge,
                                                                       table):
    """Finding 3: the sheet entered at the desk, then "Count finished" on a tab opened earlier
    (its revision is of no result)."""
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    client.force_login(banker)
    seen = result_revision(table)  # what the banker's tab showed: no result yet
    enter_sheet(table, judge)
    sheet = figures(game)
    answer = post(client, table, "count", seq=Game.objects.get(pk=game.pk).event_count,
                  revision=seen).content.decode()
    assert "A result from the paper sheet stands for table" in answer
    result = GameResult.objects.get(game=game)
    assert result.from_paper and figures(game) == sheet
    assert differences(table) == []


def test_an_amendment_is_not_erased_by_a_stale_count(client, banker, judge, table):
    """Finding 4: the head referee's amended figures and their mark stay."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    seen = revision_of(game.pk)
    rulings.amend_result(game_id=game.pk, figures=raised(game), reason="Hotel vergessen",
                         by=judge, revision=seen)
    amended = figures(game)
    assert any(mark for *_rest, mark in amended)
    client.force_login(banker)
    answer = post(client, table, "count", seq=game.event_count, revision=seen).content.decode()
    assert "The tournament officials amended the result of table" in answer  # a head referee or an organizer
    assert figures(game) == amended
    assert differences(table) == []


def test_a_disputed_result_is_not_counted_back_to_counted(client, banker, table):
    """Finding 4: a stale count does not turn a dispute back into a plain count."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    seen = revision_of(game.pk)
    results.dispute_result(game_id=game.pk, note="Hotel vergessen", by=banker, revision=seen)
    client.force_login(banker)
    answer = post(client, table, "count", seq=game.event_count, revision=seen).content.decode()
    assert "is disputed: the head referee rules on it" in answer
    result = GameResult.objects.get(game=game)
    assert (result.status, result.dispute_note) == ("disputed", "Hotel vergessen")


def test_the_same_plain_count_again_is_answered_with_the_count(client, banker, table):
    """A second tap or a stale tab counting the same record: nothing is written."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    before = GameResult.objects.get(game=game)
    counted = figures(game)
    client.force_login(banker)
    answer = post(client, table, "count", seq=game.event_count, revision=0).content.decode()
    assert "Counted. Now a second person confirms." in answer and "error-box" not in answer
    after = GameResult.objects.get(game=game)
    assert (after.pk, after.revision, after.counted_at) == (before.pk, before.revision,
                                                           before.counted_at)
    assert figures(game) == counted
    assert len(audit.entries(table.round.tournament, what="result.count")) == 1


# --------------------------------------------------------------------------- a dispute


def test_a_disputed_result_is_confirmed_only_by_the_head_referees_ruling(client, banker, judge,
                                                                        table):
    """Finding 5: not with the players' code, not with the console's "confirm as head
    referee" (no note); the console offers neither and says who rules."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    results.dispute_result(game_id=game.pk, note="Hotel vergessen", by=banker,
                           revision=revision_of(game.pk))
    client.force_login(banker)
    page = main(client, table).content.decode()
    assert 'name="code"' not in page and 'data-standing="disputed"' in page
    answer = post(client, table, "confirm", code=game.confirmation_code,
                  revision=result_revision(table)).content.decode()
    assert "is disputed: the head referee rules on it" in answer
    assert GameResult.objects.get(game=game).status == "disputed"
    with pytest.raises(errors.ResultStands):
        results.confirm_result(game_id=game.pk, code=game.confirmation_code, by=None,
                               revision=revision_of(game.pk))

    head = Client()
    head.force_login(judge)
    page = main(head, table).content.decode()
    assert 'name="head_referee"' not in page and 'name="code"' not in page
    post(head, table, "confirm", head_referee="1", revision=result_revision(table))
    assert GameResult.objects.get(game=game).status == "disputed"

    rulings.resolve_dispute(game_id=game.pk, note="Hotel war nicht gebaut", by=judge,
                            revision=revision_of(game.pk))
    result = GameResult.objects.get(game=game)
    assert (result.status, result.resolved_note) == ("confirmed", "Hotel war nicht gebaut")


# --------------------------------------------------------------------------- a stale desk form


def test_a_stale_amendment_form_does_not_revert_the_bankers_recount(client, banker, judge,
                                                                   table):
    """Finding 6: the head referee's result page was opened; meanwhile the banker reopened the
    count, booked a correction and counted again; the old form is refused (409), naming what
    changed, and the banker's count stands."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    slug = table.round.tournament.slug
    client.force_login(judge)
    page = client.get(f"/manage/{slug}/results/{game.pk}/").content.decode()
    seen = shown_revision(page)
    old = {p.player_id: p.net_worth for p in GameResult.objects.get(game=game).placements.all()}

    results.reopen_count(game_id=game.pk, by=banker, revision=revision_of(game.pk))
    last = table.seats.order_by("-position").first().player
    services.post_event(game_id=game.pk, event={"type": "cash", "player": str(last.pk),
                                                "amount": 9000},
                        author=banker, now=T0 + dt.timedelta(minutes=95))
    results.count_result(game_id=game.pk, author=banker, revision=revision_of(game.pk))
    recount = figures(game)

    form = {f"net_worth-{pid}": str(worth) for pid, worth in old.items()}
    form.update(reason="Hausbank korrigiert", revision=str(seen))
    answer = client.post(f"/manage/{slug}/results/{game.pk}/", form, **EN)
    assert answer.status_code == 409
    assert "changed since this page was opened (latest change: Result counted, by" in (
        answer.content.decode())
    assert figures(game) == recount
    assert differences(table) == []


@pytest.mark.parametrize("write", ["amend", "dispute", "resolve", "reopen", "confirm"])
def test_every_result_write_is_refused_against_an_older_revision(banker, judge, table, write):
    """Every service that writes a result checks the revision the page showed."""
    game = play(table, cash_by_seat(table), confirm=write == "reopen", author=banker)
    old = revision_of(game.pk)
    if write == "reopen":  # a confirmed result moved on: reopened and confirmed again
        rulings.reopen_result(game_id=game.pk, reason="Zählfehler", by=judge, revision=old)
        results.confirm_result(game_id=game.pk, code=game.confirmation_code, by=None,
                               revision=revision_of(game.pk))
    else:
        rulings.amend_result(game_id=game.pk, figures=raised(game, 10), reason="Nachzählung",
                             by=judge, revision=old)
    assert revision_of(game.pk) > old
    calls = {
        "amend": lambda: rulings.amend_result(game_id=game.pk, figures=raised(game, 20),
                                              reason="alt", by=judge, revision=old),
        "dispute": lambda: results.dispute_result(game_id=game.pk, note="alt", by=banker,
                                                  revision=old),
        "resolve": lambda: rulings.resolve_dispute(game_id=game.pk, note="alt", by=judge,
                                                   revision=old),
        "reopen": lambda: rulings.reopen_result(game_id=game.pk, reason="alt", by=judge,
                                                revision=old),
        "confirm": lambda: results.confirm_result(game_id=game.pk, code=game.confirmation_code,
                                                  by=None, revision=old),
    }
    before = GameResult.objects.get(game=game)
    with pytest.raises(errors.ResultChanged) as refused:
        calls[write]()
    assert refused.value.http_status == 409
    assert "check the result as it is now" in refused.value.message_in("en")
    assert "wie es jetzt ist" in refused.value.message_in("de")
    after = GameResult.objects.get(game=game)
    assert (after.status, after.revision) == (before.status, before.revision)


# --------------------------------------------------------------------------- reopen the count


def test_the_count_of_a_paper_result_is_not_reopened_at_the_console(client, banker, judge,
                                                                    table):
    """Finding 2: "Reopen the count" would delete the sheet and leave the game ended with its
    figures; it is not offered and refused."""
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=T0)
    enter_sheet(table, judge)
    client.force_login(banker)
    assert 'data-testid="reopen-count"' not in main(client, table).content.decode()
    answer = post(client, table, "reopen-count", revision=result_revision(table))
    assert "A result from the paper sheet stands" in answer.content.decode()
    assert GameResult.objects.get(game=game).from_paper
    assert differences(table) == []


def test_in_a_closed_round_the_count_is_not_taken_back(client, banker, judge, table):
    """Finding 12: the head referee reopened a result of a closed round; taking its count back
    would leave a table without a result that nobody can count again, so it is refused
    (reopen the round first) and the result stays to be confirmed."""
    game = play(table, cash_by_seat(table), author=banker)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.COMPLETE)
    rulings.reopen_result(game_id=game.pk, reason="Zählfehler", by=judge,
                          revision=revision_of(game.pk))
    client.force_login(judge)
    assert 'data-testid="reopen-count"' not in main(client, table).content.decode()
    answer = post(client, table, "reopen-count", revision=result_revision(table))
    assert "Reopen the round first" in answer.content.decode()
    assert GameResult.objects.filter(game=game).exists()
    assert differences(table) == []


def test_a_reopened_count_is_never_matched_by_a_page_of_the_old_result(banker, judge, table):
    """The result goes, its revision stays with the game: the next count is a later one."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    old = revision_of(game.pk)
    results.reopen_count(game_id=game.pk, by=banker, revision=old)
    assert Game.objects.get(pk=game.pk).result_revision == old + 1
    results.count_result(game_id=game.pk, author=banker, revision=old + 1)
    assert revision_of(game.pk) == old + 2
    with pytest.raises(errors.ResultChanged):
        results.dispute_result(game_id=game.pk, note="alt", by=banker, revision=old)
