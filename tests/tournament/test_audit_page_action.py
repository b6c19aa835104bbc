"""A write's staff action is named from its path resolved once per URLconf (issue 29: every
banker post resolved its path twice, once here and once by Django to find the view)."""

from __future__ import annotations

from unittest import mock

from django.test import override_settings
from django.urls import URLResolver, path

from tournament import audit


def _view(request):  # pragma: no cover - never called
    raise AssertionError


urlpatterns = [path("elsewhere/<int:pk>/", _view, name="elsewhere")]


def test_a_path_is_resolved_once_and_named_as_before():
    with mock.patch.object(URLResolver, "resolve", autospec=True,
                           side_effect=URLResolver.resolve) as resolve:
        first = audit.page_action("/api/v1/tables/912345/events")
        again = audit.page_action("/api/v1/tables/912345/events")
    assert first == again == "page:table-events"
    from_the_root = [call for call in resolve.call_args_list
                     if call.args[1] == "/api/v1/tables/912345/events"]
    assert len(from_the_root) == 1
    assert audit.page_action("/admin/auth/user/1/change/") == "admin.edit"
    assert audit.page_action("/no/such/page/") is None


@override_settings(ROOT_URLCONF=__name__)
def test_another_urlconf_names_its_own_views():
    assert audit.page_action("/elsewhere/3/") == "page:elsewhere"
    assert audit.page_action("/api/v1/tables/7/events") is None


def test_the_named_paths_stay_bounded():
    with mock.patch.object(audit, "_NAMED_MOST", 3):
        for number in range(10):
            assert audit.page_action(f"/api/v1/tables/{number}/events") == "page:table-events"
        from django.urls import get_resolver
        assert len(audit._NAMED[get_resolver()]) <= 3
