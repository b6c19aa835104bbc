"""The check-in desk: search as you type (constant queries), one tap to check in or undo."""

from __future__ import annotations

import pytest
from factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory
from gameplay import make_round

from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_desk_page_searches_as_you_type(organizer_client, tournament):
    PlayerFactory(tournament=tournament, name="Anna Müller", checked_in=False)
    response = organizer_client.get("/manage/cup/check-in/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'hx-trigger="input changed delay:150ms' in body
    assert 'hx-get="/manage/cup/check-in/"' in body
    assert "Anna Müller" in body
    assert 'id="desk-counts"' in body


def test_search_returns_a_fragment_with_matches_and_counts(organizer_client, tournament):
    club = ClubFactory(name="Spielfreunde Durlach")
    PlayerFactory(tournament=tournament, name="Anna Müller", club=club, checked_in=True)
    PlayerFactory(tournament=tournament, name="Ben Becker", checked_in=False)
    PlayerFactory(tournament=TournamentFactory(), name="Anna Fremd")
    response = organizer_client.get("/manage/cup/check-in/", {"q": "durl"}, **HTMX)
    body = response.content.decode()
    assert "<html" not in body
    assert "Anna Müller" in body and "Ben Becker" not in body and "Anna Fremd" not in body
    assert 'hx-swap-oob="true"' in body  # the counters refresh with every search
    assert [p.name for p in response.context["players"]] == ["Anna Müller"]
    counts = response.context["counts"]
    assert (counts.checked_in, counts.registered) == (1, 2)


def test_search_is_case_insensitive_on_name_and_club(organizer_client, tournament):
    PlayerFactory(
        tournament=tournament, name="Anna Müller", club=ClubFactory(name="KIT Spieleabend")
    )
    for query in ("ANNA", "anna mü", "kit", "Spieleabend anna"):
        response = organizer_client.get("/manage/cup/check-in/", {"q": query}, **HTMX)
        assert [p.name for p in response.context["players"]] == ["Anna Müller"], query


def test_filter_not_checked_in(organizer_client, tournament):
    PlayerFactory(tournament=tournament, name="Da", checked_in=True)
    PlayerFactory(tournament=tournament, name="Fehlt", checked_in=False)
    response = organizer_client.get("/manage/cup/check-in/", {"show": "missing"}, **HTMX)
    assert [p.name for p in response.context["players"]] == ["Fehlt"]


# session, user, tournament + staff roles (access), tournament, German-folded match (names
# only), matching players (with clubs), counters, their first seated round, the next open round
DESK_SEARCH_QUERIES = 10


@pytest.mark.parametrize("count", [10, 100])
def test_search_needs_the_same_number_of_queries_for_10_and_100_players(
    organizer_client, tournament, django_assert_num_queries, count
):
    clubs = ClubFactory.create_batch(5)
    for index in range(count):
        PlayerFactory(
            tournament=tournament,
            name=f"Spieler {index:03d}",
            club=clubs[index % 5],
            checked_in=index % 2 == 0,
        )
    organizer_client.get("/manage/cup/check-in/", {"q": "spieler"}, **HTMX)  # warm the session
    with django_assert_num_queries(DESK_SEARCH_QUERIES):
        response = organizer_client.get("/manage/cup/check-in/", {"q": "spieler"}, **HTMX)
    assert len(response.context["players"]) == count
    body = response.content.decode()
    assert body.count('class="desk-row') == count


def test_long_lists_are_cut_with_a_hint(organizer_client, tournament):
    Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Spieler {index:03d}") for index in range(130)
    )
    response = organizer_client.get("/manage/cup/check-in/", **HTMX)
    assert len(response.context["players"]) == 100 and response.context["more"]
    response = organizer_client.get("/manage/cup/check-in/", {"q": "Spieler 12"}, **HTMX)
    assert len(response.context["players"]) == 12 and not response.context["more"]  # 012, 112, 12x


