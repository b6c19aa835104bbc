"""The contract's worked examples (shared/spec/examples), replayed by the engine."""

from __future__ import annotations

import json

import pytest
from rules_testkit import EXAMPLES

from referee.rules import (
    RuleViolation,
    parse_record,
    replay,
    replay_result,
)


@pytest.mark.parametrize("name", ["karlsruhe-second-bankruptcy", "classic-ledger-running"])
def test_example_replays_to_expected_output(name: str) -> None:
    record = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((EXAMPLES / f"{name}.out.json").read_text(encoding="utf-8"))
    assert replay_result(replay(record)) == expected


def test_refused_example_names_event_2() -> None:
    record = json.loads((EXAMPLES / "refused-deed-owned-twice.json").read_text(encoding="utf-8"))
    with pytest.raises(RuleViolation) as refused:
        replay(record)
    line = refused.value.line()
    assert line.startswith("event 2 ")
    assert (
        line == (EXAMPLES / "refused-deed-owned-twice.err.txt").read_text(encoding="utf-8").strip()
    )
    assert refused.value.code == "deed_already_owned"
    assert refused.value.line("de") == "event 2 (deal badstrasse): Badstraße gehört bereits anna"


@pytest.mark.parametrize("name", ["karlsruhe-second-bankruptcy", "classic-ledger-running"])
def test_export_of_example_replays_to_same_state(name: str) -> None:
    record = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    game = replay(record)
    exported = game.to_record()
    assert exported == record  # nothing added, nothing lost
    again = replay(json.loads(json.dumps(exported)))
    assert again.state.snapshot() == game.state.snapshot()


def test_karlsruhe_example_details() -> None:
    record = json.loads((EXAMPLES / "karlsruhe-second-bankruptcy.json").read_text(encoding="utf-8"))
    game = replay(parse_record(record))
    s = game.state
    # Frank's deeds went back to the bank with the game-ending bankruptcy: nobody's, no auction.
    assert "wasserwerk" not in s.owner and not s.must_auction
    # Ben's deeds passed to eva with his first (non-ending) bankruptcy.
    assert s.owner["badstrasse"] == s.owner["chausseestrasse"] == "eva"
    assert s.bankrupt == ["ben", "frank"]
    assert s.houses_in_bank == 32 - 6
