"""Site-wide views: /healthz and the 404/403 pages (the start page is the public site's:
``public.views.home``)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
    UnreadablePostError,
)
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import urlencode
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.health import run_checks


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


@require_GET
def login_redirect(request: HttpRequest) -> HttpResponse:
    """Django admin's login page, replaced by the site's own (``next`` kept); a logged-in
    user without the right is told so instead of being asked to log in again."""
    if request.user.is_authenticated:
        raise PermissionDenied
    target = request.GET.get("next", "")
    query = f"?{urlencode({'next': target})}" if target.startswith("/") else ""
    return redirect(f"{reverse('login')}{query}")


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: the site's SVG icon."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
