"""Refusals: what the banker sees when an event breaks a rule or is malformed.

Messages are formatted lazily, so checking many candidate events (``legal_actions``) costs no
string work for the ones that fail.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from referee.rules.codes import text

__all__ = ["Localized", "RecordError", "RefereeError", "RuleViolation", "describe_event"]


class Localized(NamedTuple):
    """A message parameter whose wording depends on the language."""

    de: str
    en: str


class RefereeError(Exception):
    """A refusal with a stable ``code`` and a message in German and English."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def message(self, lang: str = "en") -> str:
        template = getattr(text(self.code), "de" if lang == "de" else "en")
        values = {k: _localize(v, lang) for k, v in self.params.items()}
        return template.format(**values)

    @property
    def message_de(self) -> str:
        return self.message("de")

    @property
    def message_en(self) -> str:
        return self.message("en")

    def __str__(self) -> str:
        return self.message("en")


class RuleViolation(RefereeError):
    """An event the rules refuse: ``index`` (0-based in the record) and ``event`` say which."""

    def __init__(
        self, code: str, *, index: int | None = None, event: Any = None, **params: Any
    ) -> None:
        super().__init__(code, **params)
        self.index = index
        self.event = event

    def line(self, lang: str = "en") -> str:
        """The one-line refusal of the replay command: ``event 17 (build schlossallee): …``."""
        return f"event {self.index} ({describe_event(self.event)}): {self.message(lang)}"

    def __str__(self) -> str:
        return self.line("en") if self.index is not None else self.message("en")

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, index={self.index!r})"


class RecordError(RefereeError):
    """A game record whose envelope (format, ruleset, board, players) cannot be used."""

    def __init__(self, reason: str) -> None:
        super().__init__("bad_record", reason=reason)
        self.reason = reason


def _localize(value: Any, lang: str) -> Any:
    if isinstance(value, Localized):
        return value.de if lang == "de" else value.en
    if isinstance(value, RuleViolation):
        return value.line(lang)
    return value


def describe_event(event: Any) -> str:
    """A short label for an event: its type and what it is about (``build schlossallee``)."""
    if not isinstance(event, Mapping):
        return type(event).__name__
    kind = event.get("type")
    label = kind if isinstance(kind, str) else "?"
    for field in ("deed", "player", "from", "event"):
        value = event.get(field)
        if isinstance(value, str | int) and not isinstance(value, bool):
            return f"{label} {value}"
    return label
