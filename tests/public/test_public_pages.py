"""The public pages: leaderboard, tables, a table's live view, a player's page, the projector.

Fragments are cached per change and answer 304 to a matching ETag without a query; building one
costs the same number of queries for 2 tables as for 6; unconsented names never appear.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from factories import ClubFactory, PlayerFactory, TournamentFactory

from desk import rounds
from referee import services as referee
from scoring.standings import services
from tournament.models import Tournament

pytestmark = pytest.mark.django_db
from gameplay import T0, make_round, play  # noqa: E402

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


# --------------------------------------------------------------------------- helpers


def post(game, event, minutes=1.0):
    return referee.post_event(game_id=game.pk, event=event, author=None,
                              now=T0 + dt.timedelta(minutes=minutes))


def text_of(response) -> str:
    return response.content.decode()


def row_order(body: str) -> list[str]:
    return re.findall(r'<tr class="[^"]*" data-player="(\d+)"', body)


# The round's column header; a bare "R1" would also match a random CSRF token.
ROUND_COLUMN = '<th class="num round" scope="col">R1</th>'

PRIVATE = ("Zacharias", "Geheimrath", "zacharias@example.org", "Allergie")


@pytest.fixture
def players(tournament):
    return [PlayerFactory(tournament=tournament, name=f"Spieler {i}") for i in range(12)]


# --------------------------------------------------------------------------- the leaderboard


def test_leaderboard_shows_rounds_provisional_results_and_the_qualification_line(
    client, django_capture_on_commit_callbacks, tournament, players
):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 2000 + 100 * i for i, p in enumerate(players[6:])}, confirm=False)
    page = text_of(client.get("/t/ka/", **EN))
    body = text_of(client.get("/t/ka/live/standings", **EN))
    assert body in page  # the page embeds the fragment it then polls
    order = row_order(body)
    assert len(order) == 12
    # the confirmed table ranks; the unconfirmed one is shown but does not count
    assert order[0] == str(players[5].pk)
    assert "R1" in body and "Points" in body
    provisional = re.findall(r'<td class="num round provisional"><em class="main">', body)
    assert len(provisional) == 6
    assert body.count('<span class="prov">provisional</span>') == 6
    # the qualification line sits after the sixth row
    cut = body.index('<tr class="cut"')
    assert body.index(f'data-player="{order[5]}"') < cut < body.index(f'data-player="{order[6]}"')
    assert "qualified for the final (6 places)" in body
    # live: the page polls the version document, then refetches the fragments that changed
    assert 'data-versions="/t/ka/live/v"' in page
    assert 'data-live-standings="/t/ka/live/standings/top"' in page
    assert 'data-live-tables="/t/ka/live/tables"' in page and "Leading" in page


def test_tie_break_is_marked_and_explained(client, django_capture_on_commit_callbacks,
                                           tournament, players):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 2000 - 100 * i for i, p in enumerate(players[6:])})
    body = text_of(client.get("/t/ka/", **EN))
    # two table winners with 6 points each: the summed net worth decided
    second = body.index(f'data-player="{players[5].pk}"')
    # (its number in the tournament's chain, circled and set apart from the place — a bare
    # "2" read "2.2", issue 28 —: points ①, summed net worth ②, …)
    assert re.search(r'2nd <sup class="tb" title="Summed net worth"><span aria-hidden="true">②'
                     r'</span><span class="sr-only">\(tie decided by Summed net worth\)</span>',
                     body[second:])
    assert "Tie decided by" in body and "Summed net worth" in body


def _held_round_played(tournament, players, capture):
    """Results held until the round is closed; round 1's one table has played and confirmed."""
    tournament.results_public_immediately = False
    tournament.save()
    round_, tables = make_round(tournament, 1, [players[:6]])
    with capture(execute=True):
        play(tables[0], {p: 1000 + i for i, p in enumerate(players[:6])})
    return round_


