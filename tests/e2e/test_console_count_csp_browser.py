"""Issue 28: one CSP violation on the console around the count. The page walk
(``test_csp_browser``) loads each page once; this walks the count itself on a phone — the
counted cash checked and saved, "Count finished", a wrong code and the right one, the dispute
opened, the count reopened — with a ``securitypolicyviolation`` listener in place before the
page's own scripts and the console's service worker running, in German as the banker and in
English as the head referee: not one violation in any step."""

from __future__ import annotations

import pytest
from browsing import CSP_LISTENER, PHONE, db, login_as
from consoles import ended_table, keys
from factories import UserFactory, appoint

from referee.models import GameResult
from tournament.models import StaffRole

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("lang", "who"), [("de", "banker"), ("en", "head_referee")])
def test_the_count_violates_no_content_security_policy(browser, live_server, lang, who):
    table = db(ended_table)
    user = table.banker if who == "banker" else db(
        appoint, UserFactory(username="oberschiri"), StaffRole.Role.HEAD_REFEREE,
        table.round.tournament)
    context = browser.new_context(base_url=live_server.url, locale={"de": "de-DE"}.get(lang,
                                  "en-GB"), viewport=PHONE,
                                  extra_http_headers={"Accept-Language": lang})
    context.add_init_script(CSP_LISTENER)
    login_as(context, live_server, user)
    page = context.new_page()
    page.set_default_timeout(15_000)
    csp: list[str] = []
    page.on("console", lambda message: csp.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.on("dialog", lambda dialog: dialog.accept())
    seen: dict[str, list[str]] = {}

    def step(name: str) -> None:
        found = page.evaluate("window.__csp") + csp
        if found:
            seen[name] = list(found)
        page.evaluate("window.__csp = []")
        csp.clear()

    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector('#console-main[data-mode="count"]')
    step("open")
    anna = db(keys, table)[0]
    form = page.locator(".count-form")
    form.locator(f'input[data-cash-for="{anna}"]').fill("1234")
    form.locator('.answer [data-ok="1"]').wait_for()
    step("cash checked")
    form.locator(".btn-confirm").click()
    page.wait_for_function("() => window.MCS && MCS.bankerConsole && "
                           "MCS.bankerConsole.queue().length === 0")
    page.wait_for_selector(f'tr[data-standing="{anna}"] >> text=/1[.,]234/')
    step("cash saved")
    page.locator('[data-testid="count-finished"]').click()
    page.wait_for_selector('[data-result="counted"]')
    step("count finished")
    page.locator('input[name="code"]').fill("0000" if db(lambda: table.game.confirmation_code)
                                            != "0000" else "1111")
    page.locator('input[name="code"]').press("Enter")
    page.wait_for_selector('[data-field-error="code"]')
    step("wrong code")
    page.locator("details.dispute summary").click()
    page.locator('details.dispute textarea[name="note"]').wait_for(state="visible")
    step("dispute opened")
    page.locator('[data-testid="reopen-count"]').click()
    page.wait_for_selector(".count-form")
    step("count reopened")
    assert db(lambda: GameResult.objects.filter(game__table=table).exists()) is False
    page.locator('[data-testid="count-finished"]').click()
    page.wait_for_selector('[data-result="counted"]')
    page.locator('input[name="code"]').fill(db(lambda: table.game.confirmation_code))
    page.locator('input[name="code"]').press("Enter")
    page.wait_for_selector('[data-result="confirmed"]')
    step("confirmed")
    context.close()
    assert seen == {}
