"""Helpers for the browser tests (Playwright against pytest-django's live server)."""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db import OperationalError
from django.test import Client

#: On SQLite the live server's threads and the test share one in-memory connection: a request
#: and a ``db()`` call of the test take turns, or their transactions interleave (a savepoint
#: released by the other thread, "cannot start a transaction within a transaction").
ONE_AT_A_TIME = threading.RLock()


def one_request_at_a_time(app):
    """The live server's WSGI app, answering one request at a time (body read inside)."""

    def serialized(environ, start_response):
        with ONE_AT_A_TIME:
            result = app(environ, start_response)
            try:
                return [b"".join(result)]
            finally:
                if hasattr(result, "close"):
                    result.close()

    return serialized


def login(page, live_server, user) -> None:
    """The page's browser carries a logged-in session of ``user`` (no login form)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def db(call, *args, **kwargs):
    """The test's own database call, between two of the live server's requests; SQLite's
    shared in-memory test database may still be locked for a moment: retry."""
    for _attempt in range(100):
        try:
            with ONE_AT_A_TIME:
                return call(*args, **kwargs)
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            time.sleep(0.05)
    with ONE_AT_A_TIME:
        return call(*args, **kwargs)


def login_as(context, live_server, user) -> None:
    """Like :func:`login`, for a browser context (several phones of one test)."""
    client = Client()
    db(client.force_login, user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie,
                          "url": live_server.url}])


#: A banker's phone (the console's smallest supported screen).
PHONE = {"width": 360, "height": 740}

#: An init script that keeps every Content-Security-Policy violation the page reports in
#: ``window.__csp`` (directive, what was blocked, sample, where): ``context.add_init_script``.
CSP_LISTENER = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ""} ${e.sourceFile || ""}:${e.lineNumber}`);
});
"""


def watched_page(browser, live_server, errors: list[str], **context_options):
    """A German page in a browser context of its own on the live server (15 s per step); its
    script errors are collected in ``errors``."""
    context = browser.new_context(base_url=live_server.url, locale="de-DE", **context_options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def banker_phone(browser, live_server, banker, table, errors: list[str]):
    """A German phone logged in as ``banker`` with ``table``'s console open at set-up; page
    errors are collected in ``errors``."""
    phone = watched_page(browser, live_server, errors, viewport=PHONE)
    login_as(phone.context, live_server, banker)
    phone.goto(f"/banker/table/{table.pk}/")
    phone.wait_for_selector('#console-main[data-mode="setup"]')
    return phone


def wait_for_message_below(page, field: str, message: str, *, within: float = 60) -> None:
    """Wait until ``message`` sits right below ``field`` with both in view.

    The two are measured in one script, in one frame: read one after the other from Python,
    a scroll between the readings (the autofocus, then the console's ``scrollIntoView``) put
    them 200 px apart under CI load although the page never showed them so.
    """
    page.wait_for_function(
        """([field, message, within]) => {
            const f = document.querySelector(field), m = document.querySelector(message);
            if (!f || !m) return false;
            const a = f.getBoundingClientRect(), b = m.getBoundingClientRect();
            const seen = (r) => r.top >= 0 && r.bottom <= window.innerHeight;
            const gap = b.top - a.bottom;
            return seen(a) && seen(b) && gap >= 0 && gap < within;
        }""",
        arg=[field, message, within], timeout=5000)
