"""In a real browser: create a tournament, import players (a broken file first), check in at the desk.

Playwright with Debian's chromium against the live server. The browser runs in a thread of its
own, so it never meets another test module's Playwright session (one sync session per thread);
the test body talks to the database in the main thread between the browser steps.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import threading
from collections.abc import Callable
from typing import Any

import pytest
from factories import OrganizerFactory
from require import missing as _missing

from tournament.models import Player, Tournament

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]


class BrowserThread:
    """One chromium page in a worker thread; ``run(step)`` calls ``step(page)`` there."""

    def __init__(self, *, executable: str, base_url: str) -> None:
        self._steps: queue.Queue = queue.Queue()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, args=(executable, base_url), daemon=True)
        self._thread.start()
        self._ready.wait(60)
        if self._error:
            raise self._error

    def _work(self, executable: str, base_url: str) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=executable, headless=True, args=CHROMIUM_FLAGS
                )
                context = browser.new_context(
                    base_url=base_url, locale="de-DE", viewport={"width": 820, "height": 1180}
                )
                page = context.new_page()
                page.set_default_timeout(10_000)
                self._ready.set()
                while (item := self._steps.get()) is not None:
                    step, reply = item
                    try:
                        reply.put((True, step(page)))
                    except BaseException as exc:  # handed to the test thread
                        reply.put((False, exc))
                browser.close()
        except BaseException as exc:
            self._error = exc
            self._ready.set()

    def run(self, step: Callable[[Any], Any]) -> Any:
        reply: queue.Queue = queue.Queue()
        self._steps.put((step, reply))
        ok, value = reply.get(timeout=60)
        if not ok:
            raise value
        return value

    def close(self) -> None:
        self._steps.put(None)
        self._thread.join(30)


@pytest.fixture
def browser_thread(live_server):
    executable = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    if not executable:
        _missing("needs Debian's chromium: apt-get install chromium")
    thread = BrowserThread(executable=executable, base_url=live_server.url)
    yield thread
    thread.close()


BROKEN = "Name;Verein;E-Mail;Einwilligung\nAnna Müller;KIT;anna@;ja\n;KIT;;\nBen;;;vielleicht\n"
GOOD = "Name;Verein;E-Mail;Einwilligung\n" + "".join(
    f"{name};{club};;ja\n"
    for name, club in [
        ("Anna Müller", "Spielfreunde Durlach"),
        ("Ben Becker", "KIT"),
        ("Carla Klein", "Spielfreunde Durlach"),
        ("Jörg Weiß", ""),
        ("Eva Meyer", "KIT"),
        ("Frank Wolf", ""),
    ]
)


def _csv(text: str) -> dict:
    return {"name": "spieler.csv", "mimeType": "text/csv", "buffer": text.encode("cp1252")}


def _rows(count: int) -> str:
    # A function, not an expression: Playwright evals a bare expression, which the CSP forbids.
    return f"() => document.querySelectorAll('#desk-results .desk-row').length === {count}"


def login(page) -> None:
    page.goto("/login/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()


def create_and_open(page) -> None:
    page.goto("/manage/new/")
    page.fill("input[name=name]", "Stadtmeisterschaft Karlsruhe")
    page.fill("input[name=slug]", "ka")
    page.fill("input[name=date]", "2026-11-28")
    page.locator("form.form-grid button.primary").click()
    page.wait_for_url("**/manage/ka/")
    page.locator("button[data-to=registration]").click()
    page.wait_for_url("**/manage/ka/")


def upload_broken(page) -> list[str | None]:
    page.goto("/manage/ka/players/import/")
    page.set_input_files("input[type=file]", files=[_csv(BROKEN)])
    page.locator("form.form-grid button.primary").click()
    lines = page.locator(".line-errors li")
    lines.first.wait_for()
    return [lines.nth(i).get_attribute("data-line") for i in range(lines.count())]


def upload_good(page) -> None:
    page.set_input_files("input[type=file]", files=[_csv(GOOD)])
    page.locator("form.form-grid button.primary").click()
    page.wait_for_url("**/manage/ka/players/")


def check_in_from_durlach(page) -> str:
    page.goto("/manage/ka/check-in/")
    page.locator("#desk-q").fill("durl")
    page.wait_for_function(_rows(2))
    page.locator("#desk-results .desk-row").first.locator("button.primary").click()
    page.wait_for_function(
        "() => document.querySelector('#desk-results .desk-row').dataset.checkedIn === 'true'"
    )
    return page.locator("#desk-counts").inner_text()


def find_becker(page) -> None:
    page.locator("#desk-q").fill("becker")
    page.wait_for_function(_rows(1))


def tap_check_in(page) -> str | None:
    page.locator("#desk-results button.primary").click()
    error = page.locator("#desk-error [data-code]")
    error.wait_for()
    return error.get_attribute("data-code")


def test_organizer_creates_imports_and_checks_in(browser_thread):
    OrganizerFactory(username="orga")
    browser_thread.run(login)
    browser_thread.run(create_and_open)
    assert Tournament.objects.get(slug="ka").status == "registration"

    assert browser_thread.run(upload_broken) == ["2", "3", "4"]
    assert Player.objects.count() == 0
    browser_thread.run(upload_good)
    assert Player.objects.count() == 6

    counts = browser_thread.run(check_in_from_durlach)
    assert re.search(r"\b1\b", counts)
    assert list(Player.objects.filter(checked_in=True).values_list("name", flat=True)) == [
        "Anna Müller"
    ]

    # Another desk drops Ben out meanwhile: the tap is refused and the reason is shown.
    browser_thread.run(find_becker)
    Player.objects.filter(name="Ben Becker").update(dropped_out=True)
    assert browser_thread.run(tap_check_in) == "player_dropped_out"
    assert not Player.objects.get(name="Ben Becker").checked_in
