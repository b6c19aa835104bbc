"""Swap and move: previews equal an independent recount; stale versions are refused (409)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from factories import (
    ClubFactory,
    OrganizerFactory,
    PlayerFactory,
    TournamentFactory,
    checked_in_players,
)
from gameplay import make_round, seating_layout

from tournament import errors, selectors
from tournament.models import Round, Seat, Tournament
from tournament.rounds import services
from tournament.seating import count_repeats, count_same_club

pytestmark = pytest.mark.django_db


def _positions(round_: Round) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for number, position in Seat.objects.filter(round=round_).values_list(
        "table__number", "position"
    ):
        out.setdefault(number, []).append(position)
    return {n: sorted(p) for n, p in out.items()}


def _seat_round(tournament, number, layout, status=Round.Status.SEATED):
    """A round seated exactly as ``layout`` (lists of players per table)."""
    return make_round(tournament, number, layout, status=status)[0]


@pytest.fixture
def setup():
    """Round 1 played (tables 0-5, 6-11, 12-17), round 2 seated with deliberate repeats/clubs.

    Round 2: table 1 = 0 1 2 6 7 12 (0-1, 0-2, 1-2, 6-7 met before: 4 repeats), table 2 =
    3 4 8 9 13 14 (3 repeats), table 3 = 5 10 11 15 16 17 (4 repeats); players 0 and 6 share
    a club (table 1).
    """
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    club = ClubFactory()
    players = [
        PlayerFactory(tournament=tournament, name=f"P{i:02d}", club=club if i in (0, 6) else None)
        for i in range(18)
    ]
    first = [players[0:6], players[6:12], players[12:18]]
    _seat_round(tournament, 1, first, status=Round.Status.COMPLETE)
    second = [
        [players[i] for i in (0, 1, 2, 6, 7, 12)],
        [players[i] for i in (3, 4, 8, 9, 13, 14)],
        [players[i] for i in (5, 10, 11, 15, 16, 17)],
    ]
    round_ = _seat_round(tournament, 2, second)
    clubs = {p.pk: p.club_id for p in players if p.club_id}
    history = [[[p.pk for p in table] for table in first]]
    return tournament, round_, players, clubs, history


def _recount(round_, clubs, history):
    layout = seating_layout(round_)
    return count_repeats(rounds=[layout], history=history), count_same_club(
        rounds=[layout], clubs=clubs
    )


def test_overview_counts_per_table_and_totals(setup):
    _, round_, _, clubs, history = setup
    overview = selectors.seating_overview(round_)
    assert [line.repeats for line in overview.tables] == [4, 3, 4]
    assert [line.same_club for line in overview.tables] == [1, 0, 0]
    assert (overview.repeats, overview.same_club) == _recount(round_, clubs, history)
    assert overview.repeats == sum(line.repeats for line in overview.tables)


@pytest.mark.parametrize(("a", "b"), [(0, 3), (6, 5), (1, 15), (12, 13), (2, 17)])
def test_swap_preview_equals_the_recount_after_saving(setup, a, b):
    _, round_, players, clubs, history = setup
    preview = selectors.preview_swap(
        selectors.seating_overview(round_), a=players[a].pk, b=players[b].pk
    )
    services.swap_players(round_=round_, a=players[a].pk, b=players[b].pk, version=0)
    assert (preview.repeats_after, preview.same_club_after) == _recount(round_, clubs, history)
    after = selectors.seating_overview(round_)
    for change in preview.tables:
        line = after.tables[change.number - 1]
        assert (change.repeats_after, change.same_club_after) == (line.repeats, line.same_club)
        assert change.size_after == len(line.seats)
    round_.refresh_from_db()
    assert round_.version == 1
    assert _positions(round_) == {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [1, 2, 3, 4, 5, 6]}


def test_swap_exchanges_table_and_turn_position(setup):
    _, round_, players, _, _ = setup
    a, b = players[1], players[9]  # table 1 seat 2, table 2 seat 4
    services.swap_players(round_=round_, a=a.pk, b=b.pk, version=0)
    seat_a, seat_b = Seat.objects.get(round=round_, player=a), Seat.objects.get(round=round_, player=b)
    assert (seat_a.table.number, seat_a.position) == (2, 4)
    assert (seat_b.table.number, seat_b.position) == (1, 2)


def test_move_preview_equals_the_recount_after_saving():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    players = checked_in_players(tournament, 17, clubs=3)
    _seat_round(tournament, 1, [players[0:6], players[6:12], players[12:17]], Round.Status.COMPLETE)
    round_ = _seat_round(
        tournament, 2, [players[0:3] + players[6:9], players[3:6] + players[12:15],
                        players[9:12] + players[15:17]]
    )
    clubs = {p.pk: p.club_id for p in players}
    history = [[[p.pk for p in t] for t in (players[0:6], players[6:12], players[12:17])]]
    mover = players[4]  # table 2 (6 players) -> table 3 (5 players)
    preview = selectors.preview_move(
        selectors.seating_overview(round_), player=mover.pk, to_table=3
    )
    services.move_player(round_=round_, player=mover.pk, to_table=3, version=0)
    assert (preview.repeats_after, preview.same_club_after) == _recount(round_, clubs, history)
    assert [(c.number, c.size_before, c.size_after) for c in preview.tables] == [
        (2, 6, 5),
        (3, 5, 6),
    ]
    seat = Seat.objects.get(round=round_, player=mover)
    assert (seat.table.number, seat.position) == (3, 6)
    assert _positions(round_) == {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5], 3: [1, 2, 3, 4, 5, 6]}


def test_move_keeps_table_sizes(setup):
    _, round_, players, _, _ = setup
    with pytest.raises(errors.TableSizeViolation) as refused:
        services.move_player(round_=round_, player=players[0].pk, to_table=2, version=0)
    assert "at most 6" in refused.value.message_in("en")
    with pytest.raises(errors.TableSizeViolation):
        selectors.preview_move(
            selectors.seating_overview(round_), player=players[0].pk, to_table=2
        )
    round_.refresh_from_db()
    assert round_.version == 0


def test_move_may_not_shorten_a_table_below_the_minimum():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    players = checked_in_players(tournament, 10)
    round_ = _seat_round(tournament, 1, [players[0:5], players[5:9]] + [[players[9]]][:0])
    # 5 + 4 players (min 5 by default): moving from the 5-table to the 4-table is an even swap
    services.move_player(round_=round_, player=players[0].pk, to_table=2, version=0)
    # but making the 4-table (now 4 again, the other 5) a 3-table is refused ...
    with pytest.raises(errors.TableSizeViolation) as refused:
        services.move_player(round_=round_, player=players[1].pk, to_table=2, version=1)
    assert "at least 5" in refused.value.message_in("en")
    # ... unless the organizer allows smaller tables.
    services.move_player(round_=round_, player=players[1].pk, to_table=2, version=1, min_size=3)
    assert sorted(len(t) for t in seating_layout(round_)) == [3, 6]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"a": 0, "b": 0}, "invalid_seating_edit"),
        ({"a": 0, "b": 1}, "invalid_seating_edit"),  # same table
    ],
)
def test_pointless_swaps_are_refused(setup, kwargs, code):
    _, round_, players, _, _ = setup
    with pytest.raises(errors.DomainError) as refused:
        services.swap_players(
            round_=round_, a=players[kwargs["a"]].pk, b=players[kwargs["b"]].pk, version=0
        )
    assert refused.value.code == code


def test_unseated_player_and_unknown_table_are_refused(setup):
    tournament, round_, players, _, _ = setup
    stranger = PlayerFactory(tournament=tournament, name="Late Larry")
    with pytest.raises(errors.InvalidSeatingEdit) as refused:
        services.swap_players(round_=round_, a=stranger.pk, b=players[0].pk, version=0)
    assert "Late Larry is not seated in round 2" in refused.value.message_in("en")
    with pytest.raises(errors.InvalidSeatingEdit):
        services.move_player(round_=round_, player=players[0].pk, to_table=9, version=0)


def test_locked_round_cannot_be_edited(setup):
    _, round_, players, _, _ = setup
    services.lock_round(round_=round_, version=0)
    with pytest.raises(errors.InvalidTransition):
        services.swap_players(round_=round_, a=players[0].pk, b=players[3].pk, version=1)


def test_stale_version_is_refused_and_nothing_is_saved(setup):
    _, round_, players, _, _ = setup
    before = seating_layout(round_)
    services.swap_players(round_=round_, a=players[0].pk, b=players[3].pk, version=0)
    after_first = seating_layout(round_)
    assert after_first != before
    with pytest.raises(errors.StaleVersion) as refused:
        services.move_player(round_=round_, player=players[5].pk, to_table=1, version=0)
    assert refused.value.http_status == 409
    assert "changed meanwhile" in refused.value.message_in("en")
    assert seating_layout(round_) == after_first
    round_.refresh_from_db()
    assert round_.version == 1


def test_two_organizers_racing_second_save_is_refused(client, setup):
    """Both loaded version 0; the first save wins, the second gets the 409 page."""
    tournament, round_, players, _, _ = setup
    first, second = OrganizerFactory(), OrganizerFactory()
    url = f"/manage/{tournament.slug}/rounds/2/"
    client.force_login(first)
    version_seen = client.get(url).context["round"].version
    from django.test import Client

    other = Client()
    other.force_login(second)
    assert other.get(url).context["round"].version == version_seen

    response = client.post(
        url + "swap/", {"version": version_seen, "a": players[0].pk, "b": players[3].pk}
    )
    assert response.status_code == 302
    saved = seating_layout(round_)
    response = other.post(
        url + "move/",
        {"version": version_seen, "player": players[1].pk, "to_table": 3},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert 'data-code="stale_version"' in body
    assert "changed meanwhile" in body
    assert seating_layout(round_) == saved
    round_.refresh_from_db()
    assert round_.version == version_seen + 1


def test_stale_version_answers_409_in_the_api(client, setup):
    _, round_, players, _, _ = setup
    client.force_login(OrganizerFactory())
    url = f"/api/v1/rounds/{round_.pk}/"
    ok = client.post(url + "swap/", {"version": 0, "a": players[0].pk, "b": players[3].pk})
    assert ok.status_code == 200 and ok.json()["version"] == 1
    stale = client.post(url + "swap/", {"version": 0, "a": players[1].pk, "b": players[4].pk})
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "stale_version"
    assert "changed meanwhile" in body["message_en"]
    stale = client.post(url + "move/", {"version": 0, "player": players[1].pk, "to_table": 3})
    assert stale.status_code == 409
    preview = client.post(url + "swap/preview/", {"version": 0, "a": players[1].pk, "b": 1})
    assert preview.status_code == 409
    round_.refresh_from_db()
    assert round_.version == 1


def test_api_preview_saves_nothing_and_matches_the_save(client, setup):
    _, round_, players, clubs, history = setup
    client.force_login(OrganizerFactory())
    url = f"/api/v1/rounds/{round_.pk}/"
    body = {"version": 0, "player": players[12].pk, "to_table": 3}
    before = seating_layout(round_)
    # table 3 is full (6): moving there is refused like the save would be
    assert client.post(url + "move/preview/", body).status_code == 400
    body = {"version": 0, "a": players[6].pk, "b": players[5].pk}
    preview = client.post(url + "swap/preview/", body)
    assert preview.status_code == 200
    assert seating_layout(round_) == before
    data = preview.json()
    assert client.post(url + "swap/", body).status_code == 200
    assert (data["repeats_after"], data["same_club_after"]) == _recount(round_, clubs, history)


def test_htmx_preview_fragment_shows_the_new_counts(client, setup):
    tournament, round_, players, clubs, history = setup
    client.force_login(OrganizerFactory())
    url = f"/manage/{tournament.slug}/rounds/2/preview/"
    response = client.get(
        url,
        {"action": "swap", "version": 0, "a": players[0].pk, "b": players[3].pk},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    preview = response.context["preview"]
    body = response.content.decode()
    assert f'data-repeats-after="{preview.repeats_after}"' in body
    client.post(
        f"/manage/{tournament.slug}/rounds/2/swap/",
        {"version": 0, "a": players[0].pk, "b": players[3].pk},
    )
    assert (preview.repeats_after, preview.same_club_after) == _recount(round_, clubs, history)
    # A stale or refused preview is shown (status 200 so htmx swaps it in), not saved.
    response = client.get(
        url, {"action": "move", "version": 0, "player": players[0].pk, "to_table": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert 'data-code="stale_version"' in response.content.decode()


def test_seating_page_shows_counts_and_edit_forms(client, setup):
    tournament, round_, _, _, _ = setup
    client.force_login(OrganizerFactory())
    body = client.get(f"/manage/{tournament.slug}/rounds/2/").content.decode()
    assert 'data-total-repeats="11"' in body
    assert 'data-table="1" data-repeats="4" data-same-club="1"' in body
    assert 'data-table="2" data-repeats="3" data-same-club="0"' in body
    assert 'name="version" value="0"' in body
    assert "hx-get=" in body


@pytest.mark.parametrize("tables", [2, 6])
def test_seating_page_query_count_does_not_grow_with_tables(
    client, django_assert_num_queries, tables
):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    players = checked_in_players(tournament, tables * 6, clubs=3)
    _seat_round(
        tournament, 1, [players[i * 6:(i + 1) * 6] for i in range(tables)], Round.Status.COMPLETE
    )
    shifted = players[3:] + players[:3]
    round_ = _seat_round(tournament, 2, [shifted[i * 6:(i + 1) * 6] for i in range(tables)])
    for number, table in enumerate(round_.tables.order_by("number"), start=1):
        table.banker = User.objects.create(username=f"bank-{tables}-{number}")
        table.save()
    client.force_login(OrganizerFactory())
    client.get(f"/manage/{tournament.slug}/rounds/2/")  # warm the session and user caches
    # session, user, tournament + staff roles (access), round, tables, seats, history, players,
    # and the header's own links (the tournaments this person staffs)
    with django_assert_num_queries(10):
        response = client.get(f"/manage/{tournament.slug}/rounds/2/")
    assert response.status_code == 200
    assert len(response.context["overview"].tables) == tables


@pytest.mark.parametrize("action, data", [
    ("swap", {"a": 10**20, "b": 1}),
    ("move", {"player": 10**20, "to_table": 1}),
    ("move", {"player": 1, "to_table": 10**6}),
    ("swap", {"a": -5, "b": 1}),
])
def test_ids_beyond_the_columns_are_refused_by_the_form(client, setup, action, data):
    """Found by the form fuzz: an id too large for SQLite's INTEGER was an OverflowError."""
    tournament, round_, _, _, _ = setup
    client.force_login(OrganizerFactory())
    saved = seating_layout(round_)
    response = client.post(f"/manage/{tournament.slug}/rounds/2/{action}/",
                           {"version": round_.version, **data})
    assert response.status_code == 400
    assert 'data-code="invalid_form"' in response.content.decode()
    assert seating_layout(round_) == saved
    preview = client.get(f"/manage/{tournament.slug}/rounds/2/preview/",
                         {"action": action, "version": round_.version, **data})
    assert preview.status_code == 200
