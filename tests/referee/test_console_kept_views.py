"""The deeds' views and the refusals of the console's players, kept per process by what they
read (issue 29: built again on every post, though a payment changes none of them). Pinned: on
every state of random games, with the names of the players changing, the kept ones are those
built afresh, and a caller changing them changes nothing kept."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from referee import rules
from referee.console import legal, picture, reasons
from referee.rules.simulate import random_step
from referee.words import Names, Refusal

START = dt.datetime(2026, 11, 28, 10, tzinfo=dt.UTC)
RULESETS = ("karlsruhe", "classic", "short-game", "time-limit", "castle-short", "classic-dm")


def _names(state: rules.GameState, suffix: str) -> Names:
    return Names({key: f"{key.upper()}{suffix}" for key in state.players},
                 {key: seat for seat, key in enumerate(state.players, start=1)},
                 {d.key: d.name for d in state.board.deeds}, state.board)


VIEW = picture._deed_view


def _fresh(state: rules.GameState, names: Names) -> list[dict]:
    return [VIEW(state, d, names) for d in state.board.deeds]


@pytest.mark.parametrize("ledger", [False, True])
def test_kept_deed_views_and_refusals_are_those_built_afresh(monkeypatch, ledger):
    made = []
    monkeypatch.setattr(picture, "_deed_view", lambda *args: made.append(1) or VIEW(*args))
    picture._deed_views.clear()
    legal.clear()
    compared = asked = 0
    for ruleset in RULESETS:
        rng = random.Random(f"views-{ruleset}-{ledger}")
        game = rules.Game(ruleset=ruleset, players=[f"p{i}" for i in range(4)], ledger=ledger)
        for step in range(150):
            at = START + dt.timedelta(seconds=40 * step) if step % 2 else None
            random_step(game, rng.choice, allow_ending=rng.random() < 0.2, at=at)
            state = game.state
            reads = rules.checks_read(state)
            # the names change now and then (a player renamed): the views name the owner
            names = _names(state, "" if step % 7 else "-renamed")
            views = picture._deeds(state, names, reads)
            asked += len(views)
            assert views == _fresh(state, names), (ruleset, len(game))
            views[0]["owner_name"] = "changed by the caller"  # not kept
            for player in state.players:
                if player in state.bankrupt_set:
                    continue
                actions = rules.legal_actions(state, player)
                kept = legal.unavailable(state, player, actions, names, reads=reads)
                assert kept == reasons.unavailable(
                    state, player, actions, lambda violation, names=names: Refusal.of(violation, names))
                for item in kept:
                    item["message_en"] = "changed by the caller"  # not kept
                compared += 1
            if game.status == "finished":
                break
    assert compared > 500
    # reused (with the ledger a payment changes the cash the checks read: kept, less often)
    assert len(made) < asked * (1 if ledger else 0.85)
