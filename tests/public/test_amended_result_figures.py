"""An amended result is the result of record on every public page (trust review, finding 1):
the console counts Dieter last with 1,600, a head referee amends him to 10,600 (now first) and a
second one confirms. The table page, the overview's card, the projector's table slide and the
player's page (its chart's last figure too) all say Dieter won with 10,600 — not the count the
console's record replays to — and ``manage.py verify`` compares the pages' figures with the
result of record."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client
from django.utils import translation
from factories import UserFactory, appoint, seated_table
from gameplay import cash_by_seat, play

from public import player as public_player
from public import selectors as public_selectors
from referee import results as referee_results
from referee import rulings
from referee import selectors as referee_selectors
from referee.models import Game, GameResult, Placement
from referee.results import revision_of
from scoring.verify import verify_tournament
from tournament.models import StaffRole

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _text(body: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.fixture
def amended(django_capture_on_commit_callbacks):
    """Table 1's count (Anna 1,900 … Dieter 1,600), amended (Dieter 10,600) and confirmed."""
    banker = UserFactory(username="bank1")
    table = seated_table(banker=banker, players=4)
    tournament = table.round.tournament
    judge = appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournament)
    other = appoint(UserFactory(username="judge2"), StaffRole.Role.HEAD_REFEREE, tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = play(table, cash_by_seat(table), confirm=False, author=banker)
    Client().get(f"/t/{tournament.slug}/tables/1/", **EN)  # the pages cached the count
    Client().get(f"/t/{tournament.slug}/live/cards?n=1", **EN)
    placements = Placement.objects.filter(result__game=game).select_related("player")
    last = next(p for p in placements if p.place == 4)
    figures = {p.player_id: {"net_worth": p.net_worth + (9000 if p is last else 0), "place": ""}
               for p in placements}
    with django_capture_on_commit_callbacks(execute=True):
        rulings.amend_result(game_id=game.pk, figures=figures, reason="Hotel vergessen",
                             by=judge, revision=revision_of(game.pk))
        rulings.resolve_dispute(game_id=game.pk, note="nachgezählt", by=other,
                                revision=revision_of(game.pk))
    return tournament, table, Game.objects.get(pk=game.pk), last.player


def test_the_table_page_shows_the_amended_result(amended):
    tournament, _table, _game, dieter = amended
    for url in (f"/t/{tournament.slug}/tables/1/", f"/t/{tournament.slug}/rounds/1/tables/1/",
                f"/t/{tournament.slug}/live/tables/1"):
        text = _text(Client().get(url, **EN).content.decode())
        assert f"Winner {dieter.name}" in text, (url, text)
        assert f"{dieter.name} 1st place 10,600" in text, (url, text)
        assert "Anna Test 2nd place 1,900" in text, (url, text)


def test_the_cards_show_the_amended_winner(amended):
    tournament, table, game, dieter = amended
    names = {str(s.player_id): s.player.name for s in table.seats.select_related("player")}
    card = public_selectors.table_card(table, game, names)
    assert (card["leader"], card["leader_net_worth"]) == (dieter.name, 10600)
    assert {p["name"]: p["net_worth"] for p in card["players"]}[dieter.name] == 10600
    # the overview's card (cached under its version: the amendment is a new version)
    assert public_selectors.table_versions(tournament)["t"]["1"] == card["version"]
    html = json.loads(Client().get(f"/t/{tournament.slug}/live/cards?n=1", **EN).content)
    assert f"Winner: <strong>{dieter.name}</strong>" in html["cards"]["1"], html
    # the projector's slide of the tables names the winner with the amended figure
    screen = _text(Client().get(f"/t/{tournament.slug}/live/screen/tables", **EN)
                   .content.decode())
    assert f"{dieter.name} 10,600" in screen, screen


def test_the_players_page_and_chart_end_on_the_amended_figure(amended):
    tournament, _table, _game, dieter = amended
    page = public_player.player_page(tournament, dieter.pk)
    (game,) = page["games"]
    assert (game["place"], game["net_worth"], game["confirmed"]) == (1, 10600, True)
    assert game["chart"]["final"] == 10600  # the record replays to 1,600: the ruling is last
    body = Client().get(f"/t/{tournament.slug}/players/{dieter.pk}/", **EN).content.decode()
    assert "now 10,600" in body


def test_verify_checks_the_pages_figures_against_the_result_of_record(amended, monkeypatch):
    tournament, _table, _game, dieter = amended
    assert verify_tournament(tournament=tournament).ok

    of_record = referee_selectors.figures_of_record

    def from_the_summary(game, result):  # what the pages read before: the replay's figures
        return of_record(game, None)

    monkeypatch.setattr(referee_selectors, "figures_of_record", from_the_summary)
    with translation.override("en"):
        words = [str(d) for d in verify_tournament(tournament=tournament).differences]
    assert any(f"the public pages show {dieter.name} in place – with 1600, the result of record "
               "gives place 1 with 10600" in w for w in words), words
    assert any(f"the public pages name Anna Test the table's winner, the result of record "
               f"{dieter.name}" in w for w in words), words


def test_an_amended_figure_changed_without_a_ruling_is_named(amended):
    tournament, _table, game, dieter = amended
    Placement.objects.filter(result__game=game, player=dieter).update(net_worth=20600)
    with translation.override("en"):
        words = [str(d) for d in verify_tournament(tournament=tournament).differences]
    assert any(f"{dieter.name}: stored net worth 20600, the recorded ruling gives 10600" in w
               for w in words), words
    assert GameResult.objects.get(game=game).status == GameResult.Status.CONFIRMED


def test_a_confirmation_makes_a_new_card(django_capture_on_commit_callbacks):
    """Counted and confirmed shared a card version ("co"): the cached card of the count went on
    saying "Leading … provisional" after the confirmation."""
    banker = UserFactory(username="bank1")
    table = seated_table(banker=banker, players=4)
    slug = table.round.tournament.slug
    with django_capture_on_commit_callbacks(execute=True):
        game = play(table, cash_by_seat(table), confirm=False, author=banker)
    counted = json.loads(Client().get(f"/t/{slug}/live/cards?n=1", **EN).content)["cards"]["1"]
    assert "Leading:" in counted and "provisional" in counted
    with django_capture_on_commit_callbacks(execute=True):
        referee_results.confirm_result(game_id=game.pk, code=game.confirmation_code, by=None,
                                       revision=revision_of(game.pk))
    confirmed = json.loads(Client().get(f"/t/{slug}/live/cards?n=1", **EN).content)["cards"]["1"]
    assert "Winner:" in confirmed and "provisional" not in confirmed, confirmed


def test_the_table_page_says_the_figures_are_amended_not_counted(amended):
    """Walk 2: after the amendment the caption still said "as counted at the end"."""
    tournament, _table, _game, _dieter = amended
    for language, words, counted in (
        ("en", "Places and net worth as amended by the tournament officials; the result is confirmed.",
         "as counted at the end"),
        ("de", "Plätze und Vermögen wie von der Turnierleitung korrigiert; das Ergebnis ist "
               "bestätigt.", "wie am Ende gezählt"),
    ):
        html = Client().get(f"/t/{tournament.slug}/tables/1/",
                            HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "data-amended-figures" in html and words in _text(html), language
        assert "data-amended>" in html
        assert counted not in _text(html), language
