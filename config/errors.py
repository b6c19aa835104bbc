"""Domain errors and the one place that maps them to HTTP answers.

Services raise :class:`DomainError` subclasses with a stable ``code``; views and the API never
build error responses themselves. Messages are lazily translated so that every error can be
shown to a banker in German and in English.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.encoding import force_str
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class DomainError(Exception):
    """A refused request that a person can fix; carries a stable code and a bilingual message."""

    code: str = "domain_error"
    http_status: int = status.HTTP_400_BAD_REQUEST

    def __init_subclass__(cls, *, code: str | None = None, **kwargs: Any) -> None:
        """Each refusal names its stable code in its header, one line for most of them:
        ``class StaleSequence(Conflict, code="stale_sequence"): ...`` (the base gives the
        HTTP status)."""
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code

    def __init__(
        self,
        message: Any,
        *,
        code: str | None = None,
        http_status: int | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        self.message = message
        self.params = params or {}
        if code is not None:
            self.code = code
        if http_status is not None:
            self.http_status = http_status
        super().__init__(self.message_in("en"))

    def message_in(self, language: str) -> str:
        with translation.override(language):
            text = force_str(self.message)
            return text % self.params if self.params else text

    @property
    def text(self) -> str:
        """The message in the active language (a page that shows a refusal beside its button)."""
        return self.message_in(translation.get_language() or "de")

    def as_dict(self) -> dict[str, str]:
        return {
            "code": self.code,
            "detail": self.text,
            "message_de": self.message_in("de"),
            "message_en": self.message_in("en"),
        }


class NotFound(DomainError, code="not_found"):
    http_status = status.HTTP_404_NOT_FOUND


class Conflict(DomainError, code="conflict"):
    """Two writers raced, or the object moved on (e.g. a round already started)."""

    http_status = status.HTTP_409_CONFLICT


class PermissionDenied(DomainError, code="permission_denied"):
    http_status = status.HTTP_403_FORBIDDEN


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler: domain errors become 4xx JSON with code and both languages."""
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.http_status)
    return exception_handler(exc, context)


class RateLimited(DomainError, code="rate_limited"):
    http_status = 429


class UnusableText(DomainError, code="unusable_text"): ...
