"""Reasons in words, shown in the reader's language: lazily joined and formatted messages, and
:class:`Worded`, a reason with a stable code that says where it applies (a setting, a line)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils import translation
from django.utils.functional import lazy


def _join(items: Iterable[Any], separator: str) -> str:
    return separator.join(str(item) for item in items)


def _format(message: Any, params: Mapping[str, Any]) -> str:
    return str(message) % dict(params) if params else str(message)


#: A lazily translated ", ".join(...): rendered in whatever language is active when shown.
lazy_join = lazy(_join, str)
#: A lazily translated ``message % params``.
lazy_format = lazy(_format, str)


def in_language(text: Any, language: str) -> str:
    with translation.override(language):
        return str(text)


class Worded:
    """A reason in words: ``message`` with its ``params``, in the language it is shown in, and a
    stable ``code``; ``where`` names the field that says where it applies (a line, a setting)."""

    where: ClassVar[str]
    code: str
    message: Any
    params: dict[str, Any]

    @property
    def text(self) -> Any:
        return lazy_format(self.message, self.params)

    def message_in(self, language: str) -> str:
        return in_language(self.text, language)

    def as_dict(self) -> dict[str, Any]:
        return {
            self.where: getattr(self, self.where),
            "code": self.code,
            "message_de": self.message_in("de"),
            "message_en": self.message_in("en"),
        }


@dataclass(frozen=True)
class Problem(Worded):
    """One broken setting: the field, a stable code and a bilingual message."""

    where: ClassVar[str] = "field"
    field: str
    code: str
    message: Any
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LineError(Worded):
    """One reason why one line of the file was refused (line 1 is the first line of the file)."""

    where: ClassVar[str] = "line"
    line: int
    code: str
    message: Any
    params: dict[str, Any] = field(default_factory=dict)
