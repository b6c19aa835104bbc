"""The plain-HTTP certificate page (laptop/capage.py) takes its styles from its own /ca.css:
the phone does not trust the HTTPS site yet, and no template carries a style element."""

from __future__ import annotations

import urllib.request

from laptop.capage import make_server, serve_in_background
from laptop.tls import Authority


def test_the_certificate_page_links_its_stylesheet(tmp_path):
    authority = Authority(tmp_path / "tls")
    authority.ensure_ca(["127.0.0.1"])
    server = make_server(port=0, authority=authority, app_port=8443)
    serve_in_background(server)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with urllib.request.urlopen(f"{base}/", timeout=10) as answer:
            page = answer.read().decode()
        with urllib.request.urlopen(f"{base}/ca.css", timeout=10) as answer:
            kind, css = answer.headers["Content-Type"], answer.read().decode()
    finally:
        server.shutdown()
        server.server_close()
    assert '<link rel="stylesheet" href="/ca.css">' in page and "<style" not in page
    assert kind.startswith("text/css") and "a.button" in css