def test_held_results_show_the_previous_standings_and_a_notice(
    client, django_capture_on_commit_callbacks, tournament, players
):
    round_ = _held_round_played(tournament, players, django_capture_on_commit_callbacks)
    body = text_of(client.get("/t/ka/", **EN))
    assert "Results are held until round 1 is closed" in body
    assert ROUND_COLUMN not in body  # nothing of the open round is public yet
    with django_capture_on_commit_callbacks(execute=True):
        rounds.close_round(round_=round_)
    body = text_of(client.get("/t/ka/", **EN))
    assert "Results are held until round 1" not in body and ROUND_COLUMN in body
    assert row_order(body)[0] == str(players[5].pk)


def test_standings_change_order_after_a_confirmed_result(
    client, django_capture_on_commit_callbacks, tournament, players
):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    first = client.get("/t/ka/live/standings", **EN)
    assert row_order(text_of(first))[0] == str(players[5].pk)
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[1], {p: 3000 + 100 * i for i, p in enumerate(players[6:])})
    again = client.get("/t/ka/live/standings", HTTP_IF_NONE_MATCH=first["ETag"], **EN)
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert row_order(text_of(again))[0] == str(players[11].pk)


# --------------------------------------------------------------------------- 304 and queries


def test_fragments_answer_304_without_a_query_until_something_changes(
    client, django_capture_on_commit_callbacks, django_assert_num_queries, tournament, players
):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    game = referee.ensure_game(table=tables[0])
    with django_capture_on_commit_callbacks(execute=True):
        post(game, {"type": "start"}, 0)
    for url in ("/t/ka/live/standings", "/t/ka/live/tables", "/t/ka/live/tables/1",
                f"/t/ka/live/players/{players[0].pk}", "/t/ka/live/screen/standings",
                "/t/ka/live/screen/tables"):
        first = client.get(url)
        assert first.status_code == 200, url
        assert first["ETag"] and "no-cache" in first["Cache-Control"]
        assert "Accept-Language" in first["Vary"] and first["X-Server-Time"].isdigit()
        with django_assert_num_queries(0):
            again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again.content == b"", url
        assert again["ETag"] == first["ETag"]
    # an event at the table changes the table's fragments, not the standings
    standings = client.get("/t/ka/live/standings")
    live = client.get("/t/ka/live/tables/1")
    with django_capture_on_commit_callbacks(execute=True):
        post(game, {"type": "buy", "player": str(players[0].pk), "deed": "schlossallee"}, 2)
    assert client.get("/t/ka/live/standings",
                      HTTP_IF_NONE_MATCH=standings["ETag"]).status_code == 304
    changed = client.get("/t/ka/live/tables/1", HTTP_IF_NONE_MATCH=live["ETag"], **EN)
    assert changed.status_code == 200
    assert f"{players[0].public_name} buys Schlossallee for 400" in text_of(changed)


def test_each_language_has_its_own_fragment(client, tournament, players):
    make_round(tournament, 1, [players[:6]])
    german = client.get("/t/ka/live/tables", HTTP_ACCEPT_LANGUAGE="de")
    english = client.get("/t/ka/live/tables", **EN)
    assert german["ETag"] != english["ETag"]
    assert client.get("/t/ka/live/tables", HTTP_IF_NONE_MATCH=german["ETag"],
                      **EN).status_code == 200


def _hall(count_tables: int, slug: str):
    """A running round of ``count_tables`` tables, each game started with a few deeds bought,
    the first table's result confirmed."""
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug=slug)
    club = ClubFactory()
    players = [PlayerFactory(tournament=tournament, club=club, public_name_consent=i % 2 == 0)
               for i in range(6 * count_tables)]
    _, tables = make_round(tournament, 1, [players[i:i + 6] for i in range(0, len(players), 6)])
    play(tables[0], {p: 1000 + 10 * i for i, p in enumerate(players[:6])})
    for table in tables[1:]:
        game = referee.ensure_game(table=table)
        post(game, {"type": "start"}, 0)
        keys = game.players
        post(game, {"type": "buy", "player": keys[0], "deed": "badstrasse"}, 1)
        post(game, {"type": "buy", "player": keys[1], "deed": "turmstrasse"}, 2)
    services.recompute_standings(tournament_id=tournament.pk)
    return tournament, players


