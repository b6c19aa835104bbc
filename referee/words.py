"""Events, reasons and refusals in words, with the players' and deeds' names: one line per
event for the console's feed (and the public feed), the labels of reasons and colour groups."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee import rules, selectors
from referee.models import Game
from referee.rules import BANK

GROUP_LABELS = {
    "braun": gettext_lazy("brown"),
    "hellblau": gettext_lazy("light blue"),
    "pink": gettext_lazy("pink"),
    "orange": gettext_lazy("orange"),
    "rot": gettext_lazy("red"),
    "gelb": gettext_lazy("yellow"),
    "gruen": gettext_lazy("green"),
    "dunkelblau": gettext_lazy("dark blue"),
    "bahnhof": gettext_lazy("stations"),
    "werk": gettext_lazy("utilities"),
}
KNOWN_GROUPS = frozenset(GROUP_LABELS)

PAUSE_REASONS = {
    "toilet_break": gettext_lazy("Toilet break"),
    "rules_question": gettext_lazy("Rules question"),
    "head_referee": gettext_lazy("Waiting for the head referee"),
}
PAY_REASONS = {
    "rent": gettext_lazy("rent"),
    "tax": gettext_lazy("tax"),
    "fine": gettext_lazy("fine"),
    "salary": gettext_lazy("salary"),
    "card": gettext_lazy("card"),
}
END_REASONS = {
    "second_bankruptcy": gettext_lazy("the second bankruptcy"),
    "first_bankruptcy": gettext_lazy("the first bankruptcy"),
    "last_player_standing": gettext_lazy("only one player is left"),
    "time_limit": gettext_lazy("the time limit"),
}


# --------------------------------------------------------------------------- names


@dataclass(frozen=True)
class Names:
    """Display names of the players (by engine key) and of the board's deeds."""

    players: dict[str, str]
    seats: dict[str, int]
    deeds: dict[str, str]
    board: rules.Board

    def player(self, key: Any) -> str:
        if key == BANK:
            return _("the bank")
        return self.players.get(str(key), str(key))

    def deed(self, key: Any) -> str:
        return self.deeds.get(str(key), str(key))

    def deed_list(self, keys: Any) -> str:
        if not isinstance(keys, list):
            return ""
        return ", ".join(self.deed(k) for k in keys)


def names_for(game: Game, engine: rules.Game, people=None) -> Names:
    """``people``: the players by key when the caller read them (else their names are read)."""
    known = ({key: person.name for key, person in people.items()} if people is not None
             else selectors.player_names(game))
    players = {key: known.get(key, key) for key in engine.state.players}
    seats = {key: index for index, key in enumerate(engine.state.players, start=1)}
    deeds = {d.key: d.name for d in engine.state.board.deeds}
    return Names(players, seats, deeds, engine.state.board)


def named_violation(violation: rules.RuleViolation, names: Names) -> rules.RuleViolation:
    """The same refusal with player keys replaced by the players' names."""

    def name(value: Any) -> Any:
        if isinstance(value, rules.RuleViolation):
            return named_violation(value, names)
        if isinstance(value, str) and value in names.players:
            return names.players[value]
        return value

    params = {k: name(v) for k, v in violation.params.items()}
    return rules.RuleViolation(
        violation.code, index=violation.index, event=violation.event, **params
    )


@dataclass(frozen=True)
class Refusal:
    """An engine refusal as the console shows it: current language large, the other small."""

    code: str
    index: int | None
    message_de: str
    message_en: str

    @classmethod
    def of(cls, violation: rules.RuleViolation, names: Names) -> Refusal:
        named = named_violation(violation, names)
        return cls(violation.code, violation.index, named.message_de, named.message_en)


def reason_label(reason: Any, labels: dict) -> str:
    if not isinstance(reason, str) or not reason:
        return ""
    label = labels.get(reason)
    return str(label) if label is not None else reason


def parse_at(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        return None
