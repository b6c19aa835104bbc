"""Ledger mode (exact cash, no payment beyond it), malformed events, and the code catalogue."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from rules_testkit import buy, new_game, ok, refused

from referee.rules import CODES, RuleViolation

POOR = {"type": "pay", "from": "anna", "to": "bank", "amount": 1450}  # anna keeps 50


@pytest.mark.parametrize(
    "event",
    [
        {"type": "buy", "player": "anna", "deed": "badstrasse"},
        {"type": "auction", "deed": "badstrasse", "winner": "anna", "price": 51},
        {"type": "pay", "from": "anna", "to": "ben", "amount": 51},
        {"type": "trade", "from": "ben", "to": "anna", "deeds": ["parkstrasse"], "cash": 51},
        {"type": "release", "player": "anna", "fine": True, "_setup": "jail"},
    ],
)
def test_ledger_refuses_payments_beyond_cash(event: dict) -> None:
    setup = [POOR, *buy("ben", "parkstrasse")]
    if event.pop("_setup", None):
        setup += [
            {"type": "jail", "player": "anna"},
            {"type": "pay", "from": "anna", "to": "bank", "amount": 1},
        ]
    ledger = new_game("classic", *setup, ledger=True)
    exc = refused(ledger, event, "insufficient_cash")
    assert re.fullmatch(r"anna has only \d+ but needs \d+", exc.message_en)
    loose = new_game("classic", *setup)  # without a ledger tracked cash is only an estimate
    ok(loose, event)


def test_ledger_build_unmortgage_and_deal() -> None:
    game = new_game(
        "classic",
        *buy("anna", "badstrasse", "turmstrasse"),
        {"type": "mortgage", "deed": "badstrasse"},
        ledger=True,
    )
    game.apply(
        {"type": "pay", "from": "anna", "to": "bank", "amount": game.state.cash["anna"] - 32}
    )
    refused(game, {"type": "unmortgage", "deed": "badstrasse"}, "insufficient_cash")  # 33
    game.apply({"type": "pay", "from": "bank", "to": "anna", "amount": 1})
    ok(game, {"type": "unmortgage", "deed": "badstrasse"})
    refused(game, {"type": "build", "deed": "badstrasse"}, "insufficient_cash")
    karlsruhe = new_game("karlsruhe", {"type": "cash", "player": "anna", "amount": 59}, ledger=True)
    refused(
        karlsruhe, {"type": "deal", "player": "anna", "deed": "badstrasse"}, "insufficient_cash"
    )


def test_ledger_cash_is_exact_and_counts_still_set_it() -> None:
    game = new_game(
        "classic", {"type": "pay", "from": "bank", "to": "anna", "amount": 200}, ledger=True
    )
    assert game.state.cash["anna"] == 1700
    ok(game, {"type": "cash", "player": "anna", "amount": 1650})
    assert game.state.cash["anna"] == 1650


def test_pay_rules() -> None:
    game = new_game("classic")
    refused(game, {"type": "pay", "from": "bank", "to": "bank", "amount": 5}, "same_party")
    refused(game, {"type": "pay", "from": "anna", "to": "anna", "amount": 5}, "same_party")
    refused(game, {"type": "pay", "from": "anna", "to": "ben", "amount": 0}, "bad_amount")
    refused(
        game, {"type": "pay", "from": "anna", "to": "ben", "amount": 5, "reason": 7}, "wrong_type"
    )
    refused(game, {"type": "cash", "player": "anna", "amount": -1}, "bad_amount")
    ok(game, {"type": "pay", "from": "anna", "to": "ben", "amount": 35, "reason": "Miete"})
    assert game.state.cash["anna"] == 1465 and game.state.cash["ben"] == 1535


def test_jail_and_release() -> None:
    game = new_game("classic-dm", {"type": "jail", "player": "anna"})
    refused(game, {"type": "jail", "player": "anna"}, "already_in_jail")
    refused(game, {"type": "release", "player": "ben"}, "not_in_jail")
    refused(game, {"type": "release", "player": "anna", "fine": "yes"}, "wrong_type")
    ok(game, {"type": "release", "player": "anna", "fine": True})
    assert game.state.cash["anna"] == 30_000 - 1_000  # the DM fine


@pytest.mark.parametrize(
    ("event", "code", "message"),
    [
        ("buy", "malformed_event", "the event is not a JSON object"),
        ({"player": "anna"}, "missing_field", "the field 'type' is missing"),
        ({"type": "steal", "player": "anna"}, "unknown_event_type", "unknown event type 'steal'"),
        ({"type": 3}, "unknown_event_type", "unknown event type '3'"),
        ({"type": "buy", "deed": "badstrasse"}, "missing_field", "the field 'player' is missing"),
        (
            {"type": "buy", "player": "zoe", "deed": "badstrasse"},
            "unknown_player",
            "'zoe' does not play at this table",
        ),
        (
            {"type": "buy", "player": ["anna"], "deed": "badstrasse"},
            "wrong_type",
            "the field 'player' must be a player (text)",
        ),
        (
            {"type": "buy", "player": "anna", "deed": "broadway"},
            "unknown_deed",
            "'broadway' is not on this board",
        ),
        (
            {"type": "buy", "player": "anna", "deed": "los"},
            "not_a_deed",
            "Los is not a deed anyone can own",
        ),
        (
            {"type": "buy", "player": "anna", "deed": 1},
            "wrong_type",
            "the field 'deed' must be a deed key (text)",
        ),
        (
            {"type": "pay", "from": "anna", "to": "ben", "amount": "100"},
            "wrong_type",
            "the field 'amount' must be a whole number",
        ),
        (
            {"type": "pay", "from": "anna", "to": "ben", "amount": True},
            "wrong_type",
            "the field 'amount' must be a whole number",
        ),
        (
            {"type": "pay", "from": "anna", "to": "ben", "amount": 12.5},
            "wrong_type",
            "the field 'amount' must be a whole number",
        ),
        (
            {"type": "pay", "from": "anna", "to": "ben", "amount": -3},
            "bad_amount",
            "the payment must be a whole number of at least 1, not -3",
        ),
        (
            {"type": "bankrupt", "player": "anna"},
            "missing_field",
            "the field 'creditor' is missing",
        ),
        (
            {"type": "trade", "from": "anna", "to": "ben"},
            "missing_field",
            "the field 'deeds' is missing",
        ),
    ],
)
def test_malformed_events(event: object, code: str, message: str) -> None:
    exc = refused(new_game("classic"), event, code)
    assert exc.message_en == message
    assert exc.message_de != exc.message_en


def test_refusal_line_describes_the_event() -> None:
    game = new_game("classic")
    with pytest.raises(RuleViolation) as err:
        game.apply("buy")
    assert err.value.line() == "event 1 (str): the event is not a JSON object"
    with pytest.raises(RuleViolation) as err:
        game.apply({"type": "jail", "player": "zoe"})
    assert err.value.line("de") == "event 1 (jail zoe): „zoe“ spielt an diesem Tisch nicht mit"
    assert str(err.value) == err.value.line("en")
    assert err.value.event == {"type": "jail", "player": "zoe"}


def test_catalogue_is_complete_and_consistent() -> None:
    source = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (Path(__file__).resolve().parents[3] / "referee" / "rules").glob("*.py")
    )
    raised = set(re.findall(r'_refuse\(\s*"([a-z_]+)"', source))
    raised |= set(re.findall(r'RuleViolation\(\s*"([a-z_]+)"', source))
    assert raised - set(CODES) == set(), "codes raised but not catalogued"
    assert set(CODES) - raised - {"bad_record"} == set(), "catalogued codes never raised"
    formatter = string.Formatter()
    for code, text in CODES.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code)
        de = {f for _, f, _, _ in formatter.parse(text.de) if f}
        en = {f for _, f, _, _ in formatter.parse(text.en) if f}
        assert de == en, code
