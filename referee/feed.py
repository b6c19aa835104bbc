"""A table's events in words: "Anna kauft Schlossallee für 400". The one describer, for the
banker's console (``describe``, with the banker's notes) and the public feed (``describe_event``).

``describe_event`` is pure: it reads nothing but its arguments (the event, names, the board and,
when the caller has it, the engine's state *before* the event, which says who owns a street and
whether the next building is a hotel). For the public (the default) free text a banker typed (a
break's, payment's or correction's ``reason``) is never shown: it might carry a name the public
must not see; counted cash only in ledger mode, like the table's public state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext as _

from referee import rules
from referee.words import (
    PAUSE_REASONS,
    PAY_REASONS,
    Names,
    reason_label,
)

BANK = rules.BANK


def format_clock(seconds: float | None) -> str:
    """Game time as minutes:seconds ("45:00", "105:12"); empty when unknown."""
    if seconds is None:
        return ""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def amount(value: Any) -> str:
    """A sum of money with the language's grouping (1.500 / 1,500)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return str(value)
    return formats.number_format(value, force_grouping=True)


def ordinal(value):
    """A place as an ordinal in the active language: 1st, 2nd, 11th / 1., 2., 11. (German);
    anything but a whole number as it is."""
    if isinstance(value, bool):
        return str(value)
    try:
        number = int(value)
    except (TypeError, ValueError):
        return "" if value is None else str(value)
    if number % 100 in (11, 12, 13):
        text = _("%(number)sth")
    else:
        text = {1: _("%(number)sst"), 2: _("%(number)snd"), 3: _("%(number)srd")}.get(
            number % 10, _("%(number)sth"))
    return text % {"number": number}


def _join(items: Sequence[str]) -> str:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def describe_event(
    event: Any,
    *,
    names: Mapping[str, str],
    board: rules.Board,
    language: str,
    state: rules.GameState | None = None,
    clock: str = "",
    target: Any = None,
    ledger: bool | None = None,
    public: bool = True,
) -> str:
    """One event in words in ``language``.

    ``names`` maps player keys to public names; ``state`` (optional) is the engine's state just
    before the event; ``clock`` the game time to mention for the auction stop; ``target`` the
    event a ``void`` cancels, or its description (when known); ``ledger`` whether cash counts may be shown (default:
    the state's ledger mode, else no); ``public=False`` adds the banker's notes (the reason of a
    break, a payment or a correction) for the console.
    """
    # The console asks in the language already active (20 events a render): no switch then.
    same = translation.get_language() == language
    with contextlib.nullcontext() if same else translation.override(language):
        text = _describe(event, names, board, state, clock, target, ledger)
        return text if public else text + _private_note(event, board)


def _private_note(event: Any, board: rules.Board) -> str:
    """What only the console shows: the banker's reason of a break, payment or correction."""
    if not isinstance(event, Mapping):
        return ""
    kind = event.get("type")
    if kind == "pause":
        reason = reason_label(event.get("reason"), PAUSE_REASONS)
    elif kind == "pay":
        reason = reason_label(event.get("reason"), PAY_REASONS)
        square = board.get_deed(event["deed"]) if isinstance(event.get("deed"), str) else None
        if reason and square is not None:
            reason = f"{reason}, {square.name}"
    elif kind == "void":
        reason = event.get("reason") if isinstance(event.get("reason"), str) else ""
    else:
        return ""
    return f" ({reason})" if reason else ""


def describe(event: Any, names: Names) -> str:
    """One line for the banker's console: the event in words, with the banker's notes and the
    counted cash."""
    language = translation.get_language() or "de"
    return describe_event(event, names=names.players, board=names.board, language=language,
                          ledger=True, public=False)


