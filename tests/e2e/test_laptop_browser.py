"""``make serve`` seen from a banker's phone on the hall's network: over plain HTTP the
console says that it cannot reopen without Wi-Fi; with ``--https`` the phone downloads the
laptop's authority from the plain-HTTP page, the server's certificate verifies against it,
and the console is a secure context (no notice, the service worker registers)."""

from __future__ import annotations

import base64
import ssl
import urllib.request
from pathlib import Path

import pytest

from config.lan import lan_addresses
from rehearsal.laptop import PASSWORD, Serve, ok, set_up_round
from rehearsal.stack import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


@pytest.fixture
def lan() -> str:
    addresses = lan_addresses()
    if not addresses:
        pytest.skip("this machine has no LAN address")
    return addresses[0]


def open_console(browser, base: str, table_id: int, *, https: bool = False) -> tuple[bool, bool]:
    """(notice visible, service worker registered) for the console of ``table_id``."""
    context = browser.new_context(base_url=base, locale="de-DE", ignore_https_errors=https,
                                  viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto("/login/")
        page.fill("#id_username", "organizer")
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit].primary")
        page.wait_for_load_state()
        page.goto(f"/banker/table/{table_id}/")
        page.wait_for_selector("#console")
        page.wait_for_timeout(1500)
        notice = page.is_visible("#insecure-notice")
        worker = page.evaluate("""async () => {
            if (!('serviceWorker' in navigator)) return false;
            return (await navigator.serviceWorker.getRegistrations()).length > 0; }""")
        page.screenshot(path=f"/tmp/laptop-console-{base.split(':')[0]}.png")
        return notice, worker
    finally:
        context.close()


def test_over_plain_http_the_console_says_what_is_lost(browser, lan, tmp_path):
    port = free_port()
    serve = Serve(ROOT, tmp_path / "data", port, workers=1)
    try:
        org = serve.organizer()
        table = set_up_round(org, slug="http", players=6)[0]
        notice, worker = open_console(browser, f"http://{lan}:{port}", table["id"])
    finally:
        serve.stop()
    assert notice and not worker


def spki_hash(pem: Path) -> str:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization

    certificate = x509.load_pem_x509_certificate(pem.read_bytes())
    spki = certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    digest = hashes.Hash(hashes.SHA256())
    digest.update(spki)
    return base64.b64encode(digest.finalize()).decode()


def test_with_https_the_phone_trusts_the_laptop_and_the_console_works_offline(
        browser, chromium_path, lan, tmp_path):
    def browser_trusting(path: str, pem: Path):
        return browser.browser_type.launch(
            executable_path=path, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                  f"--ignore-certificate-errors-spki-list={spki_hash(pem)}"])

    port, ca_port = free_port(), free_port()
    serve = Serve(ROOT, tmp_path / "data", port, workers=1, https=True,
                  extra=["--ca-port", str(ca_port)])
    try:
        serve.wait_for("Stop with Ctrl-C")
        page = urllib.request.urlopen(f"http://{lan}:{ca_port}/", timeout=10).read().decode()
        assert 'href="/ca.crt"' in page and f"https://{lan}:{port}/" in page
        with urllib.request.urlopen(f"http://{lan}:{ca_port}/ca.crt", timeout=10) as answer:
            assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
            der = answer.read()
        serve.context = ssl.create_default_context(cadata=der)
        with urllib.request.urlopen(f"https://{lan}:{port}/healthz", timeout=10,
                                    context=serve.context) as answer:
            assert answer.status == 200  # the certificate names the LAN address
        with pytest.raises(urllib.error.URLError):  # a phone without the authority is warned
            urllib.request.urlopen(f"https://{lan}:{port}/healthz", timeout=10)
        org = serve.organizer()
        assert ok(org.get("/manage/")).status == 200
        table = set_up_round(org, slug="https", players=6)[0]
        # A phone that trusts the authority: chromium told to accept the server's key.
        trusting = browser_trusting(chromium_path, tmp_path / "data" / "tls" / "server.pem")
        try:
            notice, worker = open_console(trusting, f"https://{lan}:{port}", table["id"])
        finally:
            trusting.close()
    finally:
        serve.stop()
    assert not notice and worker