@pytest.mark.parametrize("count_tables", [2, 6])
def test_building_a_fragment_costs_the_same_queries_for_2_and_6_tables(
    client, django_assert_num_queries, count_tables
):
    tournament, players = _hall(count_tables, f"hall{count_tables}")
    base = f"/t/{tournament.slug}/live"
    from referee import engine_cache

    for game_id in list(engine_cache._games):  # a cold process: engines are rebuilt too
        engine_cache.forget(game_id)
    with django_assert_num_queries(4):  # tournament, rows, meta, rounds
        assert client.get(f"{base}/standings").status_code == 200
    # tournament, round, tables+games+results, seats, and the results' lines (the cards show
    # the result of record: table 1's confirmed count; none while no table has a result)
    with django_assert_num_queries(5):
        assert client.get(f"{base}/tables").status_code == 200
    # a table's live view: tournament, round, table+game, engine's events, players, result
    with django_assert_num_queries(6):
        assert client.get(f"{base}/tables/2").status_code == 200
    with django_assert_num_queries(3):  # the rows read for the leaderboard are shared
        assert client.get(f"{base}/screen/standings").status_code == 200
    with django_assert_num_queries(5):  # as the tables' fragment
        assert client.get(f"{base}/screen/tables").status_code == 200
    # the HTML page: its header and its fragments come from the cache
    assert client.get(f"/t/{tournament.slug}/").status_code == 200
    with django_assert_num_queries(0):
        assert client.get(f"/t/{tournament.slug}/").status_code == 200


# --------------------------------------------------------------------------- a table, live


@pytest.fixture
def live_table(tournament):
    club = ClubFactory(short_name="MC KA")
    names = ["Anna Alt", "Ben Berg", "Carla Clever", "Dieter Dorn"]
    seated = [PlayerFactory(tournament=tournament, name=name, club=club) for name in names]
    _, tables = make_round(tournament, 1, [seated])
    return tables[0], seated


def test_table_view_shows_the_board_the_players_and_the_feed_in_words(client, live_table):
    table, seated = live_table
    game = referee.ensure_game(table=table)
    anna, ben, carla, dieter = game.players
    post(game, {"type": "start"}, 0)
    post(game, {"type": "buy", "player": anna, "deed": "parkstrasse"}, 1)
    post(game, {"type": "buy", "player": anna, "deed": "schlossallee"}, 2)
    post(game, {"type": "auction", "deed": "turmstrasse", "winner": ben, "price": 40}, 3)
    post(game, {"type": "build", "deed": "schlossallee"}, 4)
    post(game, {"type": "buy", "player": carla, "deed": "suedbahnhof"}, 5)
    post(game, {"type": "mortgage", "deed": "suedbahnhof"}, 6)
    body = text_of(client.get("/t/ka/tables/1/", **EN))
    assert "<svg" in body and body.count('class="sq ') == 40
    # owners' colours by seat, a house on Schlossallee, a hatched mortgage
    assert re.search(r'data-key="schlossallee" data-owner="1" data-houses="1"', body)
    assert re.search(r'data-key="turmstrasse" data-owner="2"', body)
    assert re.search(r'class="sq kind-station owned mortgaged"[^>]*data-key="suedbahnhof"', body)
    assert 'fill="url(#hatch)"' in body
    # the feed, newest first
    feed = re.findall(r'<span class="x">([^<]+)</span>', body)
    assert feed[:4] == [
        "Carla Clever mortgages Südbahnhof",
        "Carla Clever buys Südbahnhof for 200",
        "Anna Alt builds a house on Schlossallee",
        "Auction: Ben Berg wins Turmstraße for 40",
    ]
    assert "Anna Alt buys Schlossallee for 400" in feed
    assert "Cash" not in body  # not in ledger mode: net worth only
    assert "Net worth" in body


