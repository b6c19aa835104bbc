"""The record envelope, export and re-import, and the Game API around it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rules_testkit import buy, new_game

from referee.rules import (
    FORMAT,
    Game,
    RecordError,
    TimeLimitMode,
    board_from_csv,
    get_ruleset,
    parse_record,
    replay,
)
from referee.rules.board import DATA_DIR


def record(**changes: Any) -> dict[str, Any]:
    base = {
        "format": FORMAT,
        "ruleset": "karlsruhe",
        "board": "classic-de",
        "players": ["anna", "ben", "carla"],
        "events": [{"type": "start"}],
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not ...}


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"format": "monopoly-game-record/2"}, "format must be 'monopoly-game-record/1'"),
        ({"ruleset": "monopoly-jr"}, "unknown ruleset 'monopoly-jr'"),
        ({"ruleset": ...}, "ruleset must be the key of a ruleset"),
        ({"board": "mars"}, "unknown board 'mars'"),
        ({"board": 7}, "board must be the key of a board"),
        ({"players": []}, "players must be a non-empty list"),
        ({"players": "anna"}, "players must be a non-empty list"),
        ({"players": ["anna", "anna", "ben"]}, "players must be unique: anna twice"),
        ({"players": ["anna", ""]}, "players must be non-empty strings"),
        ({"players": ["anna", 5]}, "players must be non-empty strings"),
        ({"players": ["anna", "bank"]}, "'bank' is reserved"),
        ({"players": ["anna"]}, "seat 2 to 6 players, not 1"),
        ({"players": [f"p{i}" for i in range(7)]}, "seat 2 to 6 players, not 7"),
        ({"ledger": "yes"}, "ledger must be true or false"),
        ({"events": {}}, "events must be a list"),
        ({"overrides": {"time_limit_minutes": "long"}}, "overrides: ruleset parameter"),
        ({"overrides": []}, "overrides must be an object"),
    ],
)
def test_envelope_is_checked(changes: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordError) as err:
        parse_record(record(**changes))
    assert reason in err.value.message_en
    assert err.value.code == "bad_record"
    assert err.value.message_de.startswith("Die Partie-Datei ist ungültig")


def test_envelope_defaults() -> None:
    parsed = parse_record(record(board=..., events=...))
    assert parsed.board.key == "classic-de" and parsed.events == [] and not parsed.ledger
    assert parse_record(record(ruleset="classic-dm", board=...)).board.key == "classic-de-dm"
    with pytest.raises(RecordError):
        parse_record(["not", "a", "record"])


def test_classic_seats_eight() -> None:
    parse_record(record(ruleset="classic", players=[f"p{i}" for i in range(8)]))


def test_export_and_replay_give_the_same_state() -> None:
    game = new_game(
        "classic", *buy("anna", "parkstrasse"), {"type": "jail", "player": "ben"}, ledger=True
    )
    exported = game.to_record()
    assert exported["ledger"] is True and exported["format"] == FORMAT
    again = replay(json.loads(json.dumps(exported)))
    assert again.state.snapshot() == game.state.snapshot()
    assert again.events == game.events


def test_export_keeps_tournament_overrides() -> None:
    rules = get_ruleset("karlsruhe").replace(
        time_limit_minutes=60, time_limit_mode=TimeLimitMode.FINISH_ROUND
    )
    game = new_game(rules, {"type": "time_up"})
    exported = game.to_record()
    assert exported["overrides"] == {"time_limit_minutes": 60, "time_limit_mode": "finish_round"}
    again = replay(exported)
    assert again.ruleset == rules and again.status == "final_round"


def test_events_are_copied() -> None:
    game = new_game("classic")
    trade_deeds = ["parkstrasse"]
    game.apply(buy("anna", "parkstrasse")[0])
    event = {"type": "trade", "from": "anna", "to": "ben", "deeds": trade_deeds}
    game.apply(event)
    trade_deeds.append("schlossallee")
    event["cash"] = 10**6
    assert game.events[-1] == {
        "type": "trade",
        "from": "anna",
        "to": "ben",
        "deeds": ["parkstrasse"],
    }
    game.events[-1]["deeds"].append("x")
    assert game.events[-1]["deeds"] == ["parkstrasse"]


def test_custom_board_by_key() -> None:
    text = (DATA_DIR / "classic-de.csv").read_text(encoding="utf-8").replace("Schlossallee", "Burg")
    board = board_from_csv(text, key="castle-de")
    data = record(board="castle-de", events=[{"type": "start"}, *buy("anna", "schlossallee")])
    with pytest.raises(RecordError, match="unknown board 'castle-de'"):
        replay(data)
    game = replay(data, boards={"castle-de": board})
    assert game.board.deed("schlossallee").name == "Burg"
    assert game.to_record()["board"] == "castle-de"


def test_game_api_basics() -> None:
    game = Game(players=["anna", "ben"])
    assert game.ruleset.key == "karlsruhe" and game.board.key == "classic-de"
    assert game.status == "setup" and len(game) == 0 and "karlsruhe" in repr(game)
    game.extend([{"type": "start"}, *buy("anna", "parkstrasse")])
    assert game.status == "running" and len(game) == 2
    with pytest.raises(RecordError):
        Game(players=["anna", "ben"], board="mars")


def test_a_game_survives_pickling() -> None:
    """A cache backend may pickle the console's engine; it must come back identical."""
    import pickle

    game = new_game("classic-dm", *buy("anna", "parkstrasse"), {"type": "jail", "player": "ben"})
    again = pickle.loads(pickle.dumps(game))
    assert again.state.snapshot() == game.state.snapshot()
    assert again.board.deed("parkstrasse").price == 7000 and again.rules == game.rules
    again.apply(buy("ben", "schlossallee")[0])
    assert again.state.owner["schlossallee"] == "ben"


def test_every_event_type_has_a_handler() -> None:
    from referee.rules import (
        EVENT_TYPES,
        PROJECT_EVENT_TYPES,
        RuleViolation,
        check_event,
    )
    from referee.rules.engine import _HANDLERS

    assert set(_HANDLERS) | {"void"} == set(EVENT_TYPES) | set(PROJECT_EVENT_TYPES)
    game = new_game("classic", *buy("anna", "parkstrasse"))
    with pytest.raises(RuleViolation):  # a void needs the history: Game.check does it
        check_event(game.state, {"type": "void", "event": 1, "reason": "x"})
