"""Results from the paper sheet (issue 24, finding 2): every line decides its player's place,
parts and total agree, refusals stand at the line they concern (German and English), replacing
a pending result is asked first and audited, and the public table page, its feed, the table's
card and the score sheet show the sheet's places and figures."""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
import subprocess

import pytest
from django.test import Client
from django.utils import timezone, translation
from factories import UserFactory, appoint, seated_table

from printing import data
from printing import documents as printing
from referee import errors, paper, results
from referee.models import Game, GameResult
from referee.selectors import staff_state_label
from tournament import audit
from tournament.models import Round, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return seated_table(players=4)


@pytest.fixture
def seats(table):
    return list(table.seats.select_related("player").order_by("position"))


@pytest.fixture
def judge(client, table):
    user = appoint(UserFactory(username="mrmonopoly"), StaffRole.Role.HEAD_REFEREE,
                   table.round.tournament)
    client.force_login(user)
    return user


def url(table):
    return f"/manage/{table.round.tournament.slug}/rounds/1/tables/{table.number}/paper/"


def this_minute() -> str:
    """The sheet's end time: now (an end time still to come is refused)."""
    return timezone.localtime().strftime("%H:%M")


def sheet(seats, **extra):
    """Anna 3,000 in parts, Ben 2,500 as a total, Carla bankrupt second, Dieter first."""
    form = {"end_reason": "time_limit", "ended_at": this_minute(), "note": "Tablet ausgefallen"}
    anna, ben, carla, dieter = (seat.player_id for seat in seats)
    form.update({f"cash-{anna}": "1000", f"deeds-{anna}": "1500", f"houses-{anna}": "500",
                 f"net_worth-{ben}": "2500", f"bankrupt-{carla}": "2", f"bankrupt-{dieter}": "1"})
    form.update(extra)
    return form


