"""One place that turns domain errors raised in HTML views into answers a person understands."""

from __future__ import annotations

import functools
import ipaddress

from auditlog import get_logentry_model
from auditlog.cid import set_cid
from auditlog.context import _set_extra_data, auditlog_value
from auditlog.middleware import AuditlogMiddleware as _AuditlogMiddleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as _CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.db.models.signals import pre_save
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from config.clients import client_address
from config.errors import DomainError

#: The request's audit context (django-auditlog's ``auditlog_value``) is applied to the log
#: entries of the request by one receiver connected once, under this id.
_REQUEST_CONTEXT = ("config.middleware.AuditlogMiddleware", "request")


class AuditlogMiddleware(_AuditlogMiddleware):
    """django-auditlog's, recording the client's address from our trusted proxies (its own
    takes the leftmost X-Forwarded-For entry, which the client writes itself).

    Its request context (actor, address, correlation id) is django-auditlog's, set for the
    request and reset after it (django-auditlog leaves it set in the thread); the receiver
    that stamps it on the request's log entries is django-auditlog's, connected once instead
    of connected and disconnected around every request (issue 29: that, and the signal's
    cache emptied by it for every model's next save, was ~1 % of a banker's post).
    """

    def __init__(self, get_response=None):
        super().__init__(get_response)
        pre_save.connect(functools.partial(_set_extra_data, signal_duid=_REQUEST_CONTEXT),
                         sender=get_logentry_model(), dispatch_uid=_REQUEST_CONTEXT, weak=False)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        set_cid(request)
        token = auditlog_value.set({**self.get_extra_data(request),
                                    "signal_duid": _REQUEST_CONTEXT})
        try:
            return self.get_response(request)
        finally:
            auditlog_value.reset(token)

    @staticmethod
    def _get_remote_addr(request: HttpRequest) -> str | None:
        if settings.AUDITLOG_DISABLE_REMOTE_ADDR:
            return None
        address = client_address(request)
        try:  # the column takes an IP address only (a forwarded header may carry anything)
            return str(ipaddress.ip_address(address))
        except ValueError:
            return None


#: What a view or decorator may set on its response to change its policy (django-csp's names).
_OWN_POLICY = ("_csp_config", "_csp_update", "_csp_replace",
               "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")


class CSPMiddleware(_CSPMiddleware):
    """django-csp's; an answer that asks for nothing of its own (no nonce taken, no
    decorator's policy) gets the policy built once from the settings instead of anew (issue
    29: 0.1 ms of every answer, the same header every time). Built again when the settings
    name another policy (``override_settings``); the headers are set as django-csp sets them.
    """

    _built: tuple = (object(), object(), "", "", (), ())

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if (getattr(request, "_csp_nonce", None) is not None
                or any(getattr(response, part, None) is not None for part in _OWN_POLICY)):
            return super().process_response(request, response)
        if response.status_code in (500, 404) and settings.DEBUG:
            return response  # django-csp leaves the debug pages alone
        csp, csp_ro, excluded, excluded_ro = self._policies()
        path = request.path_info
        if (csp and HEADER not in response and getattr(response, "_csp_exempt", False) is False
                and not path.startswith(excluded)):
            response[HEADER] = csp
        if (csp_ro and HEADER_REPORT_ONLY not in response
                and getattr(response, "_csp_exempt_ro", False) is False
                and not path.startswith(excluded_ro)):
            response[HEADER_REPORT_ONLY] = csp_ro
        # as django-csp: a nonce asked for after the header was written is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response

    def _policies(self) -> tuple[str, str, tuple, tuple]:
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        policy_ro = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
        built = CSPMiddleware._built
        if built[0] is not policy or built[1] is not policy_ro:
            built = CSPMiddleware._built = (
                policy, policy_ro, build_policy(), build_policy(report_only=True),
                tuple((policy or {}).get("EXCLUDE_URL_PREFIXES", None) or ()),
                tuple((policy_ro or {}).get("EXCLUDE_URL_PREFIXES", None) or ()),
            )
        return built[2:]


class DomainErrorMiddleware:
    """Render a refused request as a 4xx page (or an htmx fragment) with the bilingual message.

    API views never get here: DRF's exception handler (``config.errors``) answers them.

    A refused form post keeps its 4xx status and is answered at its own address rather than
    redirected back with a message (POST/redirect/GET): the status is the refusal's contract
    (htmx, the browser tests and clients read it), a redirect would drop the typed text of a
    form whose refusal comes from a service, and forms that can say what is wrong at a field do
    so themselves. So the page says how to go back without re-posting: a real link to the form
    page (the same-origin Referer, else the tournament's page; a ``javascript:`` URL is blocked
    by the site's CSP) and that reloading would send the form again. A GET at a POST-only
    address (typed, bookmarked, reopened) gets that link too instead of an empty 405.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and request.method == "GET"
            and not getattr(response, "streaming", False)
            and not response.content
            and not getattr(request, "htmx", False)
        ):
            page = render(
                request, "405.html", {"back": way_back(request, referer=False)}, status=405
            )
            if response.has_header("Allow"):
                page["Allow"] = response["Allow"]
            return page
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DomainError):
            return None
        if getattr(request, "htmx", False):
            return render(
                request, "_error_fragment.html", {"error": exception}, status=exception.http_status
            )
        context = {"error": exception, "back": way_back(request), "posted": request.method == "POST"}
        return render(request, "error.html", context, status=exception.http_status)


def way_back(request: HttpRequest, *, referer: bool = True) -> dict[str, str]:
    """Where a refused page's link leads, and what it says: the page the request came from
    (its Referer, same origin only), else the tournament's page (staff addresses carry its
    slug), else the start page."""
    came_from = request.headers.get("Referer", "") if referer else ""
    if came_from and url_has_allowed_host_and_scheme(
        came_from, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return {"url": came_from, "label": gettext("Back to the form")
                if request.method == "POST" else gettext("Back")}
    tournament = getattr(request, "tournament", None)
    slug = getattr(tournament, "slug", None)
    match = request.resolver_match
    if slug is None and match is not None and request.path.startswith("/manage/"):
        slug = match.kwargs.get("slug")
    if slug:
        try:
            url = reverse("organizer:tournament", kwargs={"slug": slug})
        except NoReverseMatch:
            pass
        else:
            return {"url": url, "label": gettext("To the tournament's page")}
    return {"url": "/", "label": gettext("To the start page")}
