"""``checks_read``: everything ``legal_actions`` reads of a state, by which the console keeps the
players' legal actions between posts (issue 29: a payment between players changes none of them
without the ledger). Pinned: on every state of random games, in ledger mode and without, the
kept answers are those ``legal_actions`` gives, and the key leaves out only what no check of
``legal_actions`` reads."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from rules_testkit import ALL_RULESETS, new_game

from referee import rules
from referee.console import legal
from referee.rules import Game, GameState, checks_read, get_ruleset, queries
from referee.rules.simulate import random_step

START = dt.datetime(2026, 11, 28, 10, tzinfo=dt.UTC)


def test_every_field_of_the_state_is_read_but_the_derived_ones_and_the_last_time():
    game = new_game("karlsruhe")
    assert set(GameState.__slots__) >= queries._NOT_READ
    # a field added to the state is in the key, or stated in _NOT_READ as not read
    assert len(checks_read(game)) == len(GameState.__slots__) - len(queries._NOT_READ)


def test_a_payment_between_players_keeps_the_key_without_the_ledger_only():
    for ledger in (False, True):
        game = new_game("karlsruhe", {"type": "pay", "from": "ben", "to": "bank", "amount": 1},
                        ledger=ledger)  # play runs
        before = checks_read(game)
        game.apply({"type": "pay", "from": "anna", "to": "ben", "amount": 10})
        assert (checks_read(game) == before) is not ledger


@pytest.mark.parametrize("ledger", [False, True])
def test_kept_answers_are_legal_actions_on_every_state_of_random_games(monkeypatch, ledger):
    made = []
    uncached = rules.legal_actions

    def counted(state, player):
        made.append(player)
        return uncached(state, player)

    monkeypatch.setattr(rules, "legal_actions", counted)
    legal.clear()
    asked = 0
    for ruleset in ALL_RULESETS:
        rng = random.Random(f"kept-{ruleset}-{ledger}")
        count = rng.randint(2, min(6, get_ruleset(ruleset).players_max))
        game = Game(ruleset=ruleset, players=[f"p{i}" for i in range(count)], ledger=ledger)
        for step in range(250):
            # events with a time (the clock, the last time: not read) and without
            at = START + dt.timedelta(seconds=40 * step) if ruleset != "classic" else None
            random_step(game, rng.choice, allow_ending=rng.random() < 0.2, at=at)
            state = game.state
            reads = checks_read(state)
            for player in state.players:
                kept = legal.legal_actions(state, player, reads=reads)
                assert kept == uncached(state, player), (ruleset, player, len(game))
                kept.setdefault("buy", []).append("changed by the caller")  # not kept
                asked += 1
            if game.status == "finished":
                break
    assert asked > 1000
    # the answers were reused (the same state read again after payments, cash counts …)
    assert len(made) < asked * (0.9 if ledger else 0.7)
