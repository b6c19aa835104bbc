"""``make serve`` at a terminal: the first organizer's name and password are asked for (twice,
checked by Django's password rules), and no one-time link is printed."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from pathlib import Path

from rehearsal.client import Client
from rehearsal.stack import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_the_organizer_is_asked_for_at_a_terminal(tmp_path):
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(LAPTOP_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "laptop", "serve", "--port", str(port),
                             "--workers", "1"], cwd=ROOT, env=env, stdin=slave, stdout=slave,
                            stderr=slave, start_new_session=True)
    os.close(slave)
    seen = b""

    def until(text: bytes, seconds: float = 90) -> None:
        nonlocal seen
        deadline = time.monotonic() + seconds
        while text not in seen:
            assert time.monotonic() < deadline and proc.poll() is None, seen.decode()[-2000:]
            try:
                seen += os.read(master, 4096)
            except OSError:
                time.sleep(0.1)

    try:
        until(b"Organizer login name")
        os.write(master, b"chefin\n")
        until(b"Password:")
        os.write(master, b"Schlossallee-4000\n")
        until(b"again")
        os.write(master, b"Schlossallee-4000\n")
        until(b"Stop with Ctrl-C")
        assert b"/password/set/" not in seen and b"Organizer 'chefin' created" in seen
        client = Client(f"http://127.0.0.1:{port}")
        client.login("chefin", "Schlossallee-4000")
        assert client.get("/manage/").status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        os.close(master)
