"""One place that turns domain errors raised in HTML views into answers a person understands."""

from __future__ import annotations

import ipaddress

from auditlog.middleware import AuditlogMiddleware as _AuditlogMiddleware
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .clients import client_address
from .errors import DomainError


class AuditlogMiddleware(_AuditlogMiddleware):
    """django-auditlog's, recording the client's address from our trusted proxies (its own
    takes the leftmost X-Forwarded-For entry, which the client writes itself)."""

    @staticmethod
    def _get_remote_addr(request: HttpRequest) -> str | None:
        if settings.AUDITLOG_DISABLE_REMOTE_ADDR:
            return None
        address = client_address(request)
        try:  # the column takes an IP address only (a forwarded header may carry anything)
            return str(ipaddress.ip_address(address))
        except ValueError:
            return None


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
