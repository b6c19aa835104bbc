"""The web server of ``make serve``: gunicorn on all interfaces as a child process, the
addresses and their QR codes in the terminal, and a watch on the laptop's addresses."""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import io
import os
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import qrcode

from config.lan import lan_addresses


class AlreadyRunning(Exception):
    pass


@contextlib.contextmanager
def data_lock(folder: Path):
    """One ``serve`` per data folder (so one scheduler); ``restore`` checks it too."""
    path = folder / "laptop.lock"
    handle = open(path, "a+")  # noqa: SIM115 - held for the whole run
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise AlreadyRunning(str(folder)) from None
    try:
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def is_running(folder: Path) -> bool:
    try:
        with data_lock(folder):
            return False
    except AlreadyRunning:
        return True


def _die_with_parent() -> None:
    """Linux: gunicorn gets SIGTERM if ``serve`` itself is killed (no orphaned server)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def qr_text(data: str) -> str:
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


class Gunicorn:
    def __init__(self, *, port: int, workers: int, threads: int, env: dict[str, str],
                 certfile: Path | None, cafile: Path | None) -> None:
        self.port = port
        self.certfile = certfile
        self.cafile = cafile
        args = [
            sys.executable, "-m", "gunicorn", "config.wsgi",
            "--bind", f"0.0.0.0:{port}", "--workers", str(workers),
            "--worker-class", "gthread", "--threads", str(threads),
            "--timeout", "60", "--graceful-timeout", "10", "--log-level", "warning",
        ]
        if certfile:
            args += ["--certfile", str(certfile)]
        self.args = args
        self.env = env
        self.proc: subprocess.Popen | None = None

    @property
    def scheme(self) -> str:
        return "https" if self.certfile else "http"

    def start(self, wait: float = 60) -> None:
        self.proc = subprocess.Popen(self.args, env=self.env,
                                     preexec_fn=_die_with_parent if sys.platform == "linux"
                                     else None)  # noqa: PLW1509
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}")
            if self.healthy():
                return
            time.sleep(0.3)
        raise RuntimeError(f"the server did not answer on port {self.port} within {wait:.0f} s")

    def healthy(self) -> bool:
        context = None
        if self.certfile:
            context = ssl.create_default_context(cafile=str(self.cafile))
        try:
            with urllib.request.urlopen(f"{self.scheme}://127.0.0.1:{self.port}/healthz",
                                        timeout=3, context=context) as answer:
                return answer.status == 200
        except urllib.error.HTTPError as error:  # answering: a failing backup is a 503 there
            return error.code == 503
        except OSError:
            return False

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def banner(*, scheme: str, port: int, ca_port: int | None, addresses: list[str],
           fingerprint: str | None, https_port: int | None = None) -> str:
    """The addresses with QR codes: everyone's (plain HTTP on ``port``) and, with HTTPS, the
    staff's and bankers' (``https_port``)."""
    lines = [""]
    if not addresses:
        lines += ["No network address found: connect the laptop to the hall's Wi-Fi/router.",
                  "Keine Netzwerkadresse gefunden: Laptop mit dem WLAN/Router der Halle verbinden.",
                  f"On this laptop / Auf diesem Laptop: {scheme}://127.0.0.1:{port}/"]
        return "\n".join(lines) + "\n"
    for address in addresses:
        url = f"{scheme}://{address}:{port}/"
        who = ("Spectators, players, hall screens / Publikum, Spieler, Hallenbildschirme"
               if https_port else "Staff, bankers and spectators open / Personal, Bankhalter "
               "und Publikum öffnen")
        lines += [f"{who}:  {url}", qr_text(url)]
        if https_port:
            secure = f"https://{address}:{https_port}/"
            lines += [f"Staff and bankers (HTTPS) / Personal und Bankhalter (HTTPS):  {secure}",
                      qr_text(secure)]
    if ca_port:
        ca = f"http://{addresses[0]}:{ca_port}/"
        lines += ["Phones trust the laptop once (HTTPS, offline console) /"
                  " Handys vertrauen dem Laptop einmal (HTTPS, Konsole offline):",
                  f"  {ca}", qr_text(ca), f"  CA SHA-256: {fingerprint}"]
    staff = f"https://{addresses[0]}:{https_port}" if https_port else (
        f"{scheme}://{addresses[0]}:{port}")
    lines.append(f"Organizer / Organisation: {staff}/manage/")
    return "\n".join(lines) + "\n"


def watch_addresses(previous: list[str]) -> list[str] | None:
    """The new address list when it changed, else None."""
    current = lan_addresses()
    return current if current != previous else None


def environment(*, data_dir: Path, https: bool, port: int, backup_dir: Path,
                keep: int, backup_device: int | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.laptop", LAPTOP_DATA_DIR=str(data_dir),
               LAPTOP_BACKUP_DIR=str(backup_dir), LAPTOP_BACKUP_KEEP=str(keep),
               LAPTOP_HTTPS="1" if https else "0", LAPTOP_PORT=str(port), PYTHONUNBUFFERED="1",
               LAPTOP_BACKUP_DEVICE="" if backup_device is None else str(backup_device))
    return env
