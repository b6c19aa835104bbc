"""A form the console has just swapped in is wired at once (htmx's settle delay is 0,
``templates/base.html``): a tap or an Enter in the moment after the swap goes through htmx,
never as the browser's own GET of the page with what was typed in its address. Seen in CI
under load: the wrong code typed and sent at once after "Count finished" reloaded the console
without its message (htmx wires swapped content when it settles, 20 ms later by default)."""

from __future__ import annotations

import pytest
from browsing import PHONE, db, login_as
from consoles import ended_table, keys

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEND_WHEN_IT_APPEARS = """code => new Promise(resolve => {
  const observer = new MutationObserver(() => {
    const field = document.querySelector('#confirm-code');
    if (!field) return;
    observer.disconnect();
    field.value = code;
    field.form.requestSubmit();  // before any timer of the page runs
    resolve(true);
  });
  observer.observe(document.body, {childList: true, subtree: true});
  document.querySelector('[data-testid="count-finished"]').click();
})"""


def test_a_code_sent_the_moment_its_form_appears_goes_through_htmx(browser, live_server):
    table = db(ended_table)
    context = browser.new_context(base_url=live_server.url, locale="de-DE", viewport=PHONE,
                                  extra_http_headers={"Accept-Language": "de"})
    login_as(context, live_server, table.banker)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"/banker/table/{table.pk}/")
    page.wait_for_selector('#console-main[data-mode="count"]')
    anna = db(keys, table)[0]
    form = page.locator(".count-form")
    form.locator(f'input[data-cash-for="{anna}"]').fill("1234")
    form.locator('.answer [data-ok="1"]').wait_for()
    form.locator(".btn-confirm").click()
    page.wait_for_function("() => window.MCS && MCS.bankerConsole && "
                           "MCS.bankerConsole.queue().length === 0")
    page.wait_for_selector(f'tr[data-standing="{anna}"] >> text=/1[.,]234/')
    wrong = "0000" if db(lambda: table.game.confirmation_code) != "0000" else "1111"
    assert page.evaluate(SEND_WHEN_IT_APPEARS, wrong)
    page.wait_for_selector('[data-field-error="code"]')
    assert "code=" not in page.url
    assert db(lambda: type(table.game).objects.get(pk=table.game.pk).wrong_codes) == 1
    context.close()