def test_table_view_shows_cash_in_ledger_mode(client, live_table):
    table, _ = live_table
    game = referee.ensure_game(table=table)
    game.ledger = True
    game.save()
    post(game, {"type": "start"}, 0)
    post(game, {"type": "buy", "player": game.players[0], "deed": "schlossallee"}, 1)
    body = text_of(client.get("/t/ka/live/tables/1", **EN))
    assert "<th class=\"num\" scope=\"col\">Cash</th>" in body
    assert "1,100" in body  # 1,500 start cash − 400


def test_the_auction_stop_and_the_time_limit_are_told_with_the_game_time(client, live_table):
    table, _ = live_table
    game = referee.ensure_game(table=table)
    post(game, {"type": "start"}, 0)
    referee.enforce_deadlines(game_id=game.pk, now=T0 + dt.timedelta(minutes=95))
    body = text_of(client.get("/t/ka/live/tables/1", **EN))
    assert "Auction stop (45:00)" in body and "Time is up" in body
    assert "data-base" not in body and "data-seconds" in body  # the clock stopped


def test_a_table_without_a_game_shows_its_seating(client, live_table):
    body = text_of(client.get("/t/ka/tables/1/", **EN))
    assert "Anna Alt" in body and "Not started" in body
    assert client.get("/t/ka/tables/9/").status_code == 404


def test_a_table_not_started_names_no_leader(client, live_table):
    """All start equal: the first seat used to read as leading before the game began."""
    table, _ = live_table
    referee.ensure_game(table=table)
    body = text_of(client.get("/t/ka/tables/", **EN))
    assert "Not started" in body and "Leading" not in body


def test_players_equal_at_the_top_name_no_leader(client, live_table,
                                                 django_capture_on_commit_callbacks):
    """A running table where the best are equal has no leader: the first seat among equals used
    to read as leading (seen in the demo: five players at 1,500, one of them "Leading")."""
    table, _ = live_table
    game = referee.ensure_game(table=table)
    started = timezone.now().replace(microsecond=0) - dt.timedelta(minutes=10)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=started)
    first, second = game.players[:2]
    for page in ("/t/ka/tables/", "/t/ka/tables/1/"):
        assert "Leading" not in text_of(client.get(page, **EN)), page
    with django_capture_on_commit_callbacks(execute=True):  # the pages' caches move on
        referee.post_event(game_id=game.pk, author=None, now=started + dt.timedelta(minutes=1),
                           event={"type": "pay", "from": first, "to": second, "amount": 100,
                                  "reason": "rent"})
    for page in ("/t/ka/tables/", "/t/ka/tables/1/"):
        assert "Leading" in text_of(client.get(page, **EN)), page


def test_tables_overview_has_clocks_states_and_leaders(client, live_table):
    table, _ = live_table
    game = referee.ensure_game(table=table)
    started = timezone.now().replace(microsecond=0) - dt.timedelta(minutes=10)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=started)
    referee.post_event(game_id=game.pk, author=None, now=started + dt.timedelta(minutes=5),
                       event={"type": "cash", "player": game.players[2], "amount": 2500})
    body = text_of(client.get("/t/ka/tables/", **EN))
    assert "Table 1" in body and "Running" in body
    # the leader, not the money: a card changes with its state and leader, not every payment
    assert "Leading: <strong>Carla Clever</strong>" in body and "2,500" not in body
    base = int(re.search(r'data-clock data-base="(\d+)"', body)[1])
    assert base == int(started.timestamp())  # the browser runs the clock from the game's start
    assert ">10:0" in body  # and the page shows the game time it was built at


# --------------------------------------------------------------------------- a player


