"""German search and order (issue 16): one folding function for the desk and the player list,
one DIN 5007 sort key for lists and prints."""

from __future__ import annotations

import pytest
from factories import ClubFactory, OrganizerFactory, PlayerFactory, TournamentFactory
from hypothesis import given
from hypothesis import strategies as st

from tournament import names
from tournament.models import Tournament
from tournament.players import services as players

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("query", "name"),
    [("weiss", "Jörg Weiß"), ("Kathe", "Käthe Lange"), ("Mueller", "Anna Müller"),
     ("muller", "Anna Müller"), ("MÜLLER", "Anna Mueller"), ("Gul", "Gül Yılmaz"),
     ("rene", "René Brückner"), ("Bruckner", "René Brückner")],
)
def test_search_fold_matches_german_spellings(query, name):
    assert names.matches(query, name)


def test_search_fold_does_not_match_everything():
    assert not names.matches("weiss", "Anna Müller")
    assert not names.matches("Müller Käthe", "Anna Müller")


def test_din_5007_order():
    unsorted = ["Zorn", "Ärger", "Abel", "Öhler", "Ober", "Strauß", "Strauss", "Straub", "Übel"]
    assert sorted(unsorted, key=names.sort_key) == [
        "Abel", "Ärger", "Ober", "Öhler", "Straub", "Strauss", "Strauß", "Übel", "Zorn",
    ]
    # code-point order would put every umlaut after Z
    assert sorted(unsorted)[-1] == "Übel"


def test_last_name_order_and_display():
    people = ["Anna Zorn", "Zoe Ärger", "Ben Müller", "Ada Mueller"]
    assert sorted(people, key=names.last_name_key) == [
        "Zoe Ärger", "Ada Mueller", "Ben Müller", "Anna Zorn",
    ]
    assert names.last_name_first("Anna Maria Müller") == "Müller, Anna Maria"
    assert names.last_name_first("Cher") == "Cher"


@given(st.text(max_size=20))
def test_folding_is_stable(text):
    folded = names.search_fold(text)
    assert names.search_fold(folded) == folded
    assert names.matches(text, text)


def test_desk_search_finds_umlauts_and_sharp_s():
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    PlayerFactory(tournament=tournament, name="Jörg Weiß", club=ClubFactory(name="SF Durlach"))
    PlayerFactory(tournament=tournament, name="Käthe Lange")
    PlayerFactory(tournament=tournament, name="Anna Müller")
    PlayerFactory(tournament=tournament, name="Anna Weber")

    def found(query):
        return [p.name for p in players.desk_rows(tournament, query)[0]]

    assert found("weiss") == ["Jörg Weiß"]
    assert found("Kathe") == ["Käthe Lange"]
    assert found("Mueller") == ["Anna Müller"]
    assert found("anna") == ["Anna Müller", "Anna Weber"]
    assert found("durlach weis") == ["Jörg Weiß"]


def test_player_list_and_desk_sort_by_din_5007(client):
    tournament = TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)
    for name in ("Zora Zett", "Ärne Alt", "Otto Ober", "Anton Berg", "Öda Nord"):
        PlayerFactory(tournament=tournament, name=name)
    client.force_login(OrganizerFactory())
    expected = ["Anton Berg", "Ärne Alt", "Öda Nord", "Otto Ober", "Zora Zett"]
    for url in ("/manage/cup/players/", "/manage/cup/check-in/"):
        rows = client.get(url).context["players"]
        assert [p.name for p in rows] == expected, url
    response = client.get("/manage/cup/check-in/", {"q": "weiss"})
    assert response.status_code == 200
