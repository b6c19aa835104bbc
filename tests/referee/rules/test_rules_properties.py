"""Properties over random legal games (Hypothesis picks every choice among legal actions)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_testkit import ALL_RULESETS

from referee.rules import (
    Game,
    RuleViolation,
    get_ruleset,
    replay,
    standings,
)
from referee.rules.simulate import random_game, random_step

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def games(draw: st.DrawFn, *, allow_void: bool = True, max_events: int = 80) -> Game:
    ruleset = draw(st.sampled_from(ALL_RULESETS))
    count = draw(st.integers(2, min(5, get_ruleset(ruleset).players_max)))
    players = tuple(f"p{i}" for i in range(count))

    def choose(options: Any) -> Any:
        return draw(st.sampled_from(list(options)))

    return random_game(
        ruleset=ruleset,
        players=players,
        ledger=draw(st.booleans()),
        events=draw(st.integers(max_events // 4, max_events)),
        choose=choose,
        allow_void=allow_void,
        clock=draw(st.booleans()),
    )


def assert_invariants(game: Game) -> None:
    s = game.state
    rules = s.rules
    active = set(s.active_players)
    # Every deed has at most one owner, and owners are players still in the game.
    assert set(s.owner.values()) <= active
    assert s.mortgaged <= set(s.owner), "deeds with the bank are free of mortgage"
    # Houses and hotels in play never exceed the bank's supply.
    levels = s.level.values()
    houses = sum(lvl for lvl in levels if lvl <= rules.max_houses)
    hotels = sum(1 for lvl in levels if lvl > rules.max_houses)
    assert s.houses_in_bank >= 0 and houses + s.houses_in_bank == rules.house_supply
    assert s.hotels_in_bank >= 0 and hotels + s.hotels_in_bank == rules.hotel_supply
    # Building stays even, on complete unmortgaged groups only.
    for keys in s.board.groups.values():
        built = [s.level[k] for k in keys if k in s.level]
        if any(built):
            assert max(built) - min(built) <= 1
            assert len({s.owner.get(k) for k in keys}) == 1
            assert not any(k in s.mortgaged for k in keys)
    # Deals within the ruleset's count; bankrupt players hold nothing.
    assert all(n <= rules.deal_count for n in s.deals.values())
    # Standings: everyone once, net worth = its breakdown, places in order.
    table = standings(s)
    assert sorted(st.player for st in table) == sorted(s.players)
    for row in table:
        assert row.net_worth == row.breakdown.total
        if row.bankrupt:
            assert row.net_worth == 0
    places = [row.place for row in table]
    assert places == sorted(places) and places[0] == 1
    if s.ledger:
        assert all(s.cash[p] >= 0 for p in active)


@SETTINGS
@given(games())
def test_invariants_hold(game: Game) -> None:
    assert_invariants(game)


@SETTINGS
@given(games())
def test_replaying_the_export_gives_the_same_state(game: Game) -> None:
    again = replay(game.to_record())
    assert again.state.snapshot() == game.state.snapshot()
    assert again.events == game.events and again.voided == game.voided


def clean_events(game: Game, *, also: int | None = None) -> list[dict[str, Any]]:
    """The record's events with every voided event, every void (and ``also``) left out."""
    gone = set(game.voided) | ({also} if also is not None else set())
    return [e for i, e in enumerate(game.events) if i not in gone and e["type"] != "void"]


def replay_events(game: Game, events: list[dict[str, Any]]) -> Game | RuleViolation:
    record = {**game.to_record(), "events": events}
    try:
        return replay(record)
    except RuleViolation as exc:
        return exc


@SETTINGS
@given(games())
def test_voided_events_are_as_if_never_recorded(game: Game) -> None:
    clean = replay_events(game, clean_events(game))
    assert isinstance(clean, Game)
    assert clean.state.snapshot() == game.state.snapshot()