def test_player_page_lists_games_and_charts_net_worth(client, live_table, tournament):
    table, seated = live_table
    game = referee.ensure_game(table=table)
    post(game, {"type": "start"}, 0)
    post(game, {"type": "buy", "player": game.players[0], "deed": "schlossallee"}, 5)
    post(game, {"type": "cash", "player": game.players[0], "amount": 2000}, 20)
    body = text_of(client.get(f"/t/ka/players/{seated[0].pk}/", **EN))
    assert "Anna Alt" in body and "Round 1" in body and "Table 1" in body
    points = re.search(r'<polyline points="([^"]+)"', body)[1].split()
    assert len(points) == 3  # after each event since the start
    assert "Net worth over game time" in body
    other = TournamentFactory(status=Tournament.Status.RUNNING, slug="other")
    assert client.get(f"/t/{other.slug}/players/{seated[0].pk}/").status_code == 404


def test_a_player_without_a_confirmed_game_shows_no_place_or_totals(
    client, django_capture_on_commit_callbacks, tournament, players
):
    """No "Place 0." and "Net worth 0" beside a game worth 1,300 provisionally (seen in the
    demo): the totals wait for a confirmed game, on the public page and the player's own."""
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
        play(tables[1], {p: 2000 + 100 * i for i, p in enumerate(players[6:])}, confirm=False)
    waiting, counted = players[6], players[5]
    for player, ranked in ((waiting, False), (counted, True)):
        for page in (f"/t/ka/players/{player.pk}/", f"/p/{player.pass_code}/"):
            body = text_of(client.get(page, **EN))
            assert ("data-unranked" in body) is not ranked, page
            assert ("<dd>0.</dd>" in body or "<dd>0th</dd>" in body or "<dd>–</dd>" in body) is False, page
            assert ('class="pub-stats"' in body) is ranked, page


def test_player_page_keeps_places_of_held_rounds_hidden(
    client, django_capture_on_commit_callbacks, tournament, players
):
    round_ = _held_round_played(tournament, players, django_capture_on_commit_callbacks)
    body = text_of(client.get(f"/t/ka/players/{players[5].pk}/", **EN))
    assert "Result held until the round is closed." in body and "1st place" not in body
    with django_capture_on_commit_callbacks(execute=True):
        rounds.close_round(round_=round_)
    body = text_of(client.get(f"/t/ka/players/{players[5].pk}/", **EN))
    assert "1st place" in body and "Result held" not in body


def test_a_correction_strikes_the_cancelled_event_and_names_it(client, live_table):
    table, _ = live_table
    game = referee.ensure_game(table=table)
    post(game, {"type": "start"}, 0)
    post(game, {"type": "buy", "player": game.players[1], "deed": "opernplatz"}, 1)
    post(game, {"type": "void", "event": 1, "reason": "falscher Spieler"}, 2)
    post(game, {"type": "buy", "player": game.players[2], "deed": "opernplatz"}, 3)
    body = text_of(client.get("/t/ka/live/tables/1", **EN))
    assert "<del>Ben Berg buys Opernplatz for 240</del>" in body
    assert "Correction: “Ben Berg buys Opernplatz for 240” is cancelled" in body
    assert "falscher Spieler" not in body
    assert re.search(r'data-key="opernplatz" data-owner="3"', body)


# --------------------------------------------------------------------------- the projector


def test_projector_renders_slides_without_header(client, django_capture_on_commit_callbacks,
                                                 tournament, players):
    _, tables = make_round(tournament, 1, [players[:6], players[6:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])})
    body = text_of(client.get("/t/ka/screen", **EN))
    assert "pub-screen-body" in body
    assert body.count('class="slide slide-standings"') == 2  # 12 players: 1–10, 11–12
    assert body.count('class="slide slide-tables"') == 1
    assert 'hx-get="/t/ka/live/screen/standings"' in body


# --------------------------------------------------------------------------- errors


def test_unknown_and_draft_tournaments_are_404(client):
    TournamentFactory(slug="entwurf", status=Tournament.Status.DRAFT)
    for url in ("/t/entwurf/", "/t/entwurf/live/standings", "/t/nope/tables/",
                "/t/nope/live/tables/1", "/t/nope/screen"):
        assert client.get(url).status_code == 404, url


# --------------------------------------------------------------------------- privacy


