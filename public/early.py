"""The live pages' polls answered before the session and the user are looked at (issue 29, "a
full hall on two cores").

A hall's phones poll: the version document every 1.5 s (``/t/<slug>/live/v``, 200 a second
from 300 phones), then the table cards that changed (``live/cards``) or the standings when they
moved (``live/standings/top`` …). Each answer is a few reads of the shared cache and no query,
yet each went through every middleware: the session, the user, CSRF, messages, the audit
context — more than half of a cards poll's CPU. Nothing in these answers depends on who asks:
the version document is the same JSON for every visitor, and the cards and fragments depend
only on the language, which Django takes from the cookie or the browser's preference, never
from the session (there are no language prefixes in our addresses). So this middleware, placed
before the session (``settings.MIDDLEWARE``), gives the view's own answer in that language and
adds what the skipped middlewares would have added on the way out (``Content-Language``,
``Vary``, ``Content-Length``, ``X-Frame-Options``, an HTML fragment's Content-Security-Policy),
so the answer is the same to the byte and header. An address the view would refuse (an unknown or
unpublished tournament) is left to the full chain, which answers it in the visitor's language.

The public API's cached documents (``/api/v1/tournaments/<slug>/standings`` and ``/tables``:
hall screens and other sites poll them) are the same for everyone too and are given here through
DRF's own view (``public.api``); they differ from the full chain's answer only in not naming
``Cookie`` in ``Vary``: nothing in them depends on a cookie (the full chain's audit middleware
looked at the session, which added it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation

from config.early import early_match
from config.errors import DomainError

LIVE = "/live/"  # every live poll's address has it
PUBLIC_API = "/api/v1/tournaments/"  # the public API's cached documents (``public.api``)


@cache
def _on_the_way_out() -> tuple:
    """The response side of the middlewares an early answer skips that add headers, in the
    order the full chain runs them."""
    from django.middleware.clickjacking import XFrameOptionsMiddleware
    from django.middleware.common import CommonMiddleware
    from django.middleware.locale import LocaleMiddleware

    from config.middleware import CSPMiddleware

    def never(request: HttpRequest) -> HttpResponse:
        raise AssertionError("only the response side runs")

    return (CSPMiddleware(never), XFrameOptionsMiddleware(never), CommonMiddleware(never),
            LocaleMiddleware(never))


def early_answer(request: HttpRequest) -> HttpResponse | None:
    path = request.path_info
    if request.method != "GET" or not (LIVE in path or path.startswith(PUBLIC_API)):
        return None
    match = early_match(request)
    found = getattr(match.func, "early", None) if match is not None else None
    if found is None:  # not a view marked for it (``public.views._answered_early``, ``public.api``)
        return None
    answer, in_language = found
    try:
        if not (in_language(request) if callable(in_language) else in_language):
            return _given(answer(request, **match.kwargs))
        with translation.override(translation.get_language_from_request(request)):
            request.LANGUAGE_CODE = translation.get_language()
            response = _given(answer(request, **match.kwargs))
            for middleware in _on_the_way_out() if response is not None else ():
                response = middleware.process_response(request, response)
            return response
    except (Http404, DomainError):  # refused (unknown or unpublished): the full chain answers
        return None


def _given(response: HttpResponse) -> HttpResponse | None:
    """The view's answer rendered as Django's handler renders it, or None for a refusal
    answered as a response (a DRF view turns Http404 into one): the full chain answers it."""
    if response.status_code >= 400:
        return None
    render = getattr(response, "render", None)
    return render() if callable(render) else response


class LivePollsMiddleware:
    """The live pages' polls, before the session (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return early_answer(request) or self.get_response(request)
