"""Buying from the bank, auctions (minimum bid, no bid) and the Karlsruhe auction stop."""

from __future__ import annotations

import pytest
from rules_testkit import at, buy, new_game, ok, refused

from referee.rules import unowned_deeds


def auction(deed: str, winner: str | None, price: int) -> dict:
    return {"type": "auction", "deed": deed, "winner": winner, "price": price}


def test_buy_at_printed_price() -> None:
    game = ok(new_game("classic"), buy("anna", "parkstrasse")[0])
    assert game.state.owner["parkstrasse"] == "anna"
    assert game.state.cash["anna"] == 1500 - 350


def test_buy_owned_deed() -> None:
    game = new_game("classic", *buy("anna", "parkstrasse"))
    exc = refused(game, buy("ben", "parkstrasse")[0], "deed_already_owned")
    assert exc.message_en == "Parkstraße already belongs to anna"
    assert exc.line() == "event 2 (buy parkstrasse): Parkstraße already belongs to anna"


def test_buy_a_square_that_is_not_a_deed() -> None:
    exc = refused(new_game("classic"), buy("anna", "einkommensteuer")[0], "not_a_deed")
    assert "Einkommensteuer is not a deed" in exc.message_en


@pytest.mark.parametrize(
    ("ruleset", "minimum"), [("karlsruhe", 1), ("castle-short", 1), ("classic", 0)]
)
def test_auction_minimum_bid(ruleset: str, minimum: int) -> None:
    game = new_game(ruleset)
    if minimum:
        exc = refused(game, auction("parkstrasse", "ben", minimum - 1), "auction_below_min_bid")
        assert exc.message_en == f"the minimum bid is {minimum}, 0 is too low"
    ok(game, auction("parkstrasse", "ben", minimum))
    assert game.state.owner["parkstrasse"] == "ben"
    assert game.state.cash["ben"] == 1500 - minimum


def test_auction_minimum_bid_on_dm_board() -> None:
    game = new_game("karlsruhe", board="classic-de-dm")
    refused(game, auction("parkstrasse", "ben", 19), "auction_below_min_bid")
    ok(game, auction("parkstrasse", "ben", 20))


def test_auction_without_bid_keeps_deed_with_bank() -> None:
    game = ok(new_game("karlsruhe"), auction("parkstrasse", None, 0))
    assert "parkstrasse" not in game.state.owner
    refused(game, auction("schlossallee", None, 10), "auction_price_without_winner")
    ok(game, {"type": "auction", "deed": "schlossallee", "winner": None})  # price may be left out


def test_auction_of_owned_deed_and_missing_price() -> None:
    game = new_game("karlsruhe", *buy("anna", "parkstrasse"))
    refused(game, auction("parkstrasse", "ben", 400), "deed_already_owned")
    refused(game, {"type": "auction", "deed": "schlossallee", "winner": "ben"}, "missing_field")
    refused(game, {"type": "auction", "deed": "schlossallee", "price": 5}, "missing_field")


def test_auction_stop_at_45_minutes_then_only_auctions() -> None:
    game = new_game("karlsruhe", start=False)
    ok(game, {"type": "start", "at": at(0)})
    ok(game, {**buy("anna", "badstrasse")[0], "at": at(10)})
    exc = refused(game, {"type": "auction_stop", "at": at(44 + 59 / 60)}, "auction_stop_too_early")
    assert exc.message_en == "the auction stop comes at 45:00 game time, it is only 44:59"
    ok(game, {"type": "auction_stop", "at": at(45)})  # inclusive
    exc = refused(game, buy("ben", "turmstrasse")[0], "auction_stop_pending")
    assert "Turmstraße must be auctioned" in exc.message_en
    unowned = unowned_deeds(game)
    assert unowned[0] == "turmstrasse" and len(unowned) == 27
    for deed in unowned:
        ok(game, auction(deed, None, 0))
    # Still with the bank after a no-bid auction: it is auctioned again, never sold at price.
    refused(game, buy("ben", "turmstrasse")[0], "auction_stop_pending")
    ok(game, auction("turmstrasse", "ben", 1))
    refused(game, {"type": "auction_stop"}, "auction_stop_repeated")


def test_auction_stop_counts_game_time_without_breaks() -> None:
    game = new_game("karlsruhe", start=False)
    ok(game, {"type": "start", "at": at(0)})
    ok(game, {"type": "pause", "at": at(20)})
    ok(game, {"type": "resume", "at": at(30)})  # a ten-minute break
    refused(game, {"type": "auction_stop", "at": at(54)}, "auction_stop_too_early")
    ok(game, {"type": "auction_stop", "at": at(55)})


def test_auction_stop_during_a_break_uses_break_start() -> None:
    game = new_game("karlsruhe", start=False)
    ok(game, {"type": "start", "at": at(0)})
    ok(game, {"type": "pause", "at": at(44)})
    refused(game, {"type": "auction_stop", "at": at(70)}, "auction_stop_too_early")


def test_auction_stop_without_times_is_trusted() -> None:
    ok(new_game("karlsruhe"), {"type": "auction_stop"})


@pytest.mark.parametrize("ruleset", ["classic", "short-game", "time-limit", "castle-short"])
def test_no_auction_stop_outside_karlsruhe(ruleset: str) -> None:
    refused(new_game(ruleset), {"type": "auction_stop"}, "no_auction_stop")


def test_tournament_may_move_the_auction_stop() -> None:
    from referee.rules import get_ruleset

    game = new_game(get_ruleset("karlsruhe").replace(auction_stop_minute=30), start=False)
    ok(game, {"type": "start", "at": at(0)})
    ok(game, {"type": "auction_stop", "at": at(30)})
