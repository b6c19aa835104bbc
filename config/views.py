"""Site-wide views: the start page, /healthz and the 404/403 pages."""

from __future__ import annotations

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournament.models import Tournament

from .health import run_checks


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.exclude(status=Tournament.Status.DRAFT).order_by("-date")[:20]
    return render(request, "home.html", {"tournaments": tournaments})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = run_checks()
    down = [check.name for check in checks if not check.ok]
    body = {
        "status": "down" if down else "ok",
        "down": down,
        "checks": {
            check.name: {"ok": check.ok, "detail": check.detail, "ms": check.ms}
            for check in checks
        },
    }
    return JsonResponse(body, status=503 if down else 200)


# --- Error pages ---------------------------------------------------------------------------


def _forget_unreadable_post(request: HttpRequest) -> None:
    """Django's error pages read ``request.POST`` (for the CSRF token of the header's language
    form); a malformed multipart body would raise again there and turn a 404 into a 500.
    Read it once here: Django then treats the body as empty."""
    if request.method != "POST":
        return
    try:
        request.POST  # noqa: B018 - parsing is the point
    except (MultiPartParserError, SuspiciousOperation, UnreadablePostError):
        request._mark_post_parse_error()


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    _forget_unreadable_post(request)
    return defaults.page_not_found(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    _forget_unreadable_post(request)
    return defaults.permission_denied(request, exception)
