"""Places read as ordinals in the page's language: "1st place", "2nd at T1" in English, "1. Platz",
"2. an T1" in German, on every public page, the projector and a hall screen (the walk: English
pages said "1. place", "6. place bankrupt", "2. at T5", "Place 2.")."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, play

from public.templatetags.public_tags import ordinal
from scoring import screens
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def test_an_ordinal_in_each_language():
    with translation.override("en"):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
            "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
            "101st", "111th"]
        assert ordinal(None) == "" and ordinal("–") == "–"
    with translation.override("de"):
        assert [ordinal(n) for n in (1, 2, 3, 11, 22)] == ["1.", "2.", "3.", "11.", "22."]


def _text(response) -> str:
    body = response.content.decode()
    body = re.sub(r'<span class="sr-only">.*?</span>', "", body, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka")
    people = [PlayerFactory(tournament=tournament, name=f"Spieler {n}") for n in "ABCDEF"]
    _, [table] = make_round(tournament, 1, [people])
    with django_capture_on_commit_callbacks(execute=True):
        play(table, {p: 3000 - 100 * i for i, p in enumerate(people)},
             bankrupt=(people[5], people[0]))
        screen = screens.add_screen(tournament=tournament, name="Halle")
        screens.set_mode(screen=screen, mode="standings")
    return tournament, people, screen


def test_english_pages_use_english_ordinals_and_german_ones_german(client, played):
    tournament, people, screen = played
    second = people[1]
    pages = {
        "standings": "/t/ka/", "table": "/t/ka/tables/1/",
        "player": f"/t/ka/players/{second.pk}/", "me": f"/p/{second.pass_code}/",
        "projector": "/t/ka/screen", "hall": f"/t/ka/hall/{screen.key}/",
    }
    english = {name: _text(client.get(url, **EN)) for name, url in pages.items()}
    german = {name: _text(client.get(url, **DE)) for name, url in pages.items()}
    for name, text in english.items():
        # no German ordinal: a number with a full stop before a word or the end of a cell
        assert not re.search(r"(?<![\d.:,])\d{1,2}\. (?:place|at T|[A-Z][a-z]+ [A-Z])", text), (
            name, re.findall(r".{30}(?<![\d.:,])\d{1,2}\. .{20}", text))
    assert "1st place" in english["table"] and "6th place" in english["table"]
    assert "2nd at T1" in english["standings"] and "1st Spieler A" in english["standings"]
    assert "Place 2nd" in english["player"] and "2nd place" in english["player"]
    assert "Place 2nd" in english["me"] and "2nd place" in english["me"]
    assert "1st Spieler A" in english["projector"] and "1st Spieler A" in english["hall"]
    assert "1. Platz" in german["table"] and "2. an T1" in german["standings"]
    assert "Platz 2." in german["player"] and "2. Platz" in german["me"]
    assert "1. Spieler A" in german["projector"] and "1. Spieler A" in german["hall"]
