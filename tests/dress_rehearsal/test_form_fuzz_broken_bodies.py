"""Request bodies no browser sends (invalid UTF-8, broken multipart, too many fields, JSON) to
every form that posts, with the CSRF check on as in production: never a server error.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from ._form_catalogue import FORMS, Form, _organizer

pytestmark = pytest.mark.usefixtures("fast_password_hashing")


BROKEN_BODIES = {
    "invalid UTF-8": (b"name=%FF%FE%C3%28&note=\xff\xfe&q=%ED%A0%80",
                      "application/x-www-form-urlencoded"),
    "multipart without boundary": (b"--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb",
                                   "multipart/form-data"),
    "truncated multipart": (b"--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb",
                            "multipart/form-data; boundary=xyz"),
    "invalid UTF-8 in multipart": (
        b"--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n\xff\xfe\xc3\x28\r\n"
        b"--xyz--\r\n", "multipart/form-data; boundary=xyz"),
    "too many fields": ("&".join(f"f{i}=1" for i in range(1500)).encode(),
                        "application/x-www-form-urlencoded"),
    "JSON instead of a form": (b'{"name": "\\u0000", "version": [1]}', "application/json"),
}


@pytest.mark.parametrize("body", sorted(BROKEN_BODIES))
def test_broken_bodies_to_every_form(world, body):
    """Bodies no browser sends, to every form (and to an unknown address), with the CSRF check
    on as in production; never a server error."""
    raw, content_type = BROKEN_BODIES[body]
    client = _organizer(world)
    failures = []
    for name, form in [*FORMS.items(), ("unknown", Form(lambda w: "/no/such/page/", dict))]:
        with transaction.atomic():
            answer = client.generic("POST", form.path(world), raw, content_type=content_type)
            transaction.set_rollback(True)
        if answer.status_code >= 500:
            failures.append(f"{name}: {answer.status_code}")
    assert failures == []