def test_an_unconsented_name_never_appears_on_a_public_page_or_api_answer(
    client, django_capture_on_commit_callbacks, tournament
):
    club = ClubFactory(short_name="SF Durlach")
    secret = PlayerFactory(tournament=tournament, name="Zacharias Geheimrath", club=club,
                           public_name_consent=False, email="zacharias@example.org",
                           private_note="Allergie gegen Würfel")
    others = [PlayerFactory(tournament=tournament, name=f"Offen {i}") for i in range(11)]
    _, tables = make_round(tournament, 1, [[secret, *others[:5]], others[5:]])
    with django_capture_on_commit_callbacks(execute=True):
        play(tables[1], {p: 1000 + 100 * i for i, p in enumerate(others[5:])})
        game = referee.ensure_game(table=tables[0])
        post(game, {"type": "start"}, 0)
        post(game, {"type": "buy", "player": str(secret.pk), "deed": "schlossallee"}, 1)
        post(game, {"type": "trade", "from": str(secret.pk), "to": str(others[0].pk),
                    "deeds": ["schlossallee"], "cash": 500}, 2)
        post(game, {"type": "pay", "from": str(others[1].pk), "to": str(secret.pk),
                    "amount": 50, "reason": "Miete an Zacharias Geheimrath"}, 3)
        post(game, {"type": "void", "event": 3, "reason": "Zacharias Geheimrath irrte"}, 4)
        post(game, {"type": "bankrupt", "player": str(secret.pk), "creditor": "bank"}, 5)
    urls = [
        "/t/ka/", "/t/ka/tables/", "/t/ka/tables/1/", "/t/ka/tables/2/",
        f"/t/ka/players/{secret.pk}/", f"/t/ka/players/{others[0].pk}/", "/t/ka/screen",
        "/t/ka/live/standings", "/t/ka/live/tables", "/t/ka/live/tables/1",
        f"/t/ka/live/players/{secret.pk}", "/t/ka/live/screen/standings",
        "/t/ka/live/screen/tables", "/api/v1/tournaments/ka/standings",
        "/api/v1/tournaments/ka/tables", f"/api/v1/tables/{tables[1].pk}/state",
    ]
    seen_public_name = False
    for language in ("de", "en"):
        for url in urls:
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, url
            body = text_of(response)
            for private in PRIVATE:
                assert private not in body, (url, private)
            seen_public_name |= secret.public_name in body
    assert secret.public_name == "Z.G. (SF Durlach)"
    assert seen_public_name


def test_the_public_table_state_api_does_not_repeat_a_bankers_free_text(client, tournament):
    secret = PlayerFactory(tournament=tournament, name="Zacharias Geheimrath",
                           public_name_consent=False)
    others = [PlayerFactory(tournament=tournament) for _ in range(3)]
    _, tables = make_round(tournament, 1, [[secret, *others]])
    game = referee.ensure_game(table=tables[0])
    post(game, {"type": "start"}, 0)
    post(game, {"type": "pay", "from": str(others[1].pk), "to": str(secret.pk), "amount": 50,
                "reason": "Miete an Zacharias Geheimrath"}, 1)
    body = text_of(client.get(f"/api/v1/tables/{tables[0].pk}/state"))
    assert "Zacharias" not in body
    # our own page of the same table never shows free text
    assert "Zacharias" not in text_of(client.get("/t/ka/tables/1/"))


def test_an_address_with_an_unknown_slug_leaves_nothing_in_the_cache(client):
    """Found by the API fuzz: every slug anyone typed left a key without expiry in Redis (a
    100 kB slug left a 100 kB key)."""
    from django.core.cache import cache as django_cache

    from scoring import cache

    slug = "gibt-es-nicht"
    for path in (f"/t/{slug}/", f"/t/{slug}/live/standings",
                 f"/api/v1/tournaments/{slug}/standings", f"/api/v1/tournaments/{slug}/tables"):
        assert client.get(path).status_code == 404, path
    for name in (cache.STANDINGS, cache.TABLES):
        assert django_cache.get(cache.key(slug, f"{name}:generation")) is None
