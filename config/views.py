"""Site-wide views: the start page and /healthz."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
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
