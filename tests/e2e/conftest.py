"""Playwright driving Debian's chromium against pytest-django's live server."""

from __future__ import annotations

import os
import shutil
import threading
import time

import pytest
from require import missing as _missing

# Playwright's sync API runs an event loop in this thread; Django's ORM calls from the test
# body are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    if not path:
        _missing("needs Debian's chromium: apt-get install chromium")
    return path


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_FLAGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def no_script_errors(page):
    """Any JavaScript error on the page fails the test (``pytest.mark.usefixtures``)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield
    assert errors == []


@pytest.fixture(autouse=True)
def _close_pages_after_the_test(request):
    """A page left open keeps polling the live server (it is shared by the whole session) while
    the next test runs; on SQLite its requests then lock the next test's tables."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
        _wait_for_requests_in_flight()


#: How long a test's end waits for the live server's last answers (CI: well under a second).
IN_FLIGHT_SECONDS = 5.0


def _wait_for_requests_in_flight() -> None:
    """The live server answers each connection in a thread of its own (socketserver's
    ``process_request_thread``); a request sent just before its page closed (a console's
    follow poll) may still hold a transaction when the test's database is flushed next — on
    PostgreSQL a deadlock with the flush's TRUNCATE (seen in CI). Wait until none is left."""
    deadline = time.monotonic() + IN_FLIGHT_SECONDS
    while time.monotonic() < deadline:
        if not any(thread.name.endswith("(process_request_thread)") and thread.is_alive()
                   for thread in threading.enumerate()):
            return
        time.sleep(0.02)
