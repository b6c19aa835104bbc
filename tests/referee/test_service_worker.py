"""The console's service worker (/banker/sw.js): served fresh, scoped to /banker/, versioned by
the files the console loads; the console registers it; logging out drops its caches.

The worker's behaviour in a browser (a reload without network) is in
tests/e2e/test_console_service_worker_browser.py.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from factories import UserFactory, seated_table

from referee import views

pytestmark = pytest.mark.django_db
STATIC = Path(django_settings.BASE_DIR) / "static"


def version(client) -> str:
    body = client.get("/banker/sw.js").content.decode()
    match = re.search(r'const CACHE = PREFIX \+ "([0-9a-f]{16})";', body)
    assert match, body[:500]
    return match.group(1)


def test_the_worker_is_javascript_never_cached_and_scoped_to_the_banker_pages(client):
    response = client.get("/banker/sw.js")  # no login: a banker link's session needs it too
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/banker/"
    body = response.content.decode()
    assert 'const SCOPE = "/banker/";' in body
    assert 'const STATIC = "/static/";' in body
    assert "skipWaiting" in body and "clients.claim" in body
    assert 'request.method !== "GET"' in body  # posts are never touched
    assert "ignoreVary: true" in body
    assert version(client) == views.service_worker_version()


def test_only_get(client):
    assert client.post("/banker/sw.js").status_code == 405


def test_the_version_follows_the_console_files(client, settings, tmp_path):
    shutil.copytree(STATIC, tmp_path / "static")
    settings.STATICFILES_DIRS = [tmp_path / "static"]  # the finders forget the old folder
    before = version(client)
    assert version(client) == before  # the same files, the same version

    script = tmp_path / "static" / "js" / "console.js"
    script.write_text(script.read_text() + "\n// a new deploy\n")
    after = version(client)
    assert after != before

    css = tmp_path / "static" / "css" / "console.css"
    css.write_text(css.read_text() + "\n/* restyled */\n")
    assert version(client) not in (before, after)


def test_the_console_registers_the_worker_and_marks_its_fresh_fragment(client):
    banker = UserFactory(username="sw-banker")
    table = seated_table(banker=banker)
    client.force_login(banker)
    html = client.get(f"/banker/table/{table.pk}/").content.decode()
    assert 'data-sw="/banker/sw.js"' in html and 'data-sw-scope="/banker/"' in html
    main = re.search(r'<section id="console-main"[^>]*>', html).group(0)
    # the worker turns data-source="network" into "cache" when it answers with a kept copy
    assert 'data-source="network"' in main
    assert re.search(r'data-rendered="\d+"', main)
    assert re.search(r'data-rendered-time="\d\d:\d\d"', main)
    fragment = client.get(f"/banker/table/{table.pk}/main/").content.decode()
    assert 'data-source="network"' in fragment
    i18n = json.loads(re.search(r'id="console-i18n"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert i18n["offline_stale_one"] == "Offline – Stand von %(time)s Uhr; 1 Aktion wartet"
    assert "%(n)s" in i18n["offline_stale_many"] and "%(time)s" in i18n["offline_stale"]
    assert (STATIC / "js" / "console.js").read_text().count("serviceWorker.register(") == 1


def test_the_version_covers_every_file_the_console_page_loads(client):
    """A file the page loads but the version ignores would stay old in the kept copy."""
    banker = UserFactory(username="sw-assets")
    table = seated_table(banker=banker)
    client.force_login(banker)
    html = client.get(f"/banker/table/{table.pk}/").content.decode()
    loaded = re.findall(r'<(?:script src|link rel="stylesheet" href)="/static/([^"?]+)"', html)
    assert "js/console/queue.js" in loaded and "js/console.js" in loaded
    assert sorted(set(loaded)) == sorted(views.SERVICE_WORKER_ASSETS)
    assert all((STATIC / name).is_file() for name in views.SERVICE_WORKER_ASSETS)


def test_logging_out_and_the_login_page_drop_the_kept_console(client):
    client.force_login(UserFactory(username="shared-device"))
    page = client.get("/banker/").content.decode()
    assert re.search(r'<form method="post" action="/logout/"[^>]*data-logout', page)
    assert "js/site.js" in page
    client.post("/logout/")
    assert "data-clear-offline" in client.get("/login/").content.decode()
    site = (STATIC / "js" / "site.js").read_text()
    assert f'const PREFIX = "{views.CACHE_PREFIX}";' in site

