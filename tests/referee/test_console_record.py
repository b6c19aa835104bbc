"""The console shows the result of record (browser walk 2): a result from the paper sheet
instead of the live game, an amended line as amended, a refused dispute keeping its note, and
no second dispute replacing the first note unseen."""

from __future__ import annotations

import html
import re

import pytest
from consoles import keys, open_link, post_event, result_revision
from factories import seated_table
from gameplay import cash_by_seat, play

from referee import errors, paper, results, rulings, services
from referee.models import Game, GameResult
from referee.results import revision_of

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def table(banker):
    return seated_table(banker=banker, players=4)


def enter_sheet(table, judge):
    seats = list(table.seats.order_by("position"))
    lines = [paper.PaperLine(player_id=s.player_id, net_worth=3000 - 100 * s.position)
             for s in seats]
    return paper.enter_paper_result(table=table, lines=lines, end_reason="time_limit",
                                    ended_at=None, by=judge, note="Akku leer")


def fragment(client, table, headers=EN) -> str:
    response = client.get(f"/banker/table/{table.pk}/main/", **headers)
    assert response.status_code == 200
    return response.content.decode()


def text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


# --------------------------------------------------------------------------- 1. paper


@pytest.mark.parametrize("started", [False, True])
def test_a_paper_result_replaces_the_live_game_on_the_console(client, banker, judge, table,
                                                              started):
    """c10/c13: after the sheet the console still showed set-up ("Uhr starten") or the
    running game with its play buttons."""
    game = services.ensure_game(table=table)
    if started:
        services.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    enter_sheet(table, judge)
    client.force_login(banker)
    page = fragment(client, table)
    assert 'data-mode="count"' in page
    assert 'data-mode="setup"' not in page and 'data-mode="play"' not in page
    shown = text(page)
    assert "Result from the paper sheet" in shown
    assert "Entered from the paper sheet at the desk by mrmonopoly" in shown
    assert "Awaiting confirmation" in shown
    assert "Placements from the paper sheet" in shown and "as counted" not in shown
    assert 'data-testid="reopen-count"' not in page and 'data-action="count"' not in page
    assert 'name="code"' in page  # the players' code may still confirm it
    for seat, row in enumerate(table.seats.order_by("position"), start=1):
        assert re.search(rf'data-standing="{row.player_id}".*?<b>{3000 - 100 * seat:,}</b>',
                         page, re.S)
    assert '"status": "finished"' in page or "&quot;status&quot;: &quot;finished&quot;" in page


def test_an_event_for_a_paper_result_is_refused_as_one(client, judge, table):
    """c12: the refusal said "Zählung abgeschlossen – … wieder öffnen", a button the console
    rightly does not offer for a sheet."""
    open_link(client, table)
    game = services.ensure_game(table=table)
    services.post_event(game_id=game.pk, event={"type": "start"}, author=None)
    enter_sheet(table, judge)
    anna = keys(table)[0]
    response = post_event(client, table, {"type": "cash", "player": anna, "amount": 5},
                          key="p1", expected_seq=1)
    assert response.status_code == 409, response.content
    body = response.json()
    assert body["code"] == "result_from_paper"
    assert "paper sheet stands for table" in body["message_en"]
    assert "Papierbogen" in body["message_de"]
    assert "wieder öffnen" not in body["message_de"]
    assert Game.objects.get(pk=game.pk).event_count == 1


# --------------------------------------------------------------------------- 2. amended


def test_an_amended_line_says_so_and_shows_the_counted_figure(client, banker, judge, table):
    """c21: "Placements as counted" beside a total the parts did not add up to."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    last = GameResult.objects.get(game=game).placements.get(place=4)
    before = last.net_worth
    figures = {p.player_id: {"net_worth": p.net_worth + (5000 if p.pk == last.pk else 0),
                             "place": ""}
               for p in GameResult.objects.get(game=game).placements.all()}
    rulings.amend_result(game_id=game.pk, figures=figures, reason="Hotel vergessen", by=judge,
                         revision=revision_of(game.pk))
    client.force_login(banker)
    shown = text(fragment(client, table))
    assert "Placements as counted" not in shown
    assert "Placements, amended by the tournament officials" in shown
    assert "Amended by the tournament officials: Hotel vergessen" in shown
    after = f"{before + 5000:,}"
    assert f"amended by the tournament officials: counted {before:,} → {after}" in shown
    assert f"The count's parts (of {before:,})" in shown
    # the lines the amendment only moved down keep their figure: no "counted x → x"
    assert shown.count("amended by the tournament officials: counted") == 1
    german = text(fragment(client, table, DE))
    assert "von der Turnierleitung korrigiert" in german


# --------------------------------------------------------------------------- 3 and 4. dispute


def test_a_refused_dispute_keeps_the_typed_note(client, banker, table):
    """c4: a stale tab's dispute was refused and the note typed was gone."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    client.force_login(banker)
    seen = result_revision(table)
    results.reopen_count(game_id=game.pk, by=banker, revision=seen)
    results.count_result(game_id=game.pk, author=banker, revision=revision_of(game.pk))
    note = "Miete für Schlossallee <falsch> gezählt"
    answer = client.post(f"/banker/table/{table.pk}/dispute/",
                         {"note": note, "revision": seen}, **EN).content.decode()
    assert "changed since this page was opened" in text(answer)
    assert re.search(r"<textarea[^>]*>" + re.escape(html.escape(note)) + "</textarea>", answer)
    assert GameResult.objects.get(game=game).status == GameResult.Status.COUNTED


def test_a_second_dispute_does_not_replace_the_first_note(client, banker, judge, table):
    """c22: the second note replaced the first unseen."""
    game = play(table, cash_by_seat(table), confirm=False, author=banker)
    results.dispute_result(game_id=game.pk, note="Hotel vergessen", by=banker,
                           revision=revision_of(game.pk))
    with pytest.raises(errors.AlreadyDisputed):
        results.dispute_result(game_id=game.pk, note="Alles falsch", by=judge,
                               revision=revision_of(game.pk))
    client.force_login(banker)
    page = fragment(client, table)
    assert "Send to the head referee" not in page  # no second dispute offered
    answer = client.post(f"/banker/table/{table.pk}/dispute/",
                         {"note": "Alles falsch", "revision": revision_of(game.pk)},
                         **EN).content.decode()
    shown = text(answer)
    assert "is disputed already (note: “Hotel vergessen”)" in shown
    # the second note is not lost either: there to read and copy, not sent
    assert re.search(r"data-unsent-note.*?<textarea[^>]*readonly>Alles falsch</textarea>", answer,
                     re.S)
    result = GameResult.objects.get(game=game)
    assert (result.status, result.dispute_note) == ("disputed", "Hotel vergessen")