@SETTINGS
@given(games(), st.data())
def test_void_equals_never_having_had_the_event(game: Game, data: st.DataObject) -> None:
    candidates = [
        i
        for i, e in enumerate(game.events)
        if e["type"] not in ("void", "start") and i not in game.voided
    ]
    if not candidates:
        return
    index = data.draw(st.sampled_from(candidates))
    without = replay_events(game, clean_events(game, also=index))
    void = {"type": "void", "event": index, "reason": "test"}
    try:
        game.apply(void)
    except RuleViolation as exc:
        assert exc.code == "void_breaks_later_event"
        assert isinstance(without, RuleViolation), "void refused but the record without it replays"
        assert exc.params["cause"].code == without.code
        return
    assert isinstance(without, Game), f"void accepted but without it: {without}"
    assert game.state.snapshot() == without.state.snapshot()
    assert_invariants(game)


@SETTINGS
@given(games(allow_void=False), st.data())
def test_void_equals_replay_without_the_event(game: Game, data: st.DataObject) -> None:
    """The plain case: a record without earlier corrections, one event voided."""
    events = game.events
    candidates = [i for i, e in enumerate(events) if e["type"] != "start"]
    if not candidates:
        return
    index = data.draw(st.sampled_from(candidates))
    without = replay_events(game, events[:index] + events[index + 1 :])
    try:
        game.apply({"type": "void", "event": index, "reason": "test"})
    except RuleViolation:
        assert isinstance(without, RuleViolation)
        return
    assert isinstance(without, Game)
    assert game.state.snapshot() == without.state.snapshot()


@SETTINGS
@given(games(allow_void=False, max_events=40), st.data())
def test_check_agrees_with_apply_and_refusals_change_nothing(
    game: Game, data: st.DataObject
) -> None:
    """Arbitrary (often illegal) events: check and apply agree, a refusal changes nothing."""
    s = game.state
    players = [*s.players, "bank", "zoe"]
    deeds = [d.key for d in s.board.deeds] + ["los", "nowhere"]
    event = data.draw(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(
                    [
                        "buy",
                        "build",
                        "sell_building",
                        "mortgage",
                        "unmortgage",
                        "jail",
                        "release",
                        "pay",
                        "trade",
                        "auction",
                        "bankrupt",
                    ]
                ),
                "player": st.sampled_from(players),
                "deed": st.sampled_from(deeds),
                "from": st.sampled_from(players),
                "to": st.sampled_from(players),
                "deeds": st.lists(st.sampled_from(deeds), max_size=2),
                "winner": st.sampled_from([*players, None]),
                "creditor": st.sampled_from(players),
                "price": st.integers(-1, 400),
                "amount": st.integers(-1, 400),
            }
        )
    )
    before = s.snapshot()
    try:
        game.check(event)
    except RuleViolation as refused:
        try:
            game.apply(event)
        except RuleViolation as again:
            assert again.code == refused.code
        else:
            raise AssertionError("check refused what apply accepted")
        assert game.state.snapshot() == before
        assert refused.message_de and refused.message_en
        return
    game.apply(event)
    assert_invariants(game)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_long_seeded_games_reach_hotels_and_keep_invariants(ruleset: str) -> None:
    """Deep games (1,500 events, no ending) checked as they go: Hypothesis' short games rarely
    reach hotels and an empty bank, these do."""
    seed = ALL_RULESETS.index(ruleset)
    rng = random.Random(seed)
    game = Game(ruleset=ruleset, players=("a", "b", "c", "d"), ledger=seed % 2 == 0)
    most_hotels = 0
    while len(game) < 1500:
        random_step(game, rng.choice, allow_ending=False, allow_void=len(game) % 7 == 0)
        if len(game) % 25 == 0:
            assert_invariants(game)
        most_hotels = max(most_hotels, game.state.rules.hotel_supply - game.state.hotels_in_bank)
    assert_invariants(game)
    assert most_hotels > 0, "no hotel was ever built"
    assert game.voided, "no correction was ever made"
    again = replay(game.to_record())
    assert again.state.snapshot() == game.state.snapshot()
