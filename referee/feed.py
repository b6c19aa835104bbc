"""A table's events in words: "Anna kauft Schlossallee für 400". The one describer, for the
banker's console (``describe``, with the banker's notes) and the public feed (``describe_event``).

``describe_event`` is pure: it reads nothing but its arguments (the event, names, the board and,
when the caller has it, the engine's state *before* the event, which says who owns a street and
whether the next building is a hotel). For the public (the default) free text a banker typed (a
break's, payment's or correction's ``reason``) is never shown: it might carry a name the public
must not see; counted cash only in ledger mode, like the table's public state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext as _

from referee import rules
from referee.words import PAUSE_REASONS, PAY_REASONS, Names, reason_label

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
    with translation.override(language):
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

    def who(field: str) -> str:
        key = event.get(field)
        if key == BANK:
            return _("the bank")
        return names.get(str(key), str(key)) if key is not None else "?"

    def deed(key: Any = None) -> str:
        key = event.get("deed") if key is None else key
        square = board.get_deed(key) if isinstance(key, str) else None
        return square.name if square is not None else str(key)

    def owner_of(key: Any) -> str | None:
        if state is None or not isinstance(key, str):
            return None
        owner = state.owner.get(key)
        return names.get(owner, owner) if owner is not None else None

    def level_of(key: Any) -> int | None:
        if state is None or not isinstance(key, str):
            return None
        return state.level.get(key, 0)

    max_houses = state.rules.max_houses if state is not None else None
    show_cash = ledger if ledger is not None else bool(state is not None and state.ledger)

    if kind == "start":
        return _("Game started")
    if kind == "pause":
        return _("Break: the clock stops")
    if kind == "resume":
        return _("Play resumes")
    if kind == "deal":
        return _("%(player)s is dealt %(deed)s") % {"player": who("player"), "deed": deed()}
    if kind == "buy":
        square = board.get_deed(event.get("deed")) if isinstance(event.get("deed"), str) else None
        if square is None:
            return _("%(player)s buys %(deed)s") % {"player": who("player"), "deed": deed()}
        return _("%(player)s buys %(deed)s for %(price)s") % {
            "player": who("player"), "deed": square.name, "price": amount(square.price)
        }
    if kind == "auction":
        if event.get("winner") is None:
            return _("Auction: no bid for %(deed)s, it stays with the bank") % {"deed": deed()}
        return _("Auction: %(player)s wins %(deed)s for %(price)s") % {
            "player": who("winner"), "deed": deed(), "price": amount(event.get("price"))
        }
    if kind == "auction_stop":
        if clock:
            return _("Auction stop (%(clock)s)") % {"clock": clock}
        return _("Auction stop")
    if kind == "build":
        owner, level = owner_of(event.get("deed")), level_of(event.get("deed"))
        if owner is None or level is None:
            text = _("One building more on %(deed)s") % {"deed": deed()}
        elif max_houses is not None and level >= max_houses:
            text = _("%(player)s builds a hotel on %(deed)s") % {"player": owner, "deed": deed()}
        else:
            text = _("%(player)s builds a house on %(deed)s") % {"player": owner, "deed": deed()}
        if "price" in event:
            text += " " + _("(auctioned for %(price)s)") % {"price": amount(event["price"])}
        return text
    if kind == "sell_building":
        owner, level = owner_of(event.get("deed")), level_of(event.get("deed"))
        if owner is None or level is None:
            return _("One building less on %(deed)s") % {"deed": deed()}
        if max_houses is not None and level > max_houses:
            return _("%(player)s sells the hotel on %(deed)s") % {"player": owner, "deed": deed()}
        return _("%(player)s sells a house on %(deed)s") % {"player": owner, "deed": deed()}
    if kind == "mortgage":
        owner = owner_of(event.get("deed"))
        if owner is None:
            return _("%(deed)s is mortgaged") % {"deed": deed()}
        return _("%(player)s mortgages %(deed)s") % {"player": owner, "deed": deed()}
    if kind == "unmortgage":
        owner = owner_of(event.get("deed"))
        if owner is None:
            return _("The mortgage on %(deed)s is paid off") % {"deed": deed()}
        return _("%(player)s pays off the mortgage on %(deed)s") % {"player": owner, "deed": deed()}
    if kind == "trade":
        keys = event.get("deeds") if isinstance(event.get("deeds"), list) else []
        deeds = _join([deed(key) for key in keys])
        cash = event.get("cash") or 0
        values = {"from": who("from"), "to": who("to"), "deeds": deeds, "cash": amount(cash)}
        if keys and cash:
            return _("Trade: %(from)s gives %(deeds)s to %(to)s for %(cash)s") % values
        if keys:
            return _("Trade: %(from)s gives %(deeds)s to %(to)s") % values
        return _("Trade: %(to)s pays %(cash)s to %(from)s") % values
    if kind == "jail":
        return _("%(player)s goes to jail") % {"player": who("player")}
    if kind == "release":
        if event.get("fine"):
            return _("%(player)s pays the fine and leaves jail") % {"player": who("player")}
        return _("%(player)s leaves jail") % {"player": who("player")}
    if kind == "pay":
        values = {"from": who("from"), "to": who("to"), "amount": amount(event.get("amount"))}
        if event.get("from") == BANK:
            return _("The bank pays %(amount)s to %(to)s") % values
        if event.get("to") == BANK:
            return _("%(from)s pays %(amount)s to the bank") % values
        return _("%(from)s pays %(amount)s to %(to)s") % values
    if kind == "cash":
        if show_cash:
            return _("Cash of %(player)s counted: %(amount)s") % {
                "player": who("player"), "amount": amount(event.get("amount"))
            }
        return _("Cash of %(player)s counted") % {"player": who("player")}
    if kind == "bankrupt":
        if event.get("creditor") == BANK:
            return _("%(player)s is bankrupt (to the bank)") % {"player": who("player")}
        return _("%(player)s is bankrupt (to %(creditor)s)") % {
            "player": who("player"), "creditor": who("creditor")
        }
    if kind == "time_up":
        if state is not None and str(state.rules.time_limit_mode) == "finish_round":
            if event.get("player"):
                return _("Time is up with %(player)s on turn: the last round of turns begins") % {
                    "player": who("player")
                }
            return _("Time is up: the last round of turns begins")
        return _("Time is up")
    if kind == "on_turn":
        return _("On turn at time: %(player)s; the round of turns is played to its end") % {
            "player": who("player")
        }
    if kind == "turn_played":
        return _("%(player)s has played the last turn") % {"player": who("player")}
    if kind == "end":
        return _("Game over after the last round of turns")
    if kind == "void":
        inner = target if isinstance(target, str) else None
        if isinstance(target, Mapping):
            inner = _describe(target, names, board, None, "", None, ledger)
        if inner:
            return _("Correction: “%(event)s” is cancelled") % {"event": inner}
        return _("Correction: event no. %(number)s is cancelled") % {"number": event.get("event")}
    return _("Event: %(type)s") % {"type": str(kind)}
