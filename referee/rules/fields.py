"""Reading an event's fields: each reader returns the value or raises the refusal a banker
understands (wrong kind, unknown player or deed, not affordable)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from referee.rules.board import Square
from referee.rules.contract import BANK
from referee.rules.errors import Localized, RuleViolation
from referee.rules.state import GameState

_MISSING = object()
_PLAYER = Localized("ein Spieler (Text)", "a player (text)")
_PLAYER_OR_BANK = Localized("ein Spieler oder „bank“", "a player or 'bank'")
_DEED = Localized("eine Besitzrechtkarte (Text)", "a deed key (text)")
_DEED_LIST = Localized("eine Liste von Besitzrechtkarten", "a list of deed keys")
_WHOLE = Localized("eine ganze Zahl", "a whole number")
_BOOL = Localized("true oder false", "true or false")
_TEXT = Localized("ein Text", "a text")
_TIME = Localized("ein Zeitpunkt (Text)", "a time (text)")
# An amount's field in words for the refusals a banker reads ("amount" is no German word).
_AMOUNT_WORDS = {
    "amount": Localized("Die Zahlung", "the payment"),
    "price": Localized("Der Preis", "the price"),
    "cash": Localized("Der Barbetrag", "the cash amount"),
}
_COUNTED = Localized("Der gezählte Betrag", "the counted amount")  # a ``cash`` event's amount


def _amount_words(ev: Mapping[str, Any], name: str) -> Localized:
    if ev.get("type") == "cash" and name == "amount":
        return _COUNTED
    return _AMOUNT_WORDS.get(name, Localized(f"Der Betrag „{name}“", f"the amount '{name}'"))


def _refuse(code: str, idx: int | None, ev: Any, **params: Any) -> RuleViolation:
    return RuleViolation(code, index=idx, event=ev, **params)


def _field(ev: Mapping[str, Any], name: str, idx: int | None) -> Any:
    value = ev.get(name, _MISSING)
    if value is _MISSING:
        raise _refuse("missing_field", idx, ev, field=name)
    return value


def _player(
    s: GameState,
    ev: Mapping[str, Any],
    idx: int | None,
    name: str = "player",
    *,
    bank: bool = False,
) -> str:
    value = _field(ev, name, idx)
    if type(value) is not str:
        raise _refuse(
            "wrong_type", idx, ev, field=name, expected=_PLAYER_OR_BANK if bank else _PLAYER
        )
    if value not in s.seats:
        if bank and value == BANK:
            return value
        raise _refuse("unknown_player", idx, ev, player=value)
    if value in s.bankrupt_set:
        raise _refuse("player_bankrupt", idx, ev, player=value)
    return value


def _deed(
    s: GameState,
    ev: Mapping[str, Any],
    idx: int | None,
    value: Any = _MISSING,
    name: str = "deed",
) -> Square:
    if value is _MISSING:
        value = _field(ev, name, idx)
    if type(value) is not str:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_DEED)
    deed = s.board.get_deed(value)
    if deed is None:
        if value in s.board:
            raise _refuse("not_a_deed", idx, ev, deed=s.board.square(value).name)
        raise _refuse("unknown_deed", idx, ev, deed=value)
    return deed


def _deed_list(s: GameState, ev: Mapping[str, Any], idx: int | None, name: str) -> list[Square]:
    """A list of deed keys; ``deeds`` is required, other lists (``unmortgage``) optional."""
    values = _field(ev, name, idx) if name == "deeds" else ev.get(name)
    if values is None and name != "deeds":
        return []
    if type(values) is not list:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_DEED_LIST)
    deeds = [_deed(s, ev, idx, v, name) for v in values]
    if len({d.key for d in deeds}) != len(deeds):
        seen: set[str] = set()
        for d in deeds:
            if d.key in seen:
                raise _refuse("duplicate_deed", idx, ev, deed=d.name)
            seen.add(d.key)
    return deeds


def _amount(
    s: GameState,
    ev: Mapping[str, Any],
    name: str,
    idx: int | None,
    minimum: int,
    default: Any = _MISSING,
) -> int:
    """A whole amount from ``minimum`` to the ruleset's ``max_amount``."""
    value = ev.get(name, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise _refuse("missing_field", idx, ev, field=name)
        return default
    if type(value) is not int:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_WHOLE)
    if value < minimum:
        raise _refuse("bad_amount", idx, ev, field=_amount_words(ev, name), minimum=minimum,
                      value=value)
    if value > s.rules.max_amount:
        raise _refuse("amount_too_large", idx, ev, field=_amount_words(ev, name),
                      maximum=s.rules.max_amount, value=value)
    return value


def _flag(ev: Mapping[str, Any], name: str, idx: int | None) -> bool:
    value = ev.get(name, False)
    if type(value) is not bool:
        raise _refuse("wrong_type", idx, ev, field=name, expected=_BOOL)
    return value


def _parse_at(value: Any, ev: Mapping[str, Any], idx: int | None) -> datetime:
    if type(value) is not str:
        raise _refuse("wrong_type", idx, ev, field="at", expected=_TIME)
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise _refuse("bad_time", idx, ev, at=value) from None
    if at.tzinfo is None:
        raise _refuse("bad_time", idx, ev, at=value)
    return at


def _afford(s: GameState, player: str, amount: int, idx: int | None, ev: Any) -> None:
    """In ledger mode cash is exact, so a payment beyond it is refused; otherwise it is a guess."""
    if s.ledger and amount > s.cash[player]:
        raise _refuse(
            "insufficient_cash", idx, ev, player=player, cash=s.cash[player], amount=amount
        )


def _owner_of(s: GameState, deed: Square, idx: int | None, ev: Any) -> str:
    owner = s.owner.get(deed.key)
    if owner is None:
        raise _refuse("deed_unowned", idx, ev, deed=deed.name)
    return owner


def _clock(minutes: int) -> str:
    return f"{minutes}:00"


def _clock_td(td: timedelta) -> str:
    seconds = int(td.total_seconds())
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def _level_words(level: int, max_houses: int, *, bare: bool) -> Localized:
    if level > max_houses:
        return Localized("ein Hotel", "a hotel")
    if bare and level:
        return Localized(str(level), str(level))
    if level == 0:
        return Localized("kein Haus", "no house")
    if level == 1:
        return Localized("1 Haus", "1 house")
    return Localized(f"{level} Häuser", f"{level} houses")


def _built_in_group(s: GameState, deed: Square) -> list[str]:
    level = s.level
    return [s.board.deed(k).name for k in s.board.group_members[deed.key] if level.get(k, 0)]
