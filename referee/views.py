"""The banker's pages: the tables a banker runs, and the service worker that keeps the console."""

from __future__ import annotations

import functools
import hashlib
import os

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import PrefixNode
from django.urls import reverse
from django.views.decorators.http import require_GET

from referee import selectors as referee_selectors
from referee.console import views as console
from tournament import access


@login_required
@require_GET
def my_tables(request: HttpRequest) -> HttpResponse:
    """The tables this account banks, and the tournaments it staffs (the head referee's way in)."""
    return render(
        request,
        "referee/my_tables.html",
        {
            "tables": referee_selectors.my_tables(request.user),
            "staffed": access.staffed_tournaments(request.user).order_by("-date"),
        },
    )


def table_console(request: HttpRequest, table_id: int) -> HttpResponse:
    """The banker's console of one table (see :mod:`referee.console.views`)."""
    return console.page(request, table_id)


SERVICE_WORKER_TEMPLATE = "referee/console/sw.js"
#: Names of the service worker's caches; static/js/site.js deletes them on logout.
CACHE_PREFIX = "banker-console-"
#: The files the console page loads: a deploy that changes any of them is a new worker version.
SERVICE_WORKER_ASSETS = (
    "js/console/util.js", "js/console/queue.js", "js/console/clock.js", "js/console/actions.js",
    "js/console/conflict.js", "js/console.js", "js/secure-notice.js", "css/console.css",
    "js/htmx.min.js", "js/mcs.js", "js/site.js", "css/site.css",
)


@functools.lru_cache(maxsize=64)
def _file_digest(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).digest()


def service_worker_version() -> str:
    """A hash of the worker's own template and the console's static files (read again only
    when a file's modification time or size changes)."""
    digest = hashlib.sha256()
    template = get_template(SERVICE_WORKER_TEMPLATE).origin.name
    for name, path in [(SERVICE_WORKER_TEMPLATE, template)] + [
        (name, finders.find(name)) for name in SERVICE_WORKER_ASSETS
    ]:
        digest.update(name.encode())
        if path:
            stat = os.stat(path)
            digest.update(_file_digest(str(path), stat.st_mtime_ns, stat.st_size))
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/banker/sw.js``: keeps the console page, its fragment and the static files for a reload
    without network (see the template). No login: the script holds nothing private."""
    scope = reverse("banker:tables")
    response = render(
        request,
        SERVICE_WORKER_TEMPLATE,
        {
            "version": service_worker_version(),
            "cache_prefix": CACHE_PREFIX,
            "scope": scope,
            "static_prefix": PrefixNode.handle_simple("STATIC_URL"),
        },
        content_type="application/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = scope
    return response