def problems_for(html: str, player_id: int) -> str:
    found = re.search(rf'<ul class="errorlist" id="problems-{player_id}">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


def test_an_empty_sheet_is_refused_line_by_line_and_nothing_is_stored(client, table, seats,
                                                                     judge):
    response = client.post(url(table), {"end_reason": "time_limit"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "data-paper-refused" in html and 'data-form="paper"' in html  # the form, not a bare page
    for seat in seats:
        words = problems_for(html, seat.player_id)
        assert seat.player.name in words and "nichts eingetragen" in words
    assert html.count('aria-invalid="true"') == len(seats)
    assert not GameResult.objects.exists()


def test_a_line_without_figures_is_refused_in_english_too(client, table, seats, judge):
    form = sheet(seats)
    del form[f"net_worth-{seats[1].player_id}"]
    response = client.post(url(table), form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    words = problems_for(html, seats[1].player_id)
    assert "Ben Test: nothing entered" in words and "net worth" in words
    assert problems_for(html, seats[0].player_id) == ""  # the other lines are fine
    # what was typed is kept
    assert f'name="cash-{seats[0].player_id}" value="1000"' in html
    assert not GameResult.objects.exists()


def test_parts_that_do_not_add_up_to_the_written_total_are_refused(client, table, seats, judge):
    anna = seats[0].player_id
    form = sheet(seats, **{f"cash-{anna}": "900", f"deeds-{anna}": "600",
                           f"houses-{anna}": "200", f"net_worth-{anna}": "1900"})
    response = client.post(url(table), form)
    assert response.status_code == 400
    words = problems_for(response.content.decode(), anna)
    assert "1.700" in words and "1.900" in words and "Anna Test" in words
    assert not GameResult.objects.exists()


def test_bankrupt_and_figures_a_number_twice_and_unreadable_amounts_are_named(
    client, table, seats, judge
):
    anna, ben, carla, dieter = (seat.player_id for seat in seats)
    form = sheet(seats, **{f"bankrupt-{dieter}": "2"})  # Carla is no. 2 too
    html = client.post(url(table), form, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "no. 2 is also written for Carla Test" in problems_for(html, dieter)
    form = sheet(seats, **{f"bankrupt-{ben}": "3", f"cash-{anna}": "zwölf"})
    response = client.post(url(table), form, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 400
    assert "marked bankrupt (no. 3) and given a net worth" in problems_for(html, ben)
    assert "“zwölf” is not a whole amount" in problems_for(html, anna)
    assert not GameResult.objects.exists()


def test_everyone_bankrupt_is_refused(client, table, seats, judge):
    form = {"end_reason": "second_bankruptcy",
            **{f"bankrupt-{seat.player_id}": str(n) for n, seat in enumerate(seats, start=1)}}
    response = client.post(url(table), form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "at least one player is still in the game" in response.content.decode()
    assert not GameResult.objects.exists()


def test_the_service_refuses_a_line_that_decides_nothing(table, seats):
    lines = [paper.PaperLine(player_id=seat.player_id) for seat in seats]
    with pytest.raises(paper.errors.PaperSheetRefused) as refused:
        paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit",
                                 ended_at=None, by=None)
    assert {problem.player_id for problem in refused.value.problems} == {
        seat.player_id for seat in seats}
    assert "Anna Test" in refused.value.message_in("de")
    assert not GameResult.objects.exists()


def test_a_total_left_empty_is_computed_from_the_parts_and_shown(client, table, seats, judge):
    response = client.post(url(table), sheet(seats), follow=True)
    result = GameResult.objects.get(game__table=table)
    anna = result.placements.get(player_id=seats[0].player_id)
    assert (anna.place, anna.net_worth, anna.breakdown["computed"]) == (1, 3000, True)
    assert "aus den Teilen berechnet: Anna Test 3.000" in response.content.decode()


def test_storing_again_asks_first_and_replacing_is_audited(client, table, seats, judge):
    assert client.post(url(table), sheet(seats)).status_code == 302
    result = GameResult.objects.get(game__table=table)
    before = sorted(result.placements.values_list("player_id", "place", "net_worth"))
    ben = seats[1].player_id
    second = sheet(seats, **{f"net_worth-{ben}": "3500"})  # Ben now first
    asked = client.post(url(table), second)
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "data-replace-asked" in html and "data-pending" in html and "3.500" in html
    assert sorted(result.placements.values_list("player_id", "place", "net_worth")) == before
    token = re.search(r'name="replaces" value="([^"]+)"', html).group(1)
    # a replacement needs a reason
    refused = client.post(url(table), {**second, "note": "", "replaces": token})
    assert refused.status_code == 400 and "problems-note" in refused.content.decode()
    assert sorted(result.placements.values_list("player_id", "place", "net_worth")) == before
    # a token of another (older) version is asked again
    assert "data-replace-asked" in client.post(
        url(table), {**second, "replaces": "0.counted.1"}).content.decode()
    done = client.post(url(table), {**second, "note": "Ben falsch addiert", "replaces": token})
    assert done.status_code == 302
    assert result.placements.get(player_id=ben).place == 1
    lines = audit.lines(audit.entries(table.round.tournament, what="result.paper.replace"))
    assert lines and lines[0].reason == "Ben falsch addiert" and lines[0].actor == "mrmonopoly"


def _place_cells(html: str, section: str) -> list[str]:
    part = re.search(rf"<section {section}>(.*?)</section>", html, re.S).group(1)
    return re.findall(r"<tr[^>]*><td>(?:<mark[^>]*>)?([^<]*)</", part)  # a changed place marked


def test_the_replace_question_names_places_as_ordinals_in_each_language(client, table, seats,
                                                                        judge):
    """Both tables of the question read "1st" in English (the walk: "1." there only) and keep
    "1." in German."""
    assert client.post(url(table), sheet(seats)).status_code == 302
    second = sheet(seats, **{f"net_worth-{seats[1].player_id}": "3500"})
    english = client.post(url(table), second, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.post(url(table), second, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for section in ("data-pending", "data-new"):
        assert _place_cells(english, section) == ["1st", "2nd", "3rd", "4th"], section
        assert _place_cells(german, section) == ["1.", "2.", "3.", "4."], section


def test_the_replace_question_names_the_pending_results_state_as_the_desk_does(
    client, table, seats, judge
):
    """"Pending now" names the state by the desk's one name for it, not the result status's
    own word ("Gezählt, wartet auf Bestätigung")."""
    assert client.post(url(table), sheet(seats)).status_code == 302
    second = sheet(seats, **{f"net_worth-{seats[1].player_id}": "3500"})
    german = client.post(url(table), second, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    line = re.search(r"<p class=\"muted\" data-pending-state>([^<]*)", german).group(1)
    with translation.override("de"):
        assert line.startswith(str(staff_state_label("counted")) + " · ")
    assert "Gezählt, wartet" not in line


def test_back_to_the_sheet_keeps_what_was_typed(client, table, seats, judge):
    client.post(url(table), sheet(seats))
    assert "data-pending-result" in client.get(url(table)).content.decode()
    html = client.post(url(table), {**sheet(seats), "edit": "1"}).content.decode()
    assert 'data-form="paper"' in html and f'name="net_worth-{seats[1].player_id}" value="2500"' \
        in html


def test_the_public_table_page_and_feed_show_the_sheets_places_and_figures(
    client, table, seats, judge, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url(table), sheet(seats))
    slug = table.round.tournament.slug
    html = Client().get(f"/t/{slug}/tables/1/").content.decode()
    assert "data-paper-figures" in html
    assert "Ergebnis vom Papierbogen: 1. Anna Test (3.000), 2. Ben Test (2.500), " \
           "3. Carla Test (bankrott als Nr. 2), 4. Dieter Test (bankrott als Nr. 1)" in html
    assert "An diesem Tisch ist noch nichts geschehen" not in html
    assert html.count("1. Platz") == 1 and "2. Platz" in html and "4. Platz" in html
    assert "3.000" in html and "2.500" in html and "1.500" not in html
    # the table's card on the overview names the sheet's leader
    game = Game.objects.get(table=table)
    assert game.summary["leader"] == str(seats[0].player_id)
    assert game.summary["bankrupt"] == [str(seats[3].player_id), str(seats[2].player_id)]


def test_the_score_sheet_prints_the_sheet_as_entered(client, table, seats, judge):
    client.post(url(table), sheet(seats))
    printed = next(data.score_sheets(table.round))
    assert printed.from_paper and printed.prefilled and not printed.deeds
    key = {seat.player_id: str(seat.player_id) for seat in seats}
    anna = printed.worth[key[seats[0].player_id]]
    ben = printed.worth[key[seats[1].player_id]]
    carla = printed.worth[key[seats[2].player_id]]
    assert (anna.cash, anna.deeds, anna.houses, anna.total, anna.place) == (1000, 1500, 500,
                                                                          3000, 1)
    assert (ben.cash, ben.deeds, ben.total, ben.place) == (None, None, 2500, 2)  # total alone
    assert (carla.bankrupt, carla.bankrupt_order, carla.place) == (True, 2, 3)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_the_printed_score_sheet_says_paper_sheet_and_bankruptcy_order(client, table, seats,
                                                                       judge):
    client.post(url(table), sheet(seats))
    out = io.BytesIO()
    printing.render("scoresheets", out, tournament=table.round.tournament, round_=table.round,
                    lang="de", base_url="http://hall.example.org")
    printed = subprocess.run(["pdftotext", "-layout", "-", "-"], input=out.getvalue(),
                             capture_output=True, check=True).stdout.decode()
    assert "Papierbogen" in printed
    assert "bankrott als Nr. 2" in printed and "bankrott als Nr. 1" in printed
    assert "3.000" in printed and "2.500" in printed


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_the_printed_score_sheet_writes_places_in_the_sheets_language(client, table, seats,
                                                                      judge):
    """English sheets say "1st" as every English page does; German sheets keep "1."."""
    client.post(url(table), sheet(seats))

    def printed(lang: str) -> str:
        out = io.BytesIO()
        printing.render("scoresheets", out, tournament=table.round.tournament,
                        round_=table.round, lang=lang, base_url="http://hall.example.org")
        return subprocess.run(["pdftotext", "-layout", "-", "-"], input=out.getvalue(),
                              capture_output=True, check=True).stdout.decode()

    english, german = printed("en"), printed("de")
    assert re.search(r"\b1st\b", english) and re.search(r"\b3rd\b", english)
    assert not re.search(r"\b1st\b", german) and re.search(r"(?<![\d.])1\.(?!\d)", german)


# The sheet's guards (walk 2): a round not started yet (start it first, the gate says "not
# started", not "closed"); an end time still to come or before the game started.


def _seated_only(table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.SEATED, started_at=None)
    table.refresh_from_db()


def _ended_at_problems(html: str) -> str:
    found = re.search(r'<ul class="errorlist" id="problems-ended-at">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


def test_a_sheet_for_a_round_not_started_is_refused_with_what_to_do(client, table, seats,
                                                                    judge):
    _seated_only(table)
    page = client.get(url(table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-round-not-started" in page and "start round 1 on the round desk first" in page
    assert 'data-form="paper"' not in page  # no sheet to type for nothing
    response = client.post(url(table), sheet(seats), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert "data-paper-refused" not in html  # no "check the marked lines": none is wrong
    assert "Round 1 has not started: start round 1 on the round desk first" in html
    assert not GameResult.objects.exists()
    german = client.post(url(table), sheet(seats)).content.decode()
    assert "Runde 1 hat noch nicht begonnen" in german
    # once the round runs, the same sheet is stored
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.RUNNING)
    assert client.post(url(table), sheet(seats)).status_code == 302
    assert GameResult.objects.filter(game__table=table, from_paper=True).exists()


def test_the_round_gate_says_not_started_rather_than_closed(client, table, seats, judge):
    assert client.post(url(table), sheet(seats)).status_code == 302
    game = Game.objects.get(table=table)
    _seated_only(table)  # a result left in a round set back (as the walk found it)
    with pytest.raises(errors.RoundNotStarted) as refused:
        results.round_gate(game, GameResult.objects.get(game=game), by=judge)
    words = refused.value.message_in("en")
    assert "Round 1 has not started yet: start it on the round desk first" in words
    assert "closed" not in words
    assert "noch nicht begonnen" in refused.value.message_in("de")
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.COMPLETE)
    game = Game.objects.get(table=table)
    with pytest.raises(errors.RoundClosed) as closed:
        results.round_gate(game, None, by=None)
    assert "is closed" in closed.value.message_in("en")


@pytest.mark.parametrize("language, words", [
    ("en", "is still to come"), ("de", "liegt noch in der Zukunft"),
])
def test_an_end_time_still_to_come_is_refused_at_its_field(client, table, seats, judge,
                                                          language, words):
    later = (dt.datetime.now(dt.UTC) + dt.timedelta(minutes=30))
    clock = timezone.localtime(later).strftime("%H:%M")
    if timezone.localtime(later).date() != timezone.localdate():
        pytest.skip("half an hour from now is tomorrow")
    response = client.post(url(table), sheet(seats, ended_at=clock),
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    html = response.content.decode()
    found = _ended_at_problems(html)
    assert clock in found and words in found
    assert 'id="paper-ended-at" type="time" name="ended_at" value="' + clock + '" aria-invalid' \
        in html
    assert not GameResult.objects.exists()


@pytest.mark.parametrize("language, words", [
    ("en", "is before the game started"), ("de", "liegt vor dem Spielbeginn"),
])
def test_an_end_time_before_the_game_started_is_refused_at_its_field(
    client, table, seats, judge, language, words
):
    now = timezone.now()
    started = now - dt.timedelta(minutes=10)
    if timezone.localtime(started).date() != timezone.localdate():
        pytest.skip("ten minutes ago was yesterday")
    Round.objects.filter(pk=table.round_id).update(started_at=started)
    table.refresh_from_db()
    early = timezone.localtime(started - dt.timedelta(minutes=5)).strftime("%H:%M")
    response = client.post(url(table), sheet(seats, ended_at=early),
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    found = _ended_at_problems(response.content.decode())
    assert early in found and words in found
    assert timezone.localtime(started).strftime("%H:%M") in found
    assert not GameResult.objects.exists()


def test_the_service_refuses_an_end_time_to_come_within_a_minute_it_does_not(table, seats):
    lines = [paper.PaperLine(player_id=seat.player_id, net_worth=1000 * (n + 1))
             for n, seat in enumerate(seats)]
    with pytest.raises(errors.PaperSheetRefused):
        paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit",
                                 ended_at=timezone.now() + dt.timedelta(minutes=5), by=None)
    result = paper.enter_paper_result(
        table=table, lines=lines, end_reason="time_limit",
        ended_at=timezone.now() + dt.timedelta(seconds=30), by=None)  # clocks differ a little
    assert result.from_paper


def _new_section(html: str) -> str:
    return re.search(r"<section data-new>(.*?)</section>", html, re.S).group(1)


@pytest.mark.parametrize("language, was_worth, was_place, summary", [
    ("de", "(vorher 2.500)", "(vorher 2.)", "Geändert in 2 Zeilen"),
    ("en", "(was 2,500)", "(was 2nd)", "Changed in 2 lines"),
])
def test_the_replace_question_marks_what_the_sheet_changes(client, table, seats, judge, language,
                                                          was_worth, was_place, summary):
    """Walk 2 (1.800 → 1.900 unmarked): the changed place and net worth are marked per player,
    with what they were in words a screen reader reads; unchanged lines are not marked."""
    assert client.post(url(table), sheet(seats)).status_code == 302
    anna, ben = seats[0].player_id, seats[1].player_id
    second = sheet(seats, **{f"net_worth-{ben}": "3500"})  # Ben first, Anna second
    html = client.post(url(table), second, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    new = _new_section(html)
    rows = dict(re.findall(r'<tr class="changed" data-changed-line="(\d+)">(.*?)</tr>', new))
    assert set(rows) == {str(anna), str(ben)}  # Carla and Dieter keep place and figures
    assert '<mark data-changed="net_worth">' in rows[str(ben)] and was_worth in rows[str(ben)]
    assert '<mark data-changed="place">' in rows[str(ben)] and was_place in rows[str(ben)]
    assert '<mark data-changed="place">' in rows[str(anna)]
    assert 'data-changed="net_worth"' not in rows[str(anna)]  # 3.000 both times
    assert new.count("<mark") == 3
    changes = re.search(r"<p data-changes>(.*?)</p>", html, re.S).group(1)
    assert summary in changes and "Anna Test" in changes and "Ben Test" in changes


def test_the_replace_question_says_when_nothing_changes(client, table, seats, judge):
    assert client.post(url(table), sheet(seats)).status_code == 302
    html = client.post(url(table), sheet(seats), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<mark" not in _new_section(html)
    assert "The sheet gives the same places and net worths as the pending result." in html


def test_a_paper_result_amended_says_so_on_the_public_table_page(
    client, table, seats, judge, django_capture_on_commit_callbacks
):
    """Walk 2: an amended sheet still read "as entered from the paper sheet"."""
    from referee import rulings

    with django_capture_on_commit_callbacks(execute=True):
        client.post(url(table), sheet(seats))
    game = Game.objects.get(table=table)
    ben = seats[1].player_id
    figures = {p.player_id: {"net_worth": 2700 if p.player_id == ben else p.net_worth,
                             "place": ""} for p in GameResult.objects.get(game=game)
               .placements.all()}
    with django_capture_on_commit_callbacks(execute=True):
        rulings.amend_result(game_id=game.pk, figures=figures, reason="Ben falsch addiert",
                             by=judge, revision=results.revision_of(game.pk))
    slug = table.round.tournament.slug
    html = Client().get(f"/t/{slug}/tables/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-amended-figures" in html
    assert "Places and net worth as amended by the tournament officials. Provisional until the result " \
           "is confirmed." in html
    assert "as entered from the paper sheet" not in html
    assert "data-from-paper" in html  # still said where it came from


@pytest.mark.parametrize("language, winner, words", [
    ("de", "Führend", "Ergebnis vom Papierbogen"), ("en", "Leading", "Result from the paper sheet"),
])
def test_the_card_of_a_paper_result_whose_game_never_started_names_the_winner(
    client, table, seats, judge, django_capture_on_commit_callbacks, language, winner, words
):
    """Walk 2: the overview's card showed "–:––" and no winner, the table page the winner."""
    import json

    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url(table), sheet(seats)).status_code == 302
    assert Game.objects.get(table=table).started_at is None  # the console never started it
    slug = table.round.tournament.slug
    card = json.loads(Client().get(f"/t/{slug}/live/cards?n=1",
                                   HTTP_ACCEPT_LANGUAGE=language).content)["cards"]["1"]
    assert re.search(rf"{winner}: <strong>Anna Test</strong>", card), card
    assert f"data-from-paper>{words}</span>" in card
    assert "–:––" not in card and "data-clock" not in card
    overview = Client().get(f"/t/{slug}/tables/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"{winner}: <strong>Anna Test</strong>" in overview
    # the table's own page: no empty clock either (walk 3), the same mark
    page = Client().get(f"/t/{slug}/tables/{table.number}/",
                        HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"data-from-paper>{words}</span>" in page and "–:––" not in page
