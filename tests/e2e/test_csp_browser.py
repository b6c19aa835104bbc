"""Issue 15: a strict Content-Security-Policy on every page, and not one violation in a real
browser — public pages, the projector, the banker console, the organizer's pages, the round
desk, the check-in desk, prints, the API docs.

The pages are found by walking the URL conf: every GET route whose parameters the world below
can fill, that answers 200 with HTML for a logged-in superuser. A page added later is checked
without touching this file (tests/site_pages.py: what the walk cannot reach, what it leaves
out and why). Each page is loaded in chromium with a ``securitypolicyviolation`` listener in
place before the page's own scripts, and the console is watched for CSP errors: zero of either.
"""

from __future__ import annotations

import pytest
from browsing import CSP_LISTENER
from django.contrib.auth.models import User
from django.test import Client
from dress_rehearsal._fuzz_world import build_fuzz_world
from site_pages import signup_pages, walked_pages

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

@pytest.mark.slow
def test_every_page_sends_a_strict_policy_and_violates_it_nowhere(browser, live_server):
    world = build_fuzz_world()
    extra = signup_pages(world)
    admin = User.objects.create_superuser("csp-admin", "csp@example.org", "x" * 12)
    client = Client()
    client.force_login(admin)
    html_pages = []
    for path in walked_pages(world) + extra:
        answer = client.get(path)
        if answer.status_code != 200 or "text/html" not in answer.get("Content-Type", ""):
            continue
        policy = answer.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
        assert "unsafe-eval" not in policy and "object-src 'none'" in policy, path
        html_pages.append(path)
    assert len(html_pages) >= 25, html_pages  # the walk found the site
    for kind in ("/t/fuzz/hall/", "/p/", "/manage/fuzz/screens/", "/banker/table/"):
        assert any(path.startswith(kind) for path in html_pages), (kind, html_pages)

    context = browser.new_context(base_url=live_server.url, locale="de-DE",
                                  service_workers="block")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    page.set_default_timeout(15_000)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text)
            if "Content Security Policy" in message.text else None)
    violations: dict[str, list[str]] = {}
    for path in html_pages:
        console.clear()
        page.goto(path, wait_until="load")
        page.wait_for_timeout(150)  # htmx settles, scripts run
        found = page.evaluate("window.__csp || []") + list(console)
        if found:
            violations[path] = found
    context.close()
    assert violations == {}
