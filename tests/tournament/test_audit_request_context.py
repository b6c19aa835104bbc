"""A request's audit context (who, from where, its correlation id) reaches its log entries
through one receiver connected once (issue 29: django-auditlog connected and disconnected one
around every request, emptying the signal's cache each time), and ends with the request."""

from __future__ import annotations

from unittest import mock

import pytest
from auditlog.context import auditlog_value
from auditlog.models import LogEntry
from django.db.models.signals import pre_save
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_page_write_is_logged_with_its_actor_and_address_and_the_context_ends():
    tournament = TournamentFactory(slug="rc")
    anna = PlayerFactory(tournament=tournament, name="Anna Context", checked_in=False)
    organizer = OrganizerFactory(username="orga-rc", tournaments=[tournament])
    client = Client(REMOTE_ADDR="192.0.2.7")
    client.force_login(organizer)
    client.get("/")  # the chain loaded: its receiver connected
    with mock.patch.object(pre_save, "connect") as connect, \
            mock.patch.object(pre_save, "disconnect") as disconnect:
        response = client.post(f"/manage/rc/players/{anna.pk}/check-in/")
    assert response.status_code in (200, 302)
    assert connect.call_count == disconnect.call_count == 0
    entry = LogEntry.objects.filter(object_pk=str(anna.pk)).latest("pk")
    assert entry.actor == organizer
    assert entry.remote_addr == "192.0.2.7"
    with pytest.raises(LookupError):
        auditlog_value.get()  # nothing of the request is left in the thread
    PlayerFactory(tournament=tournament, name="Made by the system")
    assert LogEntry.objects.latest("pk").actor is None


def test_the_context_ends_when_the_view_fails():
    from django.test import RequestFactory

    from config.middleware import AuditlogMiddleware

    def failing(request):
        assert auditlog_value.get()["remote_addr"] == "192.0.2.8"
        raise RuntimeError("the view failed")

    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.8")
    with pytest.raises(RuntimeError):
        AuditlogMiddleware(failing)(request)
    with pytest.raises(LookupError):
        auditlog_value.get()
