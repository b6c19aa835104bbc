"""The 404 and 403 pages survive a request body Django cannot parse."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("content_type", [
    "multipart/form-data",  # no boundary
    "multipart/form-data; boundary=",
])
def test_a_broken_multipart_post_to_an_unknown_address_is_a_404(content_type):
    """Found by the API fuzz: Django's 404 page reads request.POST for its CSRF token, so a
    malformed multipart body raised again inside the error page, which made it a 500."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = "c" * 32
    answer = client.generic("POST", "/no/such/page/", b"--x\r\nbroken", content_type=content_type,
                            HTTP_X_CSRFTOKEN="c" * 32)
    assert answer.status_code == 404
    assert "<h1>" in answer.content.decode()
