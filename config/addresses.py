"""The address phones are given (links and QR codes for bankers, players and spectators).

The tournament's public address, else ``PUBLIC_BASE_URL``, else — on the event laptop — the
laptop's own address on the hall's network (the server knows it: ``config.lan``; a page opened
on the laptop itself as ``127.0.0.1`` must not hand phones an address that names the phone),
else the address the page was opened with.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from config.lan import lan_addresses


def laptop_base_url() -> str | None:
    """``http://<LAN address>:<PORT>`` on the event laptop (None elsewhere or offline). Plain
    HTTP: every phone opens it, with or without the laptop's authority."""
    port = getattr(settings, "LAPTOP_PORT", None)
    if port is None:
        return None
    addresses = lan_addresses()
    return f"http://{addresses[0]}:{port}" if addresses else None


def public_base_url(request: HttpRequest, configured: str = "") -> str:
    """Where a phone reaches this site (no trailing slash); ``configured``: the tournament's
    public address, when it has one."""
    base = configured or getattr(settings, "PUBLIC_BASE_URL", "") or laptop_base_url()
    return (base or request.build_absolute_uri("/")).rstrip("/")


def absolute(request: HttpRequest, path: str, configured: str = "") -> str:
    """``path`` on the public address."""
    return public_base_url(request, configured) + path
