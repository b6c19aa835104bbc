"""A banker link's console post is checked for its CSRF token once (DRF's session check; the
view is exempt from Django's own middleware, so not twice) and refused without it: the chain
made cheaper for issue 29 checks it as before."""

from __future__ import annotations

import pytest
from consoles import open_link
from django.test import Client
from factories import seated_table

from referee.models import Game

pytestmark = pytest.mark.django_db


def test_a_link_post_without_its_token_is_refused_and_with_it_is_written(banker):
    table = seated_table(banker=banker)
    phone = Client(enforce_csrf_checks=True)
    open_link(phone, table)
    assert phone.get(f"/banker/table/{table.pk}/").status_code == 200  # sets the CSRF cookie
    url = f"/api/v1/tables/{table.pk}/events"
    body = {"event": {"type": "start"}, "expected_seq": 0}
    refused = phone.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="a")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]
    assert not Game.objects.filter(table=table, event_count__gt=0).exists()
    written = phone.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="a",
                         HTTP_X_CSRFTOKEN=phone.cookies["csrftoken"].value)
    assert written.status_code == 201, written.content
