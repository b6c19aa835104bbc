"""The Content-Security-Policy header of an answer that asks for nothing of its own is built
once from the settings (issue 29: building it was 0.1 ms of every banker post), and is the
header django-csp builds; a nonce, a decorator's policy, an exemption and other settings are
honoured as django-csp honours them."""

from __future__ import annotations

from unittest import mock

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONE, SELF
from csp.middleware import CSPMiddleware as Upstream
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config import middleware
from config.middleware import CSPMiddleware


def _answer(request, response=None):
    chain = CSPMiddleware(lambda r: None)
    chain.process_request(request)
    return chain.process_response(request, response if response is not None else HttpResponse())


def _upstream(request, response=None):
    chain = Upstream(lambda r: None)
    chain.process_request(request)
    return chain.process_response(request, response if response is not None else HttpResponse())


def test_the_same_header_as_django_csp_built_once():
    factory = RequestFactory()
    expected = _upstream(factory.post("/api/v1/tables/1/events"))[HEADER]
    _answer(factory.post("/api/v1/tables/1/events"))  # built here, if not before
    with mock.patch.object(middleware, "build_policy", side_effect=AssertionError), \
            mock.patch("csp.middleware.build_policy", side_effect=AssertionError):
        answer = _answer(factory.post("/api/v1/tables/1/events"))
    assert answer[HEADER] == expected
    assert HEADER_REPORT_ONLY not in answer
    request = factory.get("/")
    _answer(request)
    with pytest.raises(Exception, match="not available after"):
        str(request.csp_nonce)  # as django-csp: too late for a nonce


def test_a_taken_nonce_is_in_the_header():
    request = RequestFactory().get("/")
    CSPMiddleware(lambda r: None).process_request(request)
    nonce = str(request.csp_nonce)
    answer = CSPMiddleware(lambda r: None).process_response(request, HttpResponse())
    assert f"'nonce-{nonce}'" in answer[HEADER]


def test_a_decorators_policy_and_an_exemption_are_honoured():
    factory = RequestFactory()
    response = HttpResponse()
    response._csp_update = {"img-src": ["https://example.org"]}
    assert "https://example.org" in _answer(factory.get("/"), response)[HEADER]
    exempt = HttpResponse()
    exempt._csp_exempt = True
    assert HEADER not in _answer(factory.get("/"), exempt)
    already = HttpResponse()
    already[HEADER] = "default-src 'none'"
    assert _answer(factory.get("/"), already)[HEADER] == "default-src 'none'"


def test_other_settings_build_their_own_policy():
    factory = RequestFactory()
    _answer(factory.get("/"))
    other = {"DIRECTIVES": {"default-src": [NONE]}, "EXCLUDE_URL_PREFIXES": ["/admin/"]}
    watch = {"DIRECTIVES": {"default-src": [SELF]}}
    with override_settings(CONTENT_SECURITY_POLICY=other,
                           CONTENT_SECURITY_POLICY_REPORT_ONLY=watch):
        answer = _answer(factory.get("/"))
        assert answer[HEADER] == "default-src 'none'"
        assert answer[HEADER_REPORT_ONLY] == _upstream(factory.get("/"))[HEADER_REPORT_ONLY]
        assert HEADER not in _answer(factory.get("/admin/x/"))
    assert _answer(factory.get("/"))[HEADER] == _upstream(factory.get("/"))[HEADER]