class _Event:
    """One event and what its words need: the players' names, the board, the state before it
    (who owns a street, whether the next building is a hotel), the clock and a void's target."""

    def __init__(self, event: Mapping, names: Mapping[str, str], board: rules.Board,
                 state: rules.GameState | None, clock: str, target: Any,
                 ledger: bool | None) -> None:
        self.event, self.names, self.board, self.state = event, names, board, state
        self.clock, self.target, self.ledger = clock, target, ledger
        self.max_houses = state.rules.max_houses if state is not None else None
        self.show_cash = ledger if ledger is not None else bool(state is not None and state.ledger)

    def get(self, field: str) -> Any:
        return self.event.get(field)

    def who(self, field: str) -> str:
        key = self.event.get(field)
        if key == BANK:
            return _("the bank")
        return self.names.get(str(key), str(key)) if key is not None else "?"

    def deed(self, key: Any = None) -> str:
        key = self.event.get("deed") if key is None else key
        square = self.board.get_deed(key) if isinstance(key, str) else None
        return square.name if square is not None else str(key)

    def owner_of(self, key: Any) -> str | None:
        if self.state is None or not isinstance(key, str):
            return None
        owner = self.state.owner.get(key)
        return self.names.get(owner, owner) if owner is not None else None

    def level_of(self, key: Any) -> int | None:
        if self.state is None or not isinstance(key, str):
            return None
        return self.state.level.get(key, 0)


def _buy(e: _Event) -> str:
    square = e.board.get_deed(e.get("deed")) if isinstance(e.get("deed"), str) else None
    if square is None:
        return _("%(player)s buys %(deed)s") % {"player": e.who("player"), "deed": e.deed()}
    return _("%(player)s buys %(deed)s for %(price)s") % {
        "player": e.who("player"), "deed": square.name, "price": amount(square.price)
    }


def _auction(e: _Event) -> str:
    if e.get("winner") is None:
        return _("Auction: no bid for %(deed)s, it stays with the bank") % {"deed": e.deed()}
    return _("Auction: %(player)s wins %(deed)s for %(price)s") % {
        "player": e.who("winner"), "deed": e.deed(), "price": amount(e.get("price"))
    }


def _auction_stop(e: _Event) -> str:
    if e.clock:
        return _("Auction stop (%(clock)s)") % {"clock": e.clock}
    return _("Auction stop")


def _build(e: _Event) -> str:
    owner, level = e.owner_of(e.get("deed")), e.level_of(e.get("deed"))
    if owner is None or level is None:
        text = _("One building more on %(deed)s") % {"deed": e.deed()}
    elif e.max_houses is not None and level >= e.max_houses:
        text = _("%(player)s builds a hotel on %(deed)s") % {"player": owner, "deed": e.deed()}
    else:
        text = _("%(player)s builds a house on %(deed)s") % {"player": owner, "deed": e.deed()}
    if "price" in e.event:
        text += " " + _("(auctioned for %(price)s)") % {"price": amount(e.event["price"])}
    return text


def _sell_building(e: _Event) -> str:
    owner, level = e.owner_of(e.get("deed")), e.level_of(e.get("deed"))
    if owner is None or level is None:
        return _("One building less on %(deed)s") % {"deed": e.deed()}
    if e.max_houses is not None and level > e.max_houses:
        return _("%(player)s sells the hotel on %(deed)s") % {"player": owner, "deed": e.deed()}
    return _("%(player)s sells a house on %(deed)s") % {"player": owner, "deed": e.deed()}


def _mortgage(e: _Event) -> str:
    owner = e.owner_of(e.get("deed"))
    if owner is None:
        return _("%(deed)s is mortgaged") % {"deed": e.deed()}
    return _("%(player)s mortgages %(deed)s") % {"player": owner, "deed": e.deed()}


def _unmortgage(e: _Event) -> str:
    owner = e.owner_of(e.get("deed"))
    if owner is None:
        return _("The mortgage on %(deed)s is paid off") % {"deed": e.deed()}
    return _("%(player)s pays off the mortgage on %(deed)s") % {"player": owner, "deed": e.deed()}


