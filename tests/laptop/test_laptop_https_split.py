"""With ``HTTPS=1`` the hall still works over plain HTTP (issue 25, finding 9): spectators',
players' and hall screens' phones and TVs have no authority installed, and the cards printed
before the switch name ``http://<laptop>:PORT``. So plain HTTP stays on PORT, and the staff and
the bankers' consoles get HTTPS on a port of their own (a real ``serve`` in a subprocess)."""

from __future__ import annotations

import ssl
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from rehearsal.laptop import Serve
from rehearsal.stack import free_port

ROOT = Path(__file__).resolve().parents[2]


def status(url: str, context=None) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10, context=context) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.slow
def test_plain_http_stays_on_the_port_and_https_serves_the_staff(tmp_path):
    port = free_port()
    serve = Serve(ROOT, tmp_path / "data", port, workers=1, https=True,
                  extra=["--ca-port", str(free_port())])
    try:
        serve.wait_for("Stop with Ctrl-C")
        text = "".join(serve.lines)
        assert f":{serve.http_port}/" in text and "https://" in text
        assert status(f"{serve.http_base}/healthz") == 200  # no certificate needed
        assert status(f"{serve.http_base}/") == 200  # the public site, as printed cards open it
        trust = ssl.create_default_context(cafile=str(tmp_path / "data" / "tls" / "ca.pem"))
        assert status(f"{serve.base}/healthz", trust) == 200
        with pytest.raises(OSError):  # plain HTTP is not spoken on the TLS port
            status(f"http://127.0.0.1:{port}/healthz")
    finally:
        serve.stop()