def test_one_tap_check_in_returns_the_row_and_fresh_counts(organizer_client, tournament):
    player = PlayerFactory(tournament=tournament, name="Anna Müller", checked_in=False)
    url = f"/manage/cup/players/{player.pk}/check-in/"
    response = organizer_client.post(url, {"from": "desk"}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="desk-player-{player.pk}"' in body and 'data-checked-in="true"' in body
    assert 'id="desk-counts"' in body and 'hx-swap-oob="true"' in body
    assert response.context["counts"].checked_in == 1
    player.refresh_from_db()
    assert player.checked_in


def test_one_tap_undo(organizer_client, tournament):
    player = PlayerFactory(tournament=tournament, checked_in=True)
    response = organizer_client.post(
        f"/manage/cup/players/{player.pk}/undo-check-in/", {"from": "desk"}, **HTMX
    )
    assert 'data-checked-in="false"' in response.content.decode()
    player.refresh_from_db()
    assert not player.checked_in


def test_no_undo_is_offered_once_a_players_round_began(organizer_client, tournament):
    """Undoing the check-in of a player seated in a round that began is refused (a drop-out
    takes them out): the desk and the list offer no button that could only be refused."""
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    seated = PlayerFactory(tournament=tournament, name="Anna Müller", checked_in=True)
    waiting = PlayerFactory(tournament=tournament, name="Ben Becker", checked_in=True)
    make_round(tournament, 1, [[seated]])  # running

    def undo_offered(body: str, player: Player) -> bool:
        return f"/manage/cup/players/{player.pk}/undo-check-in/" in body

    for page in ("/manage/cup/check-in/", "/manage/cup/players/"):
        body = organizer_client.get(page).content.decode()
        assert not undo_offered(body, seated) and undo_offered(body, waiting), page
    # the row a desk action answers with says the same (a drop-out undone, here)
    organizer_client.post(f"/manage/cup/players/{seated.pk}/drop-out/")
    row = organizer_client.post(f"/manage/cup/players/{seated.pk}/undo-drop-out/",
                                {"from": "desk"}, **HTMX).content.decode()
    assert "Anna Müller" in row and not undo_offered(row, seated)


def test_refused_check_in_answers_with_an_error_fragment(organizer_client, tournament):
    player = PlayerFactory(tournament=tournament, checked_in=False, dropped_out=True)
    response = organizer_client.post(
        f"/manage/cup/players/{player.pk}/check-in/", {"from": "desk"}, **HTMX
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert 'data-code="player_dropped_out"' in body and "<html" not in body


def test_without_javascript_the_button_redirects_back(organizer_client, tournament):
    player = PlayerFactory(tournament=tournament, checked_in=False)
    response = organizer_client.post(
        f"/manage/cup/players/{player.pk}/check-in/", {"next": "/manage/cup/check-in/?q=an"}
    )
    assert response.status_code == 302 and response["Location"] == "/manage/cup/check-in/?q=an"
    response = organizer_client.post(
        f"/manage/cup/players/{player.pk}/undo-check-in/", {"next": "https://evil.example/"}
    )
    assert response["Location"] == "/manage/cup/players/"


def test_player_of_another_tournament_is_not_found(organizer_client, tournament):
    other = PlayerFactory(checked_in=False)
    response = organizer_client.post(f"/manage/cup/players/{other.pk}/check-in/")
    assert response.status_code == 404
    other.refresh_from_db()
    assert not other.checked_in


@pytest.mark.parametrize("method", ["get", "post"])
def test_desk_is_staff_only(client, tournament, method):
    player = PlayerFactory(tournament=tournament, checked_in=False)
    urls = {"get": "/manage/cup/check-in/", "post": f"/manage/cup/players/{player.pk}/check-in/"}
    response = getattr(client, method)(urls[method])
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(UserFactory())  # a banker is no organizer
    response = getattr(client, method)(urls[method])
    assert response.status_code == 403
    player.refresh_from_db()
    assert not player.checked_in


@pytest.mark.parametrize("target", ["abc", "players", "/manage/cup/\x00", "//evil.example/", ""])
def test_a_next_that_is_no_local_path_falls_back_to_the_list(organizer_client, tournament,
                                                             target):
    """Found by the form fuzz: next="abc" made redirect() look up a URL name (a 500)."""
    player = PlayerFactory(tournament=tournament, name="Anna", checked_in=False)
    response = organizer_client.post(
        f"/manage/cup/players/{player.pk}/check-in/", {"next": target}
    )
    assert response.status_code == 302
    assert response["Location"] == "/manage/cup/players/"
