"""The live pages' version poll answered before the session, the user and the language are
looked at (issue 29, "a full hall on two cores").

300 spectators' phones poll ``/t/<slug>/live/v`` every 1.5 s: 200 requests a second. The
answer is two reads of the shared cache and no query (``tables.versions_delta``, the cached
version document), but each poll still went through every middleware: the session, the
user, the language, CSRF, messages, the content security policy. Nothing in the answer
depends on any of them (it is the same JSON for every visitor, ``views.versions_answer``), so
this middleware, placed before them (``settings.MIDDLEWARE``), gives the view's own answer
and skips the rest. An address the view would refuse (an unknown or unpublished tournament)
is left to the full chain, which answers it in the visitor's language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse

from config.early import early_get
from config.errors import DomainError

VERSIONS_VIEW = "public:versions"


def early_answer(request: HttpRequest) -> HttpResponse | None:
    match = early_get(request, ends_with="/live/v", view_name=VERSIONS_VIEW)
    if match is None:
        return None
    from public.views import versions_answer  # the views import the whole public site

    try:
        return versions_answer(request, match.kwargs["slug"])
    except (Http404, DomainError):  # refused: the full chain answers (in the language asked)
        return None


class VersionsMiddleware:
    """The version poll, before the session (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return early_answer(request) or self.get_response(request)
