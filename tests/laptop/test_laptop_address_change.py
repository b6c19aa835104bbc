"""The laptop gets another address mid-event (another router, DHCP): ``serve`` prints it,
answers on it (the allowed host names follow) and, with HTTPS, presents a certificate for it.

Simulated with a real extra address on the loopback interface (needs root and ``ip``)."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from rehearsal.laptop import Serve
from rehearsal.stack import free_port

ROOT = Path(__file__).resolve().parents[2]
NEW = "203.0.113.77"  # TEST-NET-3: never a real neighbour


@pytest.fixture
def new_address():
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("needs root and `ip` to add an address")
    subprocess.run(["ip", "addr", "del", f"{NEW}/32", "dev", "lo"], capture_output=True,
                   check=False)
    yield lambda: subprocess.run(["ip", "addr", "add", f"{NEW}/32", "dev", "lo"], check=True)
    subprocess.run(["ip", "addr", "del", f"{NEW}/32", "dev", "lo"], capture_output=True,
                   check=False)


def status(url: str, context=None) -> int:
    request = urllib.request.Request(url)
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_new_address_is_printed_served_and_certified(tmp_path, new_address):
    port = free_port()
    serve = Serve(ROOT, tmp_path / "data", port, workers=1, https=True,
                  extra=["--watch-seconds", "0.5", "--ca-port", str(free_port())])
    try:
        serve.wait_for("Stop with Ctrl-C")
        trust = ssl.create_default_context(cafile=str(tmp_path / "data" / "tls" / "ca.pem"))
        with pytest.raises(urllib.error.URLError):  # not this laptop's address yet
            status(f"https://{NEW}:{port}/healthz", trust)
        new_address()
        serve.wait_for(rf"address changed.*{NEW.replace('.', '[.]')}", seconds=20)
        serve.wait_for(rf"https://{NEW.replace('.', '[.]')}:{port}/", seconds=5)
        # Not a private address: the authority may not sign it (issue 26), so a new one is
        # made and the phones trust that one instead.
        serve.wait_for("A new certificate authority was made", seconds=5)
        trust = ssl.create_default_context(cafile=str(tmp_path / "data" / "tls" / "ca.pem"))
        codes = []
        for _ in range(40):  # the workers restart gracefully
            try:
                codes.append(status(f"https://{NEW}:{port}/healthz", trust))
            except urllib.error.URLError:
                codes.append(0)
            if codes[-1] == 200:
                break
            time.sleep(0.25)
        assert codes[-1] == 200, codes
    finally:
        serve.stop()
    serve.wait_for("remove the certificate", seconds=10)  # how, printed at the end
