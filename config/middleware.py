"""One place that turns domain errors raised in HTML views into answers a person understands."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .errors import DomainError


class DomainErrorMiddleware:
    """Render a refused request as a 4xx page (or an htmx fragment) with the bilingual message.

    API views never get here: DRF's exception handler (``config.errors``) answers them.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DomainError):
            return None
        template = "_error_fragment.html" if getattr(request, "htmx", False) else "error.html"
        return render(request, template, {"error": exception}, status=exception.http_status)
