"""``legal_actions`` stops checking an action's deeds at a refusal that holds for every deed
and checks one deed of each kind its checks tell apart (issue 29: the console asks it for every
player on every post). Pinned: its answers are those
of checking every deed (the function as it was, below) on every state of many random games,
for every player; and the deeds are no longer all checked when play runs or the game is over."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_testkit import ALL_RULESETS, new_game

from referee.rules import Game, RuleViolation, get_ruleset, legal_actions, queries
from referee.rules.contract import BANK
from referee.rules.engine import check_event
from referee.rules.simulate import random_game, random_step


def every_deed_checked(game: Game, player: str) -> dict[str, list[str]]:
    """``legal_actions`` before issue 29: every candidate event checked."""
    s = game.state

    def allowed(event: dict[str, Any]) -> bool:
        try:
            check_event(s, event)
        except RuleViolation:
            return False
        return True

    out: dict[str, list[str]] = {}
    owner = s.owner
    unowned = [d.key for d in s.board.deeds if d.key not in owner]
    mine = [d.key for d in s.board.deeds if owner.get(d.key) == player]
    partner = next((p for p in s.active_players if p != player), None)
    candidates: list[tuple[str, list[dict[str, Any]]]] = [
        ("deal", [{"type": "deal", "player": player, "deed": k} for k in unowned]),
        ("buy", [{"type": "buy", "player": player, "deed": k} for k in unowned]),
        ("auction", [{"type": "auction", "deed": k, "winner": player,
                      "price": s.rules.auction_min_bid} for k in unowned]),
        ("build", [{"type": "build", "deed": k} for k in mine]),
        ("sell_building", [{"type": "sell_building", "deed": k} for k in mine]),
        ("mortgage", [{"type": "mortgage", "deed": k} for k in mine]),
        ("unmortgage", [{"type": "unmortgage", "deed": k} for k in mine]),
    ]
    if partner is not None:
        candidates.append(("trade", [{"type": "trade", "from": player, "to": partner,
                                      "deeds": [k]} for k in mine]))
    for action, events in candidates:
        deeds = [e.get("deed") or e["deeds"][0] for e in events if allowed(e)]
        if deeds:
            out[action] = deeds
    for action, event in (
        ("jail", {"type": "jail", "player": player}),
        ("release", {"type": "release", "player": player}),
        ("pay", {"type": "pay", "from": player, "to": BANK, "amount": 1}),
        ("cash", {"type": "cash", "player": player, "amount": 0}),
        ("bankrupt", {"type": "bankrupt", "player": player, "creditor": BANK}),
    ):
        if allowed(event):
            out[action] = []
    return out


def assert_same(game: Game) -> int:
    for player in game.state.players:  # bankrupt players too: the console asks for none, others may
        assert legal_actions(game, player) == every_deed_checked(game, player), (
            player, len(game))
    return len(game.state.players)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
@pytest.mark.parametrize("ledger", [False, True])
def test_the_same_answers_on_every_state_of_random_games(ruleset, ledger):
    import random

    compared = 0
    for seed in range(4):
        rng = random.Random(f"{ruleset}-{ledger}-{seed}")
        count = rng.randint(2, min(6, get_ruleset(ruleset).players_max))
        game = Game(ruleset=ruleset, players=[f"p{i}" for i in range(count)], ledger=ledger)
        compared += assert_same(game)
        for _ in range(400):
            if random_step(game, rng.choice, allow_ending=rng.random() < 0.3) is not None:
                compared += assert_same(game)
            if game.status == "finished" and rng.random() < 0.1:
                break
        compared += assert_same(game)
    assert compared > 500


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_the_same_answers_on_games_hypothesis_plays(data):
    ruleset = data.draw(st.sampled_from(ALL_RULESETS))
    count = data.draw(st.integers(2, min(5, get_ruleset(ruleset).players_max)))

    def choose(options: Any) -> Any:
        return data.draw(st.sampled_from(list(options)))

    game = random_game(ruleset=ruleset, players=tuple(f"p{i}" for i in range(count)),
                       ledger=data.draw(st.booleans()), events=data.draw(st.integers(0, 120)),
                       choose=choose, clock=data.draw(st.booleans()))
    assert_same(game)


def checked(monkeypatch, game: Game, player: str) -> dict[str, int]:
    """How many events of each type ``legal_actions`` checks."""
    counts: dict[str, int] = {}

    def counting(state, event, **kwargs):
        counts[event["type"]] = counts.get(event["type"], 0) + 1
        return check_event(state, event, **kwargs)

    monkeypatch.setattr(queries, "check_event", counting)
    legal_actions(game, player)
    return counts


def test_dealing_is_checked_once_when_play_runs(monkeypatch):
    # play runs (no more deals) and every deed is with the bank
    game = new_game("karlsruhe", {"type": "pay", "from": "anna", "to": "bank", "amount": 10})
    assert game.status == "running" and len(queries.unowned_deeds(game)) == 28
    counts = checked(monkeypatch, game, "anna")
    assert counts["deal"] == 1  # every deed checked: 28
    assert counts["auction"] == 1  # at the minimum bid the deed makes no difference
    assert counts["buy"] == 1  # without the ledger the price refuses nothing
    ledger = new_game("karlsruhe", {"type": "pay", "from": "anna", "to": "bank", "amount": 10},
                      ledger=True)
    prices = {deed.price for deed in ledger.state.board.deeds}
    assert checked(monkeypatch, ledger, "anna")["buy"] == len(prices) < 28  # one per price


def test_each_action_is_checked_once_when_the_game_is_over(monkeypatch):
    game = new_game("karlsruhe")
    for player in ("ben", "carla", "dieter"):
        if game.status != "finished":
            game.apply({"type": "bankrupt", "player": player, "creditor": "bank"})
    assert game.status == "finished"
    counts = checked(monkeypatch, game, "anna")
    assert counts["deal"] == counts["buy"] == counts["auction"] == 1


@pytest.mark.parametrize("cash", [0, 60, 100, 199, 200, 350, 1500])
def test_paid_deals_and_purchases_a_player_can_afford_only_in_part(cash):
    """In ledger mode a deal and a purchase cost the deed's price: the deeds offered depend
    on it (one deed per price checked, not one for all)."""
    for phase in ("setup", "play"):
        game = new_game("karlsruhe", ledger=True)
        if phase == "play":
            game.apply({"type": "pay", "from": "ben", "to": "bank", "amount": 1})
        game.apply({"type": "cash", "player": "anna", "amount": cash})
        assert legal_actions(game, "anna") == every_deed_checked(game, "anna")


@given(st.tuples(*[st.integers(-10**6, 10**6)] * 5))
def test_a_net_worth_as_a_dict_is_asdicts(parts):
    """``NetWorth.as_dict`` (no deep copy, issue 29) answers what ``dataclasses.asdict`` did,
    keys in the same order."""
    from dataclasses import asdict

    worth = queries.NetWorth(*parts)
    assert list(worth.as_dict().items()) == list(asdict(worth).items())