def _trade(e: _Event) -> str:
    keys = e.get("deeds") if isinstance(e.get("deeds"), list) else []
    deeds = _join([e.deed(key) for key in keys])
    cash = e.get("cash") or 0
    values = {"from": e.who("from"), "to": e.who("to"), "deeds": deeds, "cash": amount(cash)}
    if keys and cash:
        return _("Trade: %(from)s gives %(deeds)s to %(to)s for %(cash)s") % values
    if keys:
        return _("Trade: %(from)s gives %(deeds)s to %(to)s") % values
    return _("Trade: %(to)s pays %(cash)s to %(from)s") % values


def _release(e: _Event) -> str:
    if e.get("fine"):
        return _("%(player)s pays the fine and leaves jail") % {"player": e.who("player")}
    return _("%(player)s leaves jail") % {"player": e.who("player")}


def _pay(e: _Event) -> str:
    values = {"from": e.who("from"), "to": e.who("to"), "amount": amount(e.get("amount"))}
    if e.get("from") == BANK:
        return _("The bank pays %(amount)s to %(to)s") % values
    if e.get("to") == BANK:
        return _("%(from)s pays %(amount)s to the bank") % values
    return _("%(from)s pays %(amount)s to %(to)s") % values


def _cash(e: _Event) -> str:
    if e.show_cash:
        return _("Cash of %(player)s counted: %(amount)s") % {
            "player": e.who("player"), "amount": amount(e.get("amount"))
        }
    return _("Cash of %(player)s counted") % {"player": e.who("player")}


def _bankrupt(e: _Event) -> str:
    if e.get("creditor") == BANK:
        return _("%(player)s is bankrupt (to the bank)") % {"player": e.who("player")}
    return _("%(player)s is bankrupt (to %(creditor)s)") % {
        "player": e.who("player"), "creditor": e.who("creditor")
    }


def _time_up(e: _Event) -> str:
    if e.state is not None and str(e.state.rules.time_limit_mode) == "finish_round":
        if e.get("player"):
            return _("Time is up with %(player)s on turn: the last round of turns begins") % {
                "player": e.who("player")
            }
        return _("Time is up: the last round of turns begins")
    return _("Time is up")


def _void(e: _Event) -> str:
    target = e.target
    inner = target if isinstance(target, str) else None
    if isinstance(target, Mapping):
        inner = _describe(target, e.names, e.board, None, "", None, e.ledger)
    if inner:
        return _("Correction: “%(event)s” is cancelled") % {"event": inner}
    return _("Correction: event no. %(number)s is cancelled") % {"number": e.get("event")}


#: Each kind of event's words (translated when an event is described).
_WORDS: dict[str, Callable[[_Event], str]] = {
    "start": lambda e: _("Game started"),
    "pause": lambda e: _("Break: the clock stops"),
    "resume": lambda e: _("Play resumes"),
    "deal": lambda e: _("%(player)s is dealt %(deed)s") % {
        "player": e.who("player"), "deed": e.deed()},
    "buy": _buy,
    "auction": _auction,
    "auction_stop": _auction_stop,
    "build": _build,
    "sell_building": _sell_building,
    "mortgage": _mortgage,
    "unmortgage": _unmortgage,
    "trade": _trade,
    "jail": lambda e: _("%(player)s goes to jail") % {"player": e.who("player")},
    "release": _release,
    "pay": _pay,
    "cash": _cash,
    "bankrupt": _bankrupt,
    "time_up": _time_up,
    "on_turn": lambda e: _(
        "On turn at time: %(player)s; the round of turns is played to its end"
    ) % {"player": e.who("player")},
    "turn_played": lambda e: _("%(player)s has played the last turn") % {
        "player": e.who("player")},
    "end": lambda e: _("Game over after the last round of turns"),
    "void": _void,
}


def _describe(
    event: Any,
    names: Mapping[str, str],
    board: rules.Board,
    state: rules.GameState | None,
    clock: str,
    target: Any,
    ledger: bool | None,
) -> str:
    if not isinstance(event, Mapping):
        return _("Unreadable event")
    kind = event.get("type")
    words = _WORDS.get(kind) if isinstance(kind, str) else None
    if words is None:
        return _("Event: %(type)s") % {"type": str(kind)}
    return words(_Event(event, names, board, state, clock, target, ledger))
