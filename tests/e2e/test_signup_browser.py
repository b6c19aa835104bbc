"""Issue 30 in a real browser, on a phone (360 × 740) in German: a player signs up, opens the
mail file, follows the link, sees "Angemeldet" and the player card; a second lands on the
waiting list; the first withdraws; the second's page says "Angemeldet" and their mail arrived.

German comes from ``locale/glossary-de-signup.json`` compiled into a temporary catalogue (as in
test_desk_browser.py), so this runs before the .po files are merged.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from pathlib import Path

import pytest
from catalogues import write_mo
from factories import TournamentFactory
from playwright.sync_api import expect

from tournament.models import SignupSettings, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_script_errors")]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def german_glossary(settings, tmp_path):
    glossary = {}
    for name in ("glossary-de.json", "glossary-de-public.json", "glossary-de-signup.json"):
        path = ROOT / "locale" / name
        if path.exists():
            glossary.update(json.loads(path.read_text("utf-8")))
    target = tmp_path / "locale" / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    write_mo(target / "django.mo", glossary)
    settings.LOCALE_PATHS = [str(tmp_path / "locale"), *settings.LOCALE_PATHS]


@pytest.fixture
def mailbox(settings, tmp_path):
    folder = tmp_path / "mail"
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(folder)
    return folder


def mails_to(folder: Path, address: str) -> list[email.message.EmailMessage]:
    found = []
    for path in sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime_ns):
        for chunk in path.read_bytes().split(b"-" * 79):
            if chunk.strip():
                message = email.message_from_bytes(chunk.strip() + b"\n",
                                                   policy=email.policy.default)
                if message["To"] == address:
                    found.append(message)
    return found


def body(message) -> str:
    return message.get_body().get_content()


def sign_up(page, slug: str, name: str, address: str) -> None:
    page.goto(f"/t/{slug}/signup/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("E-Mail", exact=True).fill(address)
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_test_id("signup-sent")).to_contain_text("E-Mail geschickt")


def follow_confirmation(page, folder: Path, address: str) -> None:
    (message,) = mails_to(folder, address)
    link = re.search(r"https?://\S+/confirm/", body(message))[0]
    page.goto(link)
    page.get_by_role("button", name="Anmeldung bestätigen").click()


SERIOUS = {"serious", "critical"}


def axe_clean(page) -> None:
    """axe-core finds nothing serious on the page (as the whole-day test checks its pages)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert bad == [], (page.url, bad)


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_sign_up_wait_and_move_up_on_a_phone_in_german(browser, live_server, mailbox):
    tournament = TournamentFactory(slug="fruehjahr", name="Frühjahrsturnier",
                                   status=Tournament.Status.REGISTRATION)
    SignupSettings.objects.create(tournament=tournament, is_open=True, capacity=2,
                                  waiting_list=True, entry_fee="10 €")
    from tournament.models import Player

    Player.objects.create(tournament=tournament, name="Schon Dabei")  # one place taken

    phone = {"viewport": {"width": 360, "height": 740}, "locale": "de-DE",
             "base_url": live_server.url}
    first = browser.new_context(**phone).new_page()
    second = browser.new_context(**phone).new_page()
    try:
        first.goto("/t/fruehjahr/")
        first.get_by_test_id("signup-link").click()
        expect(first.get_by_test_id("places-left")).to_contain_text("Freie Plätze: 1 von 2")
        assert fits(first)
        axe_clean(first)
        sign_up(first, "fruehjahr", "Anna Weiß", "anna@example.org")
        follow_confirmation(first, mailbox, "anna@example.org")
        expect(first.get_by_test_id("signup-status")).to_contain_text("Angemeldet")
        expect(first.get_by_test_id("player-card")).to_be_visible()
        assert fits(first)
        axe_clean(first)
        first_status = first.url
        first.get_by_role("link", name="Spielerkarte öffnen").click()
        expect(first.get_by_test_id("me-signup")).to_contain_text("Angemeldet")

        sign_up(second, "fruehjahr", "Bert Brück", "bert@example.org")
        follow_confirmation(second, mailbox, "bert@example.org")
        expect(second.get_by_test_id("signup-status")).to_contain_text("Warteliste, Platz 1")
        second_status = second.url

        first.goto(first_status)
        first.get_by_role("link", name="Anmeldung zurückziehen").click()
        axe_clean(first)
        first.get_by_role("button", name="Ja, abmelden").click()
        expect(first.get_by_test_id("signup-status")).to_contain_text("Abgemeldet")

        second.goto(second_status)
        expect(second.get_by_test_id("signup-status")).to_contain_text("Angemeldet")
        expect(second.get_by_test_id("player-card")).to_be_visible()
        moved_up = [m for m in mails_to(mailbox, "bert@example.org")
                    if "Platz ist frei" in m["Subject"]]
        assert len(moved_up) == 1 and "nachgerückt" in body(moved_up[0])
        card = re.search(r"https?://\S+/p/\S+/", body(moved_up[0]))[0]
        second.goto(card)
        expect(second.get_by_test_id("me-signup")).to_contain_text("Angemeldet")
        assert fits(second)
    finally:
        first.context.close()
        second.context.close()
