"""Corrections: a void cancels an earlier event as if it had never been recorded."""

from __future__ import annotations

import pytest
from rules_testkit import buy, new_game, ok, refused

from referee.rules import Game, replay


def void(index: int, reason: str = "banker's slip") -> dict:
    return {"type": "void", "event": index, "reason": reason}


def test_void_a_purchase() -> None:
    game = new_game("classic", *buy("anna", "parkstrasse"))
    ok(game, void(1))
    assert "parkstrasse" not in game.state.owner
    assert game.state.cash["anna"] == 1500
    assert game.voided == {1}
    assert len(game.events) == 3  # the record keeps both
    ok(game, buy("ben", "parkstrasse")[0])


def test_void_equals_never_recorded() -> None:
    events = [
        *buy("anna", "parkstrasse", "schlossallee"),
        {"type": "build", "deed": "parkstrasse"},
        {"type": "pay", "from": "ben", "to": "anna", "amount": 70},
        {"type": "jail", "player": "ben"},
    ]
    game = new_game("classic", *events, void(4))
    without = new_game("classic", *events[:3], events[4])
    assert game.state.snapshot() == without.state.snapshot()


def test_void_that_breaks_a_later_event_is_refused() -> None:
    game = new_game(
        "classic",
        *buy("anna", "parkstrasse", "schlossallee"),
        {"type": "build", "deed": "parkstrasse"},
    )
    exc = refused(game, void(2), "void_breaks_later_event")
    assert exc.message_en == (
        "without event 2 a later event would be refused — event 3 (build parkstrasse): "
        "anna does not own the whole dunkelblau group: Schlossallee is missing"
    )
    assert exc.message_de.startswith("Ohne Ereignis 2 wäre ein späteres Ereignis unzulässig – ")
    assert exc.line().startswith("event 4 (void 2): ")


def test_void_rules() -> None:
    game = new_game("classic", *buy("anna", "parkstrasse"), void(1))
    refused(game, void(2), "void_of_void")
    refused(game, void(0), "void_of_start")
    refused(game, void(1), "already_voided")
    exc = refused(game, void(3), "bad_event_index")
    assert exc.message_en == "there is no event 3 — only earlier events (0 to 2) can be voided"
    refused(game, void(-1), "bad_event_index")
    refused(game, {"type": "void", "event": "1", "reason": "x"}, "wrong_type")
    refused(game, {"type": "void", "event": 1}, "missing_field")


def test_void_after_the_end_can_reopen_the_game() -> None:
    game = new_game(
        "karlsruhe",
        {"type": "bankrupt", "player": "anna", "creditor": "bank"},
        {"type": "bankrupt", "player": "ben", "creditor": "bank"},
    )
    assert game.status == "finished"
    ok(game, void(2, "ben paid after all"))
    assert game.status == "running" and game.end_reason is None
    assert game.state.bankrupt == ["anna"]


def test_void_of_a_deal_reopens_set_up_only_if_nothing_else_happened() -> None:
    game = new_game("karlsruhe", {"type": "deal", "player": "anna", "deed": "badstrasse"})
    ok(game, void(1))
    assert game.state.deals["anna"] == 0 and game.status == "setup"


def test_check_of_a_void_changes_nothing() -> None:
    game = new_game("classic", *buy("anna", "parkstrasse"))
    before = game.state.snapshot()
    game.check(void(1))
    assert game.state.snapshot() == before and not game.voided


@pytest.mark.parametrize("index", [1, 2, 3])
def test_replay_of_a_record_with_voids(index: int) -> None:
    game = new_game(
        "classic",
        *buy("anna", "parkstrasse"),
        {"type": "jail", "player": "ben"},
        {"type": "cash", "player": "carla", "amount": 9},
    )
    game.apply(void(index))
    again = replay(game.to_record())
    assert isinstance(again, Game)
    assert again.state.snapshot() == game.state.snapshot()
    assert again.voided == {index}
