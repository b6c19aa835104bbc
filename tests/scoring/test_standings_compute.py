"""Standings by format and tie-break chain: pure, order-independent, provisional never counts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings.compute import (
    GameResultRow,
    PlayerLine,
    Settings,
    compute_standings,
    place_lines,
    table_winners_qualifiers,
)


def game(round_, table, places_worths, *, final=True, is_final_round=False):
    return [
        GameResultRow(round_, table, player, place, worth, final=final, is_final_round=is_final_round)
        for player, (place, worth) in places_worths.items()
    ]


def ranks(lines):
    return [(line.player, line.rank) for line in lines]


def test_placement_points_summed_over_rounds():
    results = game(1, 1, {1: (1, 3000), 2: (2, 2000), 3: (3, 1000)}) + game(
        2, 1, {1: (3, 500), 2: (1, 4000), 3: (2, 900)}
    )
    lines = compute_standings(players=[1, 2, 3], results=results, settings=Settings())
    assert [(line.player, line.points) for line in lines] == [(2, 11), (1, 10), (3, 9)]


def test_summed_net_worth_format():
    # 2 wins more points (6 + 5 each way, but 2 won the second game), 1 has more money
    results = game(1, 1, {1: (1, 3000), 2: (2, 2900)}) + game(2, 1, {1: (2, 100), 2: (1, 150)})
    lines = compute_standings(
        players=[1, 2], results=results, settings=Settings(format="net_worth_sum")
    )
    assert [line.player for line in lines] == [1, 2]
    assert lines[0].net_worth_sum == 3100


def test_the_tie_break_chain_decides_and_says_which_rule():
    # equal points (6 + 5 each), summed net worth decides
    results = game(1, 1, {1: (1, 3000), 2: (2, 2000)}) + game(2, 1, {1: (2, 100), 2: (1, 2500)})
    lines = compute_standings(players=[1, 2], results=results, settings=Settings())
    assert [line.player for line in lines] == [2, 1]
    assert lines[1].decided_by == "net_worth_sum"


def test_head_to_head_breaks_what_sums_cannot():
    # 1 and 2 have equal points, sums and best worth; 1 beat 2 when they met
    results = game(1, 1, {1: (1, 2000), 2: (2, 1000)}) + game(2, 2, {1: (2, 1000), 3: (1, 5000)})
    results += game(2, 3, {2: (1, 2000), 4: (2, 100)})
    settings_ = Settings(tie_breaks=("points", "net_worth_sum", "best_net_worth", "head_to_head"))
    lines = {line.player: line for line in compute_standings(
        players=[1, 2, 3, 4], results=results, settings=settings_)}
    assert lines[1].rank < lines[2].rank
    assert lines[2].decided_by == "head_to_head"


def test_equal_on_everything_shares_the_rank_without_lot():
    results = game(1, 1, {1: (1, 1000), 2: (1, 1000)})
    settings_ = Settings(tie_breaks=("points", "net_worth_sum"))
    lines = compute_standings(players=[1, 2], results=results, settings=settings_)
    assert [line.rank for line in lines] == [1, 1]


def test_the_lot_is_a_repeatable_seeded_draw():
    results = game(1, 1, {1: (1, 1000), 2: (1, 1000)})
    settings_ = Settings(tie_breaks=("points", "lot"), lot_seed=42)
    first = compute_standings(players=[1, 2], results=results, settings=settings_)
    again = compute_standings(players=[2, 1], results=results, settings=settings_)
    assert ranks(first) == ranks(again)
    assert [line.rank for line in first] == [1, 2]
    assert first[1].decided_by == "lot"


def test_provisional_results_are_shown_but_never_counted():
    results = game(1, 1, {1: (1, 3000), 2: (2, 2000)}, final=False)
    lines = compute_standings(players=[1, 2], results=results, settings=Settings())
    assert all(line.points == 0 for line in lines)
    assert lines[0].rounds[1]["final"] is False


def test_the_final_decides_the_title():
    results = game(1, 1, {1: (1, 9000), 2: (2, 100)}) + game(
        2, 1, {1: (2, 1000), 2: (1, 1200)}, is_final_round=True
    )
    lines = compute_standings(players=[1, 2, 3], results=results, settings=Settings())
    assert [line.player for line in lines][:2] == [2, 1]
    assert lines[0].final_place == 1 and lines[1].decided_by == "final"


def test_table_winners_then_best_runners_up_by_net_worth():
    results = game(1, 1, {1: (1, 3000), 2: (2, 2500), 3: (3, 100)}) + game(
        1, 2, {4: (1, 2000), 5: (2, 2600), 6: (3, 50)}
    )
    assert table_winners_qualifiers(results=results, seats=3) == [1, 4, 5]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_standings_do_not_depend_on_the_order_results_arrived_in(seed, rounds):
    rng = random.Random(seed)
    players = list(range(1, 13))
    results = []
    for round_ in range(1, rounds + 1):
        rng.shuffle(players)
        for table, start in enumerate(range(0, 12, 6), start=1):
            seated = players[start:start + 6]
            worths = [rng.randrange(0, 5000, 50) for _ in seated]
            order = sorted(range(6), key=lambda i: -worths[i])
            for place_index, i in enumerate(order, start=1):
                results.append(GameResultRow(round_, table, seated[i], place_index, worths[i]))
    shuffled = results[:]
    rng.shuffle(shuffled)
    a = compute_standings(players=sorted(players), results=results, settings=Settings(lot_seed=7))
    b = compute_standings(players=players[::-1], results=shuffled, settings=Settings(lot_seed=7))
    assert ranks(a) == ranks(b)
    assert [line.points for line in a] == sorted((line.points for line in a), reverse=True)


# --- issue 16: no ranks by lot for players who have not played; lots only where they decide ---


def test_players_without_a_confirmed_result_are_not_ranked():
    results = game(1, 1, {1: (1, 3000), 2: (2, 2000)})
    results += game(1, 2, {3: (1, 2500), 4: (2, 1000)}, final=False)  # still running
    lines = compute_standings(players=[1, 2, 3, 4, 5], results=results, settings=Settings())
    assert [(line.player, line.rank) for line in lines] == [(1, 1), (2, 2), (3, 0), (4, 0), (5, 0)]
    assert not any(line.decided_by == "lot" for line in lines)
    assert [line.qualified for line in lines] == [True, True, False, False, False]


def test_the_lot_is_drawn_only_across_the_podium_or_the_qualification_line():
    # two tables, same points and net worth for the two winners, the two runners-up, ...
    results = game(1, 1, {1: (1, 2000), 2: (2, 1500), 3: (3, 1000), 4: (4, 500)})
    results += game(1, 2, {5: (1, 2000), 6: (2, 1500), 7: (3, 1000), 8: (4, 500)})
    settings_ = Settings(tie_breaks=("points", "net_worth_sum", "lot"), finalists=4, lot_seed=3)
    lines = compute_standings(players=range(1, 9), results=results, settings=settings_)
    by_rank = [(line.rank, line.decided_by) for line in lines]
    # winners: 1st/2nd is the podium → drawn; runners-up 3rd/4th → podium → drawn;
    # third places 5/6: below the podium and inside no line → shared; 7/8 likewise
    assert by_rank[:4] == [(1, ""), (2, "lot"), (3, "points"), (4, "lot")]
    assert by_rank[4:] == [(5, "points"), (5, ""), (7, "points"), (7, "")]


def test_a_tie_across_the_qualification_line_is_drawn():
    results = game(1, 1, {1: (1, 2000), 2: (2, 1500), 3: (3, 1000)})
    results += game(1, 2, {4: (1, 3000), 5: (2, 2500), 6: (3, 1000)})
    results += game(1, 3, {7: (1, 4000), 8: (2, 3500), 9: (3, 1000)})
    settings_ = Settings(tie_breaks=("points", "net_worth_sum", "lot"), finalists=5, lot_seed=1)
    lines = compute_standings(players=range(1, 10), results=results, settings=settings_)
    thirds = [line for line in lines if line.player in (3, 6, 9)]
    assert [line.rank for line in thirds] == [7, 7, 7]  # positions 7–9 decide nothing
    # players 2 (1500) and 5 (2500), 8 (3500) differ: no lot; line between 5 and 6 is points
    assert [line.qualified for line in lines].count(True) == 5


# --- issue 29: places derived on read from the stored figures ---

#: What a standings row stores of a line (``scoring.models.StandingRow``): never its place.
STORED = ("points", "net_worth_sum", "best_net_worth", "table_wins", "games", "final_place",
          "deducted", "tie_order", "tie_break")
CHAINS = (
    ("points", "net_worth_sum", "best_net_worth", "head_to_head", "lot"),
    ("points", "head_to_head", "net_worth_sum", "lot"),
    ("points", "net_worth_sum", "lot"),
    ("points", "head_to_head"),
    ("points",),
)


def read_back(lines, rng):
    """The lines as a read finds them: their stored values only, in any order."""
    again = [PlayerLine(line.player, **{name: getattr(line, name) for name in STORED})
             for line in lines]
    rng.shuffle(again)
    return again


def placing(lines):
    return [(line.player, line.rank, line.decided_by, line.qualified) for line in lines]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3), st.sampled_from(CHAINS), st.booleans())
def test_the_stored_figures_give_the_same_places(seed, rounds, chain, final):
    """Few distinct net worths (many ties, head-to-head, lots), some players without a game,
    sometimes a final with an equal place: placed again from what a row stores, in any order,
    every line has its place, its deciding key and its qualification as computed."""
    rng = random.Random(seed)
    players = list(range(1, 21))
    results = []
    for round_ in range(1, rounds + 1):
        rng.shuffle(players)
        for table, start in enumerate(range(0, 12, 4), start=1):  # players 13+ sit out
            seated = players[start:start + 4]
            worths = sorted((rng.choice((500, 1000, 2000)) for _ in seated), reverse=True)
            for index, (player, worth) in enumerate(zip(seated, worths, strict=True)):
                place = worths.index(worth) + 1 if rng.random() < 0.5 else index + 1
                results.append(GameResultRow(round_, table, player, place, worth))
    if final:
        finalists = rng.sample(players[:12], 4)
        places = [1, 2, 2, 4]
        results += [GameResultRow(rounds + 1, 1, player, place, 100, is_final_round=True)
                    for player, place in zip(finalists, places, strict=True)]
    settings_ = Settings(tie_breaks=chain, finalists=4, lot_seed=seed)
    lines = compute_standings(players=sorted(players), results=results, settings=settings_,
                              deductions={players[0]: 2})
    assert placing(place_lines(read_back(lines, rng), settings=settings_)) == placing(lines)


def test_a_result_elsewhere_leaves_a_tie_as_it_was():
    """Head-to-head among equals is settled by the tied lines alone: games of other players
    change none of their stored values, only their places."""
    results = game(1, 1, {1: (1, 2000), 3: (2, 1000)})  # 1 beats 3 ...
    results += game(2, 2, {3: (1, 2000), 7: (2, 1000)}) + game(2, 3, {8: (1, 2000), 1: (2, 1000)})
    settings_ = Settings(lot_seed=5)
    before = {line.player: line for line in compute_standings(
        players=range(1, 9), results=results, settings=settings_)}
    # ... and both have 11 points, 3,000 summed and 2,000 at best: head-to-head decides
    assert [(before[p].rank, before[p].tie_break) for p in (1, 3)] == [(1, ""),
                                                                      (2, "head_to_head")]
    results += game(1, 4, {5: (1, 9000), 6: (2, 8000)}) + game(2, 4, {6: (1, 9000), 5: (2, 8000)})
    after = {line.player: line for line in compute_standings(
        players=range(1, 9), results=results, settings=settings_)}
    for player in (1, 3, 7, 8):
        assert [getattr(after[player], name) for name in STORED] == [
            getattr(before[player], name) for name in STORED]
        assert after[player].rank == before[player].rank + 2  # 5 and 6 passed them


def test_a_line_joining_a_tie_drawn_by_lot_moves_no_other_turn():
    """Equal on every figure and never met: the lot orders them on read, so whoever joins
    the group changes no other line's turn (at most the deciding key of the line it lands
    before, "" for the first of the group)."""
    settings_ = Settings(lot_seed=11)
    results = [row for table, player in enumerate(range(1, 6), start=1)
               for row in game(1, table, {player: (1, 2000), player + 10: (2, 1000)})]
    before = {line.player: line for line in compute_standings(
        players=range(1, 17), results=results, settings=settings_)}
    results += game(1, 6, {6: (1, 2000), 16: (2, 1000)})  # a sixth winner with 2,000
    after = {line.player: line for line in compute_standings(
        players=range(1, 17), results=results, settings=settings_)}
    assert {after[p].tie_order for p in range(1, 7)} == {0}
    assert {after[p].tie_break for p in range(1, 7)} <= {"", "lot"}
    changed = [p for p in range(1, 6) if [getattr(after[p], name) for name in STORED]
               != [getattr(before[p], name) for name in STORED]]
    assert len(changed) <= 1
    assert sorted(after[p].rank for p in range(1, 7)) == [1, 2, 3, 4, 5, 6]  # the podium draws


def test_the_finalists_pass_over_who_dropped_out_and_follow_the_format():
    """One rule for the mark, the desk's list and the seating (``choose_finalists``): a player
    who dropped out is passed over (the next moves up, the qualification line with him); table
    winners take the latest round's winners, then its best runners-up by net worth."""
    results = game(1, 1, {1: (1, 3000), 2: (2, 2500), 3: (3, 100)}) + game(
        1, 2, {4: (1, 2000), 5: (2, 2600), 6: (3, 50)})
    overall = Settings(format="placement_points", placement_points=(3, 2, 1), finalists=3,
                       tie_breaks=("points", "net_worth_sum"))
    lines = compute_standings(players=range(1, 7), results=results, settings=overall, out={1})
    assert [line.player for line in lines if line.qualified] == [4, 5, 2]
    assert lines[0].player == 1 and lines[0].rank == 1  # still ranked, only not qualified
    later = results + game(2, 1, {6: (1, 900), 5: (2, 800), 3: (3, 700)}) + game(
        2, 2, {1: (1, 500), 2: (2, 400), 4: (3, 300)})
    knockout = Settings(format="table_winners", placement_points=(3, 2, 1), finalists=3,
                        tie_breaks=("table_wins", "points"))
    lines = compute_standings(players=range(1, 7), results=later, settings=knockout, out={1})
    assert {line.player for line in lines if line.qualified} == {6, 5, 2}
